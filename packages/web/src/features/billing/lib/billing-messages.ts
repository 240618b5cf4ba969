import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/api-client';
import { errorMessages, translateMessage } from '../../../lib/errors';

/** The billing texts of SPEC §8 and §4, exactly as SPEC writes them (English is the source). */
export const billingMessages = {
  invalidVoucher: 'Invalid Voucher. This value is case sensitive',
  cardValidationFailed: 'Card validation failed!',
  checkCardNumber: 'Card validation failed! Please check your card number again',
  updateCardFailed: 'An error occurred while processing your card. Try again in a little bit.',
  alreadyCancelled: 'Already Cancelled',
  /** SPEC §8's general retry text, for a plan change the server refused without words. */
  tryAgain: 'Error occured. Please try again',
} as const;

/**
 * "The provider's message" (SPEC §8) is shown as the gateway wrote it; these are the ones the
 * card networks' test cards produce (the sandbox gateway answers with the same texts as Stripe),
 * so they can be shown in Chinese too. Any other provider text is shown as it came.
 */
const providerMessages: Record<string, string> = {
  'Your card was declined.': 'declined',
  "Your card's security code is incorrect.": 'incorrectCvc',
  'Your card has insufficient funds.': 'insufficientFunds',
  'Your card number is incorrect.': 'incorrectNumber',
  'Your card has expired.': 'expired',
  'Your card does not support this type of purchase.': 'unsupported',
};

/** The billing service's own refusals (a stale screen asking for a change that no longer fits). */
const serverMessages: Record<string, string> = {
  'You already have a subscription; change its plan instead.': 'alreadySubscribed',
  'You have no subscription to change; choose a plan on the pricing page.': 'noSubscription',
  'The subscription is not cancelled.': 'notCancelled',
  'The subscription has ended; choose a plan on the pricing page.': 'subscriptionEnded',
  'Please enter a card first.': 'noCardOnFile',
  'This customer has no attached payment source or default payment method.': 'noCardOnFile',
};

const keyOfText = new Map<string, string>([
  ...Object.entries(serverMessages).map(([text, key]): [string, string] => [text, `server.${key}`]),
  ...Object.entries(billingMessages).map(([key, text]): [string, string] => [text, key]),
  ...Object.entries(providerMessages).map(([text, key]): [string, string] => [
    text,
    `provider.${key}`,
  ]),
]);

/**
 * A billing text in the interface language; the account texts (join-and-pay registers) through
 * the shared table; an unknown provider text as it came.
 */
export function translateBillingText(text: string, t: TFunction): string {
  const key = keyOfText.get(text);
  return key ? t(`billing.messages.${key}`) : translateMessage(text, t);
}

/**
 * The message for a failed billing call, in English (the source text): the server's (the
 * provider's) words when it sent any, else `fallback` (one of `billingMessages`).
 */
export function billingErrorSource(error: unknown, fallback: keyof typeof billingMessages): string {
  const texts = error instanceof CardError ? [error.text] : serverTexts(error);
  return texts[0] ?? billingMessages[fallback];
}

/** The same in the interface language. */
export function billingErrorText(
  error: unknown,
  fallback: keyof typeof billingMessages,
  t: TFunction,
): string {
  return translateBillingText(billingErrorSource(error, fallback), t);
}

/** The server refused because no card is on file: the way on is checkout, which asks for one. */
export function needsCard(error: unknown): boolean {
  return serverTexts(error).some((text) => serverMessages[text] === 'noCardOnFile');
}

function serverTexts(error: unknown): string[] {
  // A network failure or an answer without a message carries no provider's words.
  if (!(error instanceof ApiError)) return [];
  return errorMessages(error).filter((text) => text !== error.message);
}

/** A card the card form could not turn into a token; `text` is one of SPEC §8's card messages. */
export class CardError extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

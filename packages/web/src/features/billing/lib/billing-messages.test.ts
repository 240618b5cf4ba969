import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import {
  billingErrorSource,
  billingMessages,
  CardError,
  needsCard,
  translateBillingText,
} from './billing-messages';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../public/locales',
);
function billingTexts(language: string): Record<string, unknown> {
  const file = path.join(localesDir, language, 'translation.json');
  return (
    JSON.parse(readFileSync(file, 'utf8')) as { billing: { messages: Record<string, unknown> } }
  ).billing.messages;
}

describe('billing messages (SPEC §8)', () => {
  it('keeps the English texts exactly as SPEC writes them', () => {
    expect(billingMessages.invalidVoucher).toBe('Invalid Voucher. This value is case sensitive');
    expect(billingMessages.checkCardNumber).toBe(
      'Card validation failed! Please check your card number again',
    );
    expect(billingMessages.updateCardFailed).toBe(
      'An error occurred while processing your card. Try again in a little bit.',
    );
  });

  it('has every message in English (same text) and in Chinese', () => {
    const english = billingTexts('en');
    const chinese = billingTexts('zh-CN');
    for (const [key, text] of Object.entries(billingMessages)) {
      expect(english[key]).toBe(text);
      expect(chinese[key]).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it("shows the provider's words, else the fallback", () => {
    const declined = new ApiError(402, { exceptionMessage: 'Your card was declined.' });
    expect(billingErrorSource(declined, 'cardValidationFailed')).toBe('Your card was declined.');
    expect(billingErrorSource(new ApiError(500, undefined), 'updateCardFailed')).toBe(
      billingMessages.updateCardFailed,
    );
    expect(billingErrorSource(new TypeError('Failed to fetch'), 'cardValidationFailed')).toBe(
      billingMessages.cardValidationFailed,
    );
    expect(billingErrorSource(new CardError(billingMessages.checkCardNumber), 'tryAgain')).toBe(
      billingMessages.checkCardNumber,
    );
  });

  it('knows the refusals that ask for a card, from us and from Stripe, and nothing else', () => {
    const ours = new ApiError(400, { exceptionMessage: 'Please enter a card first.' });
    const stripe = new ApiError(400, {
      exceptionMessage: 'This customer has no attached payment source or default payment method.',
    });
    expect(needsCard(ours)).toBe(true);
    expect(needsCard(stripe)).toBe(true);
    expect(needsCard(new ApiError(402, { exceptionMessage: 'Your card was declined.' }))).toBe(
      false,
    );
    expect(needsCard(new TypeError('Please enter a card first.'))).toBe(false);
  });

  it('translates known texts by key and leaves an unknown provider text as it came', () => {
    const t = ((key: string) => `[${key}]`) as unknown as TFunction;
    expect(translateBillingText('Your card was declined.', t)).toBe(
      '[billing.messages.provider.declined]',
    );
    expect(translateBillingText('Already Cancelled', t)).toBe(
      '[billing.messages.alreadyCancelled]',
    );
    expect(translateBillingText('Card issuer unavailable.', t)).toBe('Card issuer unavailable.');
  });
});

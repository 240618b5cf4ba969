/**
 * Stripe's published test cards (docs.stripe.com/testing) as the local Stripe-shaped server
 * plays them: the card number a person types into Elements, the `tok_…` and `pm_card_…` ids
 * Stripe accepts in test mode in its place, and what happens when the card is attached to a
 * customer (Stripe checks it then) and when it is charged.
 */
export interface CardRefusal {
  ok: false;
  code: string;
  declineCode: string | null;
  message: string;
  param: string | null;
}
export type CardOutcome = { ok: true } | CardRefusal;

export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard';
  /** Stripe's check when the card is attached to a customer. */
  onAttach: CardOutcome;
  /** Every later charge (first invoice, renewals, a retried invoice). */
  onCharge: CardOutcome;
  tokenId: string;
  paymentMethodId: string;
}

const succeeds: CardOutcome = { ok: true };

const genericDecline: CardRefusal = {
  ok: false,
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
  param: null,
};

const incorrectCvc: CardRefusal = {
  ok: false,
  code: 'incorrect_cvc',
  declineCode: null,
  message: "Your card's security code is incorrect.",
  param: 'cvc',
};

const expiredCard: CardRefusal = {
  ok: false,
  code: 'expired_card',
  declineCode: null,
  message: 'Your card has expired.',
  param: 'exp_month',
};

export const testCards: readonly TestCard[] = [
  {
    number: '4242424242424242',
    brand: 'visa',
    onAttach: succeeds,
    onCharge: succeeds,
    tokenId: 'tok_visa',
    paymentMethodId: 'pm_card_visa',
  },
  {
    number: '5555555555554444',
    brand: 'mastercard',
    onAttach: succeeds,
    onCharge: succeeds,
    tokenId: 'tok_mastercard',
    paymentMethodId: 'pm_card_mastercard',
  },
  {
    number: '4000000000000002',
    brand: 'visa',
    onAttach: genericDecline,
    onCharge: genericDecline,
    tokenId: 'tok_chargeDeclined',
    paymentMethodId: 'pm_card_chargeDeclined',
  },
  {
    // "Attaching this card to a Customer object succeeds, but attempts to charge the customer
    // fail": the card that passes checkout and fails at renewal.
    number: '4000000000000341',
    brand: 'visa',
    onAttach: succeeds,
    onCharge: genericDecline,
    tokenId: 'tok_chargeCustomerFail',
    paymentMethodId: 'pm_card_chargeCustomerFail',
  },
  {
    number: '4000000000000127',
    brand: 'visa',
    onAttach: incorrectCvc,
    onCharge: incorrectCvc,
    tokenId: 'tok_chargeDeclinedIncorrectCvc',
    paymentMethodId: 'pm_card_chargeDeclinedIncorrectCvc',
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    onAttach: expiredCard,
    onCharge: expiredCard,
    tokenId: 'tok_chargeDeclinedExpiredCard',
    paymentMethodId: 'pm_card_chargeDeclinedExpiredCard',
  },
];

export const incorrectNumber: CardRefusal = {
  ok: false,
  code: 'incorrect_number',
  declineCode: null,
  message: 'Your card number is incorrect.',
  param: 'number',
};

/** A number that passes the Luhn check but is none of the published ones charges fine. */
export function testCardByNumber(number: string): TestCard | null {
  const digits = number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return null;
  const known = testCards.find((card) => card.number === digits);
  if (known) return known;
  return {
    number: digits,
    brand: digits.startsWith('5') ? 'mastercard' : 'visa',
    onAttach: succeeds,
    onCharge: succeeds,
    tokenId: '',
    paymentMethodId: '',
  };
}

export function testCardById(id: string): TestCard | null {
  return testCards.find((card) => card.tokenId === id || card.paymentMethodId === id) ?? null;
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card numbers payment providers publish for testing (Stripe's list), and what each does.
 * The sandbox gateway accepts exactly these behaviours; the contract suite uses them on every
 * adapter. Any other valid-looking number behaves like `succeeds` in the sandbox.
 */
export const testCards = {
  /** Visa: attaches and always pays. */
  succeeds: '4242424242424242',
  /** Refused when attached: card_declined. */
  declined: '4000000000000002',
  /** Attaches, but every later charge fails (the renewal). */
  failsAtRenewal: '4000000000000341',
  /** Refused when attached: incorrect_cvc. */
  wrongCvc: '4000000000000127',
} as const;

export type TestCardBehaviour = keyof typeof testCards;

/** The providers' messages for the refusals (Stripe's wording, shown to the user, SPEC §8). */
export const cardMessages = {
  declined: 'Your card was declined.',
  incorrectCvc: "Your card's security code is incorrect.",
  noCard: 'This customer has no attached payment source or default payment method.',
} as const;

/** What a card number does in the sandbox (the number itself is never kept). */
export function behaviourOf(cardNumber: string): TestCardBehaviour {
  const found = Object.entries(testCards).find(([, number]) => number === cardNumber);
  return found ? (found[0] as TestCardBehaviour) : 'succeeds';
}

/**
 * The billing texts the server answers with. SPEC §8 gives the voucher, card and cancellation
 * texts word for word; the web app shows its own translation of each (en, zh-CN), keyed by
 * these English texts, and shows a provider's card message as it comes.
 */
export const billingMessages = {
  invalidVoucher: 'Invalid Voucher. This value is case sensitive',
  cardValidationFailed: 'Card validation failed!',
  checkCardNumber: 'Card validation failed! Please check your card number again',
  cardProcessingError: 'An error occurred while processing your card. Try again in a little bit.',
  alreadyCancelled: 'Already Cancelled',
  alreadySubscribed: 'You already have a subscription; change its plan instead.',
  noSubscription: 'You have no subscription to change; choose a plan on the pricing page.',
  notCancelled: 'The subscription is not cancelled.',
  subscriptionEnded: 'The subscription has ended; choose a plan on the pricing page.',
  noCardOnFile: 'Please enter a card first.',
  voucherExists: (code: string) => `A voucher with the code ${code} already exists.`,
} as const;

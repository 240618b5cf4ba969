import type { Plan } from '@linkaudit/core';
import { pricePreview } from '../lib/price';
import type { CardHandle } from './card-handle';
import type { VoucherState } from './use-voucher';

export interface PaymentInput {
  voucher: string | undefined;
  /** Null when a 100 % voucher makes the plan free: no card is asked. */
  cardToken: string | null;
}

/**
 * The voucher is settled first (a refused code stops here, its message beside the box), then
 * the card becomes a token. Answers undefined when the voucher was refused.
 */
export async function collectPayment(
  plan: Plan,
  voucher: VoucherState,
  card: CardHandle | null,
): Promise<PaymentInput | undefined> {
  const applied = await voucher.resolve();
  if (applied === false) return undefined;
  if (pricePreview(plan, applied?.coupon).free) return { voucher: applied?.code, cardToken: null };
  if (!card) throw new Error('The card form is not ready.');
  return { voucher: applied?.code, cardToken: await card.createToken() };
}

/** One key per dialog opening: a double click or a retried request charges once. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

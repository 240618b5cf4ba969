import { sandboxCardSchema, sandboxTokenResponseSchema } from '@linkaudit/core';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type SandboxCard = z.input<typeof sandboxCardSchema>;

/**
 * POST /api/billing/sandbox/tokens: the sandbox gateway's stand-in for a provider's card form.
 * Only the sandbox ever sees a card number; in Stripe mode the number goes to Stripe, not to us.
 */
export const createSandboxCardToken = (card: SandboxCard) =>
  apiRequest('/api/billing/sandbox/tokens', sandboxTokenResponseSchema, {
    method: 'POST',
    json: sandboxCardSchema.parse(card),
  });

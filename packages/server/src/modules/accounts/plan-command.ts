import type { Kysely } from 'kysely';
import { emailSchema, parsePlanId, plans } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { forgetEndedSubscription } from '../billing/billing-command.js';
import { findUserByEmail, setUserPlan } from './accounts.repository.js';

export const planUsage = `usage: linkaudit-server plan set <email> <${Object.keys(plans).join('|')}>`;

/**
 * `linkaudit-server plan set <email> <plan>`: the operator's way to put an account on a plan until
 * billing exists (kept afterwards as an operator tool). Answers what to print, or throws.
 */
export async function runPlanCommand(db: Kysely<Database>, args: string[]): Promise<string> {
  const [action, address, planInput, ...extra] = args;
  const email = emailSchema.safeParse(address);
  const planId = planInput === undefined ? undefined : parsePlanId(planInput);
  if (action !== 'set' || !email.success || planId === undefined || extra.length > 0) {
    throw new Error(planUsage);
  }
  const user = await findUserByEmail(db, email.data);
  if (!user) throw new Error(`No account has the address ${email.data}; register it first.`);
  await db.transaction().execute(async (trx) => {
    await setUserPlan(trx, email.data, planId);
    await forgetEndedSubscription(trx, user.id);
  });
  return `${email.data} is now on the ${planId} plan.`;
}

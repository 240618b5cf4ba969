import type { Kysely } from 'kysely';
import { emailSchema, parsePlanId, plans } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { setUserPlan } from './accounts.repository.js';

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
  const found = await setUserPlan(db, email.data, planId);
  if (!found) throw new Error(`No account has the address ${email.data}; register it first.`);
  return `${email.data} is now on the ${planId} plan.`;
}

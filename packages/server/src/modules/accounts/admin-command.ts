import type { Kysely } from 'kysely';
import { emailSchema } from '@linkaudit/core';
import type { Database } from '../../db/schema.js';
import { setUserRole } from './accounts.repository.js';

export const adminUsage = 'usage: linkaudit-server admin grant|revoke <email>';

/**
 * `linkaudit-server admin grant|revoke <email>`: gives or takes the stored admin role
 * (ADMIN_EMAILS grants it too, from the configuration). Answers what to print, or throws.
 */
export async function runAdminCommand(db: Kysely<Database>, args: string[]): Promise<string> {
  const [action, address, ...extra] = args;
  const email = emailSchema.safeParse(address);
  if ((action !== 'grant' && action !== 'revoke') || !email.success || extra.length > 0) {
    throw new Error(adminUsage);
  }
  const found = await setUserRole(db, email.data, action === 'grant' ? 'admin' : 'user');
  if (!found) throw new Error(`No account has the address ${email.data}; register it first.`);
  return action === 'grant'
    ? `${email.data} is now an admin.`
    : `${email.data} is no longer an admin (unless ADMIN_EMAILS lists it).`;
}

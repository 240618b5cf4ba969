import type { Kysely } from 'kysely';
import {
  createVoucherRequestSchema,
  voucherTypes,
  type CreateVoucherRequest,
} from '@linkaudit/core';
import { systemClock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { BillingClock } from './billing-clock.js';
import { billingMessages } from './billing.messages.js';
import { deleteEndedBillingAccount, insertVoucher, listVouchers } from './billing.repository.js';

export const billingUsage = 'usage: linkaudit-server billing advance-clock <days>';
export const voucherUsage =
  'usage: linkaudit-server voucher create <code> <trial|fixed|percent|0|1|2> <value> [expires=<ISO date>] [max-uses=<n>]\n' +
  '       linkaudit-server voucher list';

/**
 * `linkaudit-server billing advance-clock <days>`: moves the sandbox gateway's clock forward
 * (every server reads the offset from the database); the scheduler then runs what fell due
 * (trial ends, renewals with the test cards) at its next tick.
 */
export async function runBillingCommand(db: Kysely<Database>, args: string[]): Promise<string> {
  const [action, daysInput, ...extra] = args;
  const days = Number(daysInput);
  if (action !== 'advance-clock' || !Number.isFinite(days) || days <= 0 || extra.length > 0) {
    throw new Error(billingUsage);
  }
  const now = await new BillingClock(db, systemClock).advanceDays(days);
  return `The sandbox billing clock now reads ${now.toISOString()} (${days} days later).`;
}

const typeNames: Record<string, CreateVoucherRequest['type']> = {
  trial: voucherTypes.trialDays,
  fixed: voucherTypes.fixedCents,
  percent: voucherTypes.percent,
  '0': 0,
  '1': 1,
  '2': 2,
};

/** `linkaudit-server voucher create …` and `voucher list`: an operator's vouchers (SPEC §4). */
export async function runVoucherCommand(db: Kysely<Database>, args: string[]): Promise<string> {
  const [action, ...rest] = args;
  if (action === 'list' && rest.length === 0) return describeVouchers(db);
  if (action !== 'create') throw new Error(voucherUsage);
  const request = parseCreate(rest);
  const inserted = await insertVoucher(db, {
    code: request.code,
    type: request.type,
    value: request.value,
    expires_at: request.expiresAt ? new Date(request.expiresAt) : null,
    max_uses: request.maxUses ?? null,
    created_at: new Date(),
  });
  if (inserted === 'duplicate') throw new Error(billingMessages.voucherExists(request.code));
  return `Voucher ${request.code} created (${describe(request)}).`;
}

function parseCreate(args: string[]): CreateVoucherRequest {
  const [code, typeInput, valueInput, ...options] = args;
  const named: Record<string, string> = Object.fromEntries(
    options.map((option): [string, string] => {
      const [name, ...value] = option.split('=');
      return [name ?? '', value.join('=')];
    }),
  );
  const unknown = Object.keys(named).filter((name) => name !== 'expires' && name !== 'max-uses');
  const expires = named.expires ? new Date(named.expires) : undefined;
  const parsed = createVoucherRequestSchema.safeParse({
    code,
    type: typeInput === undefined ? undefined : typeNames[typeInput],
    value: Number(valueInput),
    expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires.toISOString() : named.expires,
    maxUses: named['max-uses'] === undefined ? undefined : Number(named['max-uses']),
  });
  if (!parsed.success || unknown.length > 0) throw new Error(voucherUsage);
  if (parsed.data.type === voucherTypes.percent && parsed.data.value > 100) {
    throw new Error('A percentage voucher takes a value from 1 to 100.');
  }
  return parsed.data;
}

function describe(voucher: Pick<CreateVoucherRequest, 'type' | 'value'>): string {
  if (voucher.type === voucherTypes.trialDays) return `trial of ${voucher.value} days`;
  if (voucher.type === voucherTypes.fixedCents) return `${voucher.value} cents off`;
  return `${voucher.value} % off`;
}

async function describeVouchers(db: Kysely<Database>): Promise<string> {
  const rows = await listVouchers(db);
  if (rows.length === 0) return 'No vouchers.';
  return rows
    .map((row) => {
      const type = row.type as CreateVoucherRequest['type'];
      const limit = row.max_uses === null ? 'no limit' : `${row.uses}/${row.max_uses} used`;
      const expiry = row.expires_at ? `expires ${new Date(row.expires_at).toISOString()}` : '';
      return [row.code, describe({ type, value: row.value }), limit, expiry]
        .filter(Boolean)
        .join('  ');
    })
    .join('\n');
}

/**
 * For `linkaudit-server plan set` (accounts): an operator's plan grant forgets the user's
 * subscription when it ended or never paid, whose status would otherwise sit beside the granted
 * plan (issue 37: a Premium user showed "incomplete_expired"). A live subscription is kept.
 */
export function forgetEndedSubscription(db: Kysely<Database>, userId: string): Promise<boolean> {
  return deleteEndedBillingAccount(db, userId);
}

import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../../db/values.js';

/** A flag with a default: may be left out on insert (see db/values.ts Flag). */
type DefaultedFlag = ColumnType<boolean | number, boolean | undefined, boolean>;

/** What the application knows of a user's subscription (kept in step by gateway events). */
export interface BillingAccountsTable {
  user_id: string;
  customer_id: string;
  subscription_id: string | null;
  /** The paid plan of the subscription (users.paid_plan_id is the plan in force). */
  plan: string;
  /** The gateway's subscription status (trialing, active, past_due, canceled, …). */
  status: string;
  trial_end: NullableTimestamp;
  current_period_start: NullableTimestamp;
  current_period_end: NullableTimestamp;
  cancel_at_period_end: DefaultedFlag;
  canceled_at: NullableTimestamp;
  payment_failed: DefaultedFlag;
  voucher: string | null;
  /** The idempotency key of the checkout that made the subscription: its retry answers the same. */
  payment_key: string | null;
  /**
   * When, in real time, the current period began here: the monthly URL credit counts from it.
   * Real time, not the sandbox's advanced clock, because scans finish in real time.
   */
  credit_period_start: NullableTimestamp;
  updated_at: Timestamp;
}

/** An operator's voucher (SPEC §4 types 0, 1, 2); the code is case sensitive. */
export interface VouchersTable {
  code: string;
  type: number;
  value: number;
  expires_at: NullableTimestamp;
  max_uses: number | null;
  uses: Generated<number>;
  created_at: Timestamp;
}

/** Provider events already applied: a replay finds its id here and changes nothing. */
export interface BillingAppliedEventsTable {
  event_id: string;
  type: string;
  applied_at: Timestamp;
}

/** A user's billing call under way (any process): one at a time, until done or the lease ends. */
export interface BillingUserLocksTable {
  user_id: string;
  /** The call holding it (a random id), so only that call releases it. */
  holder: string;
  expires_at: Timestamp;
}

/** Sandbox gateway: a tokenised test card (brand, last 4 and behaviour; never the number). */
export interface SandboxCardsTable {
  token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: string;
  created_at: Timestamp;
}

export interface SandboxCustomersTable {
  id: string;
  user_id: string;
  email: string;
  name: string;
  card_token: string | null;
  /** Credit from a prorated downgrade, taken off the next invoices. */
  balance_cents: Generated<number>;
  created_at: Timestamp;
}

export interface SandboxSubscriptionsTable {
  id: string;
  customer_id: string;
  plan: string;
  status: string;
  trial_end: NullableTimestamp;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  cancel_at_period_end: DefaultedFlag;
  canceled_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  discount_json: string | null;
  created_at: Timestamp;
}

export interface SandboxInvoicesTable {
  id: string;
  customer_id: string;
  subscription_id: string | null;
  status: string;
  amount_due: number;
  amount_paid: number;
  period_start: Timestamp;
  period_end: Timestamp;
  failure_message: string | null;
  created_at: Timestamp;
}

export interface SandboxIdempotencyTable {
  key: string;
  /** Null while the first call is still running. */
  result_json: string | null;
  created_at: Timestamp;
}

export interface SandboxEventsTable {
  id: string;
  type: string;
  payload_json: string;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

export interface BillingTables {
  billing_accounts: BillingAccountsTable;
  vouchers: VouchersTable;
  billing_applied_events: BillingAppliedEventsTable;
  billing_user_locks: BillingUserLocksTable;
  sandbox_cards: SandboxCardsTable;
  sandbox_customers: SandboxCustomersTable;
  sandbox_subscriptions: SandboxSubscriptionsTable;
  sandbox_invoices: SandboxInvoicesTable;
  sandbox_idempotency: SandboxIdempotencyTable;
  sandbox_events: SandboxEventsTable;
}

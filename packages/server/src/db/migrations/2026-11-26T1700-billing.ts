import type { Kysely } from 'kysely';

// Frozen history: never import application code here. Billing (issue 22): what the application
// knows of each user's subscription, operators' vouchers, provider events already applied, and
// the state of the sandbox gateway (the embedded default provider, kept in our own database).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('billing_accounts')
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('customer_id', 'varchar(100)', (column) => column.notNull())
    .addColumn('subscription_id', 'varchar(100)')
    .addColumn('plan', 'varchar(20)', (column) => column.notNull())
    .addColumn('status', 'varchar(30)', (column) => column.notNull())
    .addColumn('trial_end', 'timestamptz')
    .addColumn('current_period_start', 'timestamptz')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('cancel_at_period_end', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('canceled_at', 'timestamptz')
    .addColumn('payment_failed', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('voucher', 'varchar(64)')
    // The idempotency key of the checkout that made the subscription: its retry answers the same.
    .addColumn('payment_key', 'varchar(255)')
    // When (real time) the current period began here: the monthly URL credit counts from it.
    .addColumn('credit_period_start', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('billing_accounts_subscription')
    .on('billing_accounts')
    .column('subscription_id')
    .execute();

  await db.schema
    .createTable('vouchers')
    .addColumn('code', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('type', 'integer', (column) => column.notNull())
    .addColumn('value', 'integer', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();

  // A provider event id is applied once: a replayed webhook finds its row and is ignored.
  await db.schema
    .createTable('billing_applied_events')
    .addColumn('event_id', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('type', 'varchar(100)', (column) => column.notNull())
    .addColumn('applied_at', 'timestamptz', (column) => column.notNull())
    .execute();

  // The sandbox gateway's own state: what a payment provider would keep on its side.
  await db.schema
    .createTable('sandbox_cards')
    .addColumn('token', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('brand', 'varchar(20)', (column) => column.notNull())
    .addColumn('last4', 'varchar(4)', (column) => column.notNull())
    .addColumn('exp_month', 'integer', (column) => column.notNull())
    .addColumn('exp_year', 'integer', (column) => column.notNull())
    // What the published test number does (succeeds, declined, …); never the number itself.
    .addColumn('behaviour', 'varchar(30)', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_customers')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('user_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('card_token', 'varchar(64)')
    // Credit from a prorated downgrade, taken off the next invoices.
    .addColumn('balance_cents', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('customer_id', 'varchar(64)', (column) => column.notNull())
    .addColumn('plan', 'varchar(20)', (column) => column.notNull())
    .addColumn('status', 'varchar(30)', (column) => column.notNull())
    .addColumn('trial_end', 'timestamptz')
    .addColumn('current_period_start', 'timestamptz', (column) => column.notNull())
    .addColumn('current_period_end', 'timestamptz', (column) => column.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('canceled_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('discount_json', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  // The renewal run's question: which live subscriptions have a period that has ended?
  await db.schema
    .createIndex('sandbox_subscriptions_due')
    .on('sandbox_subscriptions')
    .columns(['status', 'current_period_end'])
    .execute();
  await db.schema
    .createTable('sandbox_invoices')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('customer_id', 'varchar(64)', (column) => column.notNull())
    .addColumn('subscription_id', 'varchar(64)')
    .addColumn('status', 'varchar(20)', (column) => column.notNull())
    .addColumn('amount_due', 'integer', (column) => column.notNull())
    .addColumn('amount_paid', 'integer', (column) => column.notNull())
    .addColumn('period_start', 'timestamptz', (column) => column.notNull())
    .addColumn('period_end', 'timestamptz', (column) => column.notNull())
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('sandbox_invoices_customer')
    .on('sandbox_invoices')
    .columns(['customer_id', 'created_at'])
    .execute();
  // A repeated idempotency key answers what the first call answered.
  await db.schema
    .createTable('sandbox_idempotency')
    .addColumn('key', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('result_json', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  // Events waiting to be delivered (an outbox): whichever process claims one delivers it. Ids
  // sort in the order the events were raised.
  await db.schema
    .createTable('sandbox_events')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('type', 'varchar(100)', (column) => column.notNull())
    .addColumn('payload_json', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('sandbox_events_pending')
    .on('sandbox_events')
    .columns(['delivered_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'sandbox_events',
    'sandbox_idempotency',
    'sandbox_invoices',
    'sandbox_subscriptions',
    'sandbox_customers',
    'sandbox_cards',
    'billing_applied_events',
    'vouchers',
    'billing_accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

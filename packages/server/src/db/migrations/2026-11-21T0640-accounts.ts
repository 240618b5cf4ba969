import type { Kysely } from 'kysely';

// Frozen history: never import application code here. One definition for SQLite and PostgreSQL:
// timestamps are `timestamptz` (ISO text in SQLite), identifiers are text (random UUIDs).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('email', 'varchar(254)', (column) => column.notNull())
    .addColumn('normalized_email', 'varchar(254)', (column) => column.notNull().unique())
    .addColumn('first_name', 'varchar(100)', (column) => column.notNull())
    .addColumn('last_name', 'varchar(100)', (column) => column.notNull())
    .addColumn('language', 'varchar(10)', (column) => column.notNull().defaultTo('en'))
    .addColumn('role', 'varchar(20)', (column) => column.notNull().defaultTo('user'))
    .addColumn('email_confirmed_at', 'timestamptz')
    .addColumn('token_version', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('local_logins')
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('external_logins')
    .addColumn('provider', 'varchar(50)', (column) => column.notNull())
    .addColumn('provider_key', 'varchar(255)', (column) => column.notNull())
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('external_logins_pk', ['provider', 'provider_key'])
    .execute();
  await db.schema
    .createIndex('external_logins_user_id')
    .on('external_logins')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('account_codes')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('user_id', 'varchar(36)', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'varchar(30)', (column) => column.notNull())
    .addColumn('code_hash', 'varchar(64)', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('account_codes_user_purpose')
    .on('account_codes')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('revoked_tokens')
    .addColumn('token_id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_tokens_expires_at')
    .on('revoked_tokens')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('external_login_requests')
    .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
    .addColumn('provider', 'varchar(50)', (column) => column.notNull())
    .addColumn('code_verifier', 'varchar(128)', (column) => column.notNull())
    .addColumn('nonce', 'varchar(128)', (column) => column.notNull())
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('client_state', 'varchar(500)')
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('pending_external_logins')
    .addColumn('id', 'varchar(36)', (column) => column.primaryKey())
    .addColumn('provider', 'varchar(50)', (column) => column.notNull())
    .addColumn('provider_key', 'varchar(255)', (column) => column.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('email_verified', 'boolean', (column) => column.notNull())
    .addColumn('first_name', 'varchar(100)')
    .addColumn('last_name', 'varchar(100)')
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'pending_external_logins',
    'external_login_requests',
    'revoked_tokens',
    'account_codes',
    'external_logins',
    'local_logins',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

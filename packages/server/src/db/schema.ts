import type { AccountsTables } from '../modules/accounts/accounts.table.js';

/** Table types of every domain, composed into the one Database interface Kysely is typed with. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface Database extends AccountsTables {
  server_meta: ServerMetaTable;
}

/** Table types of every domain, composed into the one Database interface Kysely is typed with. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface Database {
  server_meta: ServerMetaTable;
}

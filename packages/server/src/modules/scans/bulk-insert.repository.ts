import { CompiledQuery, type Insertable, type Kysely, type OnConflictBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Multi-row INSERTs of a scan's result rows, their SQL made once per table, columns and row count
 * and then reused with new parameters. Kysely builds an INSERT of 400 rows value by value (a node,
 * a frozen object and a placeholder each) and SQLite parses the statement again every time: on a
 * scan of 1.2 million links that was 7 s of the API's thread and 6 s of the database thread's. The
 * SQL comes from Kysely still (each dialect's placeholders and quoting), compiled from a template.
 */

/** Rows per INSERT: well under both dialects' bound-parameter limits. */
export const rowsPerInsert = 400;

/**
 * The row counts a batch is cut into: full INSERTs of rowsPerInsert, then the rest in powers of
 * two, so every statement is one of a few shapes whose SQL (and prepared statement) is reused.
 */
const restSizes = [256, 128, 64, 32, 16, 8, 4, 2, 1];

/** SQL by template: kept for the shapes in use, the oldest dropped past this many. */
const compiledKept = 128;
const compiled = new Map<string, { sql: string; order: number[] }>();

export interface InsertOptions {
  /** A row already stored is left as it is (ON CONFLICT DO NOTHING). */
  ignoreConflicts?: boolean;
}

/** Inserts `rows` (each with every one of `columns`; a missing value is NULL) into `table`. */
export async function insertRows<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  columns: ReadonlyArray<keyof Database[Table] & string>,
  rows: ReadonlyArray<Insertable<Database[Table]>>,
  options: InsertOptions = {},
): Promise<void> {
  let start = 0;
  for (const size of chunkSizes(rows.length)) {
    const { sql, order } = statementFor(db, table, columns, size, options);
    const values = new Array<unknown>(order.length);
    const width = columns.length;
    for (let row = 0; row < size; row++) {
      const record = rows[start + row] as Record<string, unknown>;
      for (let column = 0; column < width; column++)
        values[row * width + column] = record[columns[column] as string] ?? null;
    }
    await db.executeQuery(
      CompiledQuery.raw(
        sql,
        order.map((index) => values[index]),
      ),
    );
    start += size;
  }
}

/** How many rows each INSERT of `count` rows takes, in order. */
export function chunkSizes(count: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (; left >= rowsPerInsert; left -= rowsPerInsert) sizes.push(rowsPerInsert);
  for (const size of restSizes) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/**
 * The INSERT of `size` rows, compiled by this dialect from rows whose values are their own
 * positions: its parameters then say which value each placeholder takes (`order`).
 */
function statementFor<Table extends keyof Database>(
  db: Kysely<Database>,
  table: Table,
  columns: ReadonlyArray<string>,
  size: number,
  { ignoreConflicts = false }: InsertOptions,
): { sql: string; order: number[] } {
  const template = (count: number) => {
    const rows = Array.from({ length: count }, (_, row) =>
      Object.fromEntries(columns.map((name, column) => [name, row * columns.length + column])),
    );
    const insert = db.insertInto(table).values(rows as never);
    return ignoreConflicts
      ? insert.onConflict((conflict: OnConflictBuilder<Database, Table>) => conflict.doNothing())
      : insert;
  };
  // One row compiles in microseconds and tells the dialect apart (placeholders, quoting).
  const key = `${template(1).compile().sql}\n${size}`;
  let statement = compiled.get(key);
  if (statement) compiled.delete(key);
  else {
    const query = template(size).compile();
    statement = { sql: query.sql, order: query.parameters as number[] };
  }
  compiled.set(key, statement);
  const oldest = compiled.keys().next().value;
  if (compiled.size > compiledKept && oldest !== undefined) compiled.delete(oldest);
  return statement;
}

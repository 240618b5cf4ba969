import type { ColumnType } from 'kysely';

/**
 * Column values that the two dialects hand back differently. Written as Date or boolean; read
 * back as Date and boolean from PostgreSQL, as ISO text and 0/1 from SQLite.
 */
export type Timestamp = ColumnType<Date | string, Date, Date>;
export type NullableTimestamp = ColumnType<Date | string | null, Date | null, Date | null>;
export type Flag = ColumnType<boolean | number, boolean, boolean>;

export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toOptionalDate(value: Date | string | null): Date | null {
  return value === null ? null : toDate(value);
}

export function toBoolean(value: boolean | number | string): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

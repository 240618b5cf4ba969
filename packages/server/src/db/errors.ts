/** True when an insert failed on a unique index or primary key, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // PostgreSQL: SQLSTATE 23505; node:sqlite: extended result code 2067 / 1555 in `errcode`.
  if (code === '23505') return true;
  const errcode = (error as { errcode?: unknown }).errcode;
  if (errcode === 2067 || errcode === 1555) return true;
  return /UNIQUE constraint failed/.test(error.message);
}

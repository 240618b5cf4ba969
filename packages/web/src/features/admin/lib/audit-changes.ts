// What an administrator's action changed (issue 37): the audit log keeps the whole record before
// and after (a scan row with its settings, a user, a voucher), and the screen shows only the
// fields whose values differ, so the change is never cut off behind unchanged fields.

export interface AuditChange {
  /** The field's path in the record: `status`, `scanSettings.maxLinkAmount`. */
  field: string;
  /** The value as short text; undefined when the record did not have it (or did not exist). */
  before: string | undefined;
  after: string | undefined;
}

/** Longest value text shown; the whole record stays in the entry. */
const maxValueLength = 120;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf of a record by its dotted path (lists are values of their own). */
function leaves(value: unknown, prefix = '', into = new Map<string, unknown>()) {
  if (!isRecord(value)) {
    if (prefix !== '' && value !== undefined) into.set(prefix, value);
    return into;
  }
  for (const [key, child] of Object.entries(value)) {
    leaves(child, prefix === '' ? key : `${prefix}.${key}`, into);
  }
  return into;
}

function shown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > maxValueLength ? `${text.slice(0, maxValueLength)}…` : text;
}

/** The fields that differ between the two states, in the order the records list them. */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const old = leaves(before);
  const now = leaves(after);
  const fields = [...new Set([...old.keys(), ...now.keys()])];
  return fields
    .filter((field) => JSON.stringify(old.get(field)) !== JSON.stringify(now.get(field)))
    .map((field) => ({ field, before: shown(old.get(field)), after: shown(now.get(field)) }));
}

/**
 * Texts of refused requests (SPEC §8 "a global handler collects message, modelState,
 * exceptionMessage and error_description"). The server answers bad input with
 * `{ message: invalidRequest, modelState: { field: [messages] } }`; field messages come from the
 * request's schema (SPEC §5 texts where SPEC has one).
 */
export const requestMessages = {
  invalidRequest: 'The request is invalid.',
  invalidJson: 'The request body is not valid JSON.',
  emptyBody: 'The request body is empty.',
  nulCharacter: 'Text may not contain the NUL character.',
  serverError: 'An error has occurred.',
} as const;

/** The modelState key of a whole body, query or path that is invalid as a whole (null, a list…). */
export const wholeRequestField = 'request';

/**
 * Where a value (objects and lists, any depth) holds a string or key with a NUL character, or null.
 * PostgreSQL cannot store NUL in text, so such input is refused alike on every database.
 */
export function nulCharacterPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = nulCharacterPath(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

import { clearSessionToken, getSessionToken } from './session';

/** An answer other than 2xx, carrying the SPEC §8 error body when the server sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Http response is ${status}`);
  }
}

/** A zod schema of the shared contract, or anything else that checks an answer the same way. */
export interface Parser<T> {
  parse(value: unknown): T;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent form-encoded (POST /token). */
  form?: Record<string, string>;
  /** A token other than the session's (the short external-login token of /registerExternal). */
  token?: string | null;
}

/**
 * Calls the API with the session's Bearer token and checks the answer against the shared
 * contract before anyone uses it. A 401 for the session's own token means it was revoked or has
 * expired: the session ends so the screens show the visitor's view.
 */
export async function apiRequest<T>(
  path: string,
  schema: Parser<T>,
  options: RequestOptions = {},
): Promise<T> {
  const sessionToken = getSessionToken();
  const token = options.token === undefined ? sessionToken : options.token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(path, { method: options.method ?? 'GET', headers, body });
  const answer: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && token && token === sessionToken) clearSessionToken();
    throw new ApiError(response.status, answer);
  }
  return schema.parse(answer);
}

export const getJson = <T>(path: string, schema: Parser<T>): Promise<T> => apiRequest(path, schema);

import type { z } from 'zod';

/** An answer other than 2xx, carrying the SPEC §8 error body when the server sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Http response is ${status}`);
  }
}

/** Fetches JSON from the API and checks it against the shared contract before anyone uses it. */
export async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, body);
  return schema.parse(body);
}

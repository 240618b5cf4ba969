import { expect } from 'vitest';
import type { ApiClient } from './api-client.js';

let sequence = 0;

/** Registers a fresh account and signs it in; answers its bearer token. */
export async function signUp(
  api: ApiClient,
  name = 'user',
  address?: string,
): Promise<{ email: string; token: string }> {
  sequence += 1;
  const email = address ?? `${name}.${process.pid}.${sequence}@example.com`;
  const password = 'secret1';
  const registered = await api.post('/api/account/register', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: email,
    password,
    confirmPassword: password,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const signedIn = await api.form('/token', { grant_type: 'password', username: email, password });
  expect(signedIn.status).toBe(200);
  const body = signedIn.body as { access_token: string };
  return { email, token: body.access_token };
}

/** Polls the scan list until the scan satisfies `done` (a status, or a predicate). */
export async function waitForScan(
  api: ApiClient,
  token: string,
  id: string,
  until: (scan: { status: number; uniqueLinks: number }) => boolean,
  timeoutMs = 20_000,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- asserted field by field in tests
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await api.get('/api/ScanApi/Get', token);
    const scan = (list.body as Array<{ id: string; status: number; uniqueLinks: number }>).find(
      (item) => item.id === id,
    );
    if (scan && until(scan)) return scan;
    if (Date.now() > deadline) throw new Error(`scan ${id} still ${JSON.stringify(scan)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function sendDelete(baseUrl: string, path: string, token: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

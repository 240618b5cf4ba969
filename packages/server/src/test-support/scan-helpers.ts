import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../db/schema.js';
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

/**
 * Ends every scan a test left unfinished: queued and paused ones are Cancelled at once, running
 * ones asked to cancel (their workers stop them), then waits until none runs. Leases run on real
 * time, so a scan left running keeps its worker busy however far a test moves the clock; tests
 * that share a server call this after each test so the next one finds the queue empty.
 */
export async function endUnfinishedScans(
  database: { db: Kysely<Database> },
  timeoutMs = 30_000,
): Promise<void> {
  const { db } = database;
  await db
    .updateTable('scans')
    .set({ status: 2, completed_at: new Date() })
    .where('status', 'in', [6, 7])
    .execute();
  await db.updateTable('scans').set({ status: 8 }).where('status', 'in', [5, 9, 11]).execute();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await db
      .selectFrom('scans')
      .select('id')
      .where('status', 'in', [5, 6, 8, 9, 11])
      .execute();
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`scans still running: ${left.length}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The id of the account registered with `email`. */
export async function userIdOf(db: Kysely<Database>, email: string): Promise<string> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

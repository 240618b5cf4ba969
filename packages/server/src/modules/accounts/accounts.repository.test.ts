import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import {
  findPasswordHash,
  findUsableCodes,
  findUserByEmail,
  findUserById,
  findUserForToken,
  insertCode,
  insertUser,
  markEmailConfirmed,
  raiseTokenVersion,
  revokeToken,
  setPasswordHash,
  setUserRole,
  useCodes,
} from './accounts.repository.js';
import {
  deleteExternalLogin,
  deletePendingExternalLogin,
  findExternalLogin,
  findPendingExternalLogin,
  insertExternalLogin,
  insertExternalLoginRequest,
  insertPendingExternalLogin,
  listExternalLogins,
  takeExternalLoginRequest,
} from './external-logins.repository.js';

const t0 = new Date('2026-11-21T08:00:00.000Z');
const minutes = (count: number) => new Date(t0.getTime() + count * 60_000);

describe.each(testDialects())('accounts repositories (%s)', (dialect) => {
  let handle: TestDatabase;
  let db: Kysely<Database>;
  beforeAll(async () => {
    handle = await openTestDatabase(dialect);
    db = handle.database.db;
  });
  afterAll(async () => {
    await handle.drop();
  });

  async function newUser(email = `${randomUUID()}@example.com`) {
    const id = randomUUID();
    const inserted = await insertUser(db, {
      id,
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'zh-CN',
      emailConfirmedAt: null,
      createdAt: t0,
    });
    expect(inserted).toBe('ok');
    return id;
  }

  it('stores users with their defaults and finds them by id and by address in any case', async () => {
    const id = await newUser('Mixed.Case@Example.com');
    const user = await findUserByEmail(db, ' mixed.case@example.COM ');
    expect(user).toEqual({
      id,
      email: 'Mixed.Case@Example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      language: 'zh-CN',
      role: 'user',
      emailConfirmedAt: null,
      tokenVersion: 0,
      paidPlanId: 'Free',
      createdAt: t0,
      disabledAt: null,
    });
    expect(await findUserById(db, id)).toEqual(user);
    expect(await findUserById(db, 'missing')).toBeUndefined();
  });

  it('reports a taken address as duplicate, whatever its case', async () => {
    await newUser('taken@example.com');
    const again = await insertUser(db, {
      id: randomUUID(),
      email: 'TAKEN@example.com',
      firstName: 'B',
      lastName: 'C',
      language: 'en',
      emailConfirmedAt: null,
      createdAt: t0,
    });
    expect(again).toBe('duplicate');
  });

  it('confirms an address once, keeping the first time', async () => {
    const id = await newUser();
    await markEmailConfirmed(db, id, minutes(1));
    await markEmailConfirmed(db, id, minutes(2));
    expect((await findUserById(db, id))?.emailConfirmedAt).toEqual(minutes(1));
  });

  it('sets and clears the admin role by address', async () => {
    await newUser('role@example.com');
    expect(await setUserRole(db, 'ROLE@example.com', 'admin')).toBe(true);
    expect((await findUserByEmail(db, 'role@example.com'))?.role).toBe('admin');
    expect(await setUserRole(db, 'nobody@example.com', 'admin')).toBe(false);
  });

  it('raises token versions and remembers revoked tokens until they expire', async () => {
    const id = await newUser();
    expect(await raiseTokenVersion(db, id)).toBe(1);
    expect(await raiseTokenVersion(db, id)).toBe(2);
    const tokenId = randomUUID();
    expect(await findUserForToken(db, id, tokenId)).toMatchObject({
      revoked: false,
      user: { tokenVersion: 2 },
    });
    await revokeToken(db, tokenId, minutes(60), t0);
    await revokeToken(db, tokenId, minutes(60), t0);
    expect((await findUserForToken(db, id, tokenId))?.revoked).toBe(true);
    // A later revocation sweeps entries whose tokens have expired.
    await revokeToken(db, randomUUID(), minutes(200), minutes(61));
    expect((await findUserForToken(db, id, tokenId))?.revoked).toBe(false);
    expect(await findUserForToken(db, 'missing', tokenId)).toBeUndefined();
  });

  it('creates the local login on the first password and replaces it afterwards', async () => {
    const id = await newUser();
    expect(await findPasswordHash(db, id)).toBeUndefined();
    await setPasswordHash(db, id, 'hash-1', t0);
    await setPasswordHash(db, id, 'hash-2', minutes(1));
    expect(await findPasswordHash(db, id)).toBe('hash-2');
  });

  it('hands out codes until they are used or expire; using one retires the others', async () => {
    const id = await newUser();
    const code = (
      codeId: string,
      expiresAt: Date,
      purpose: 'reset-password' | 'confirm-email' = 'reset-password',
    ) =>
      insertCode(db, {
        id: codeId,
        userId: id,
        purpose,
        codeHash: `h-${codeId}`,
        expiresAt,
        createdAt: t0,
      });
    const [a, b, expired, other] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await code(a, minutes(60));
    await code(b, minutes(60));
    await code(expired, minutes(5));
    await code(other, minutes(60), 'confirm-email');

    const usable = await findUsableCodes(db, id, 'reset-password', minutes(10));
    expect(usable.map((entry) => entry.id).sort()).toEqual([a, b].sort());
    expect(usable.find((entry) => entry.id === a)?.codeHash).toBe(`h-${a}`);

    const [first, second] = await Promise.all([
      useCodes(db, id, 'reset-password', a, minutes(11)),
      useCodes(db, id, 'reset-password', a, minutes(11)),
    ]);
    expect([first, second].sort()).toEqual([false, true]);
    expect(await findUsableCodes(db, id, 'reset-password', minutes(12))).toEqual([]);
    expect(await useCodes(db, id, 'reset-password', b, minutes(12))).toBe(false);
    expect(await findUsableCodes(db, id, 'confirm-email', minutes(12))).toHaveLength(1);
  });

  it('links external logins to one account each and lists and removes them', async () => {
    const id = await newUser();
    const login = { provider: 'videosite', providerKey: `sub-${randomUUID()}`, userId: id };
    expect(await insertExternalLogin(db, login, t0)).toBe('ok');
    expect(await insertExternalLogin(db, { ...login, userId: await newUser() }, t0)).toBe(
      'duplicate',
    );
    await insertExternalLogin(
      db,
      { provider: 'microblog', providerKey: 'k', userId: id },
      minutes(1),
    );
    expect(await findExternalLogin(db, 'videosite', login.providerKey)).toEqual(login);
    expect((await listExternalLogins(db, id)).map((entry) => entry.provider)).toEqual([
      'videosite',
      'microblog',
    ]);
    expect(await deleteExternalLogin(db, login)).toBe(true);
    expect(await deleteExternalLogin(db, login)).toBe(false);
    expect(await listExternalLogins(db, id)).toHaveLength(1);
  });

  it('hands an authorization request back once, and sweeps old ones', async () => {
    const request = {
      id: randomUUID(),
      provider: 'videosite',
      codeVerifier: 'verifier',
      nonce: 'nonce',
      redirectUri: 'http://127.0.0.1/manage',
      clientState: null,
      expiresAt: minutes(10),
    };
    await insertExternalLoginRequest(db, request, t0);
    expect(await takeExternalLoginRequest(db, request.id)).toEqual(request);
    expect(await takeExternalLoginRequest(db, request.id)).toBeUndefined();

    const stale = { ...request, id: randomUUID(), clientState: 'web-state' };
    await insertExternalLoginRequest(db, stale, t0);
    await insertExternalLoginRequest(db, { ...request, id: randomUUID() }, minutes(11));
    expect(await takeExternalLoginRequest(db, stale.id)).toBeUndefined();
  });

  it('keeps pending external identities until they expire or are removed', async () => {
    const pending = {
      id: randomUUID(),
      provider: 'videosite',
      providerKey: 'sub',
      email: 'p@example.com',
      emailVerified: true,
      firstName: null,
      lastName: 'Last',
      expiresAt: minutes(30),
    };
    await insertPendingExternalLogin(db, pending, t0);
    expect(await findPendingExternalLogin(db, pending.id, minutes(1))).toEqual(pending);
    expect(await findPendingExternalLogin(db, pending.id, minutes(31))).toBeUndefined();
    expect(await deletePendingExternalLogin(db, pending.id)).toBe(true);
    expect(await deletePendingExternalLogin(db, pending.id)).toBe(false);
  });

  it('removes a user with everything that hangs off it', async () => {
    const id = await newUser();
    await setPasswordHash(db, id, 'hash', t0);
    await insertExternalLogin(
      db,
      { provider: 'videosite', providerKey: `gone-${id}`, userId: id },
      t0,
    );
    await insertCode(db, {
      id: randomUUID(),
      userId: id,
      purpose: 'confirm-email',
      codeHash: 'h',
      expiresAt: minutes(5),
      createdAt: t0,
    });
    await db.deleteFrom('users').where('id', '=', id).execute();
    expect(await findPasswordHash(db, id)).toBeUndefined();
    expect(await listExternalLogins(db, id)).toEqual([]);
    expect(await findUsableCodes(db, id, 'confirm-email', t0)).toEqual([]);
  });
});

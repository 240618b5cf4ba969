import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import { HeavyReadAbandoned, HeavyReadRefused } from '../reports/heavy-reads.js';
import { SharedHeavyReadGate } from './shared-heavy-reads.js';

describe.each(testDialects())('heavy-read places kept in the database (%s)', (dialect) => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase(dialect);
  });
  afterAll(() => test.drop());

  it('gives each reader its places, refuses past them after the wait, and takes back what is released', async () => {
    const limits = { perUser: 1, queueWaitMs: 150 };
    // Two gates on one database: two processes' views of the same places.
    const here = new SharedHeavyReadGate(test.database.db, 'report', limits);
    const there = new SharedHeavyReadGate(test.database.db, 'report', limits);
    const signal = new AbortController().signal;
    const release = await here.acquire('user:a', signal);
    await expect(there.acquire('user:a', signal)).rejects.toBeInstanceOf(HeavyReadRefused);
    // Another reader, and another gate (exports) of the same reader, are not affected.
    (await there.acquire('user:b', signal))();
    (await new SharedHeavyReadGate(test.database.db, 'export', limits).acquire('user:a', signal))();
    const waiting = there.acquire('user:a', signal);
    release();
    const next = await waiting;
    next();
  });

  it('frees a place whose holder died when its lease runs out, and gives up when the client leaves', async () => {
    const gate = new SharedHeavyReadGate(test.database.db, 'report', {
      perUser: 1,
      queueWaitMs: 5000,
    });
    await test.database.db
      .insertInto('heavy_read_places')
      .values({
        gate: 'report',
        reader: 'user:dead',
        place: 0,
        holder: 'a process that died',
        expires_at: new Date(Date.now() - 1000),
      })
      .execute();
    const release = await gate.acquire('user:dead', new AbortController().signal);
    const leaving = new AbortController();
    const waiting = gate.acquire('user:dead', leaving.signal);
    leaving.abort();
    await expect(waiting).rejects.toBeInstanceOf(HeavyReadAbandoned);
    release();
  });
});

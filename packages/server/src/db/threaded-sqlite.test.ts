import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Kysely, sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadedSqliteDialect, ThreadedSqlite } from './dialects/threaded-sqlite.js';
import { isUniqueViolation } from './errors.js';

interface TestTables {
  counter: { id: number; value: number };
  item: { id: Generated<number>; name: string };
  event: { id: Generated<number>; label: string };
}

let dataDir: string;
let db: Kysely<TestTables>;

function open(readThreads: number): Kysely<TestTables> {
  const filename = path.join(dataDir, 'test.db');
  return new Kysely<TestTables>({
    dialect: createThreadedSqliteDialect({ filename, readThreads }),
  });
}

/** Counts 1..n in SQL: about a second of stepping for a few million rows. */
const countTo = (n: number) =>
  sql<{
    total: number;
  }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n})
    select count(*) as total from c`;

/** A select that never ends by itself: only a stopped stream can end it. */
function endlessSelect(database: Kysely<TestTables>) {
  return database
    .withRecursive('c(x)', (qb) =>
      qb
        .selectNoFrom(sql<number>`1`.as('x'))
        .unionAll(qb.selectFrom('c').select(sql<number>`x + 1`.as('x'))),
    )
    .selectFrom('c')
    .select('x');
}

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'linkaudit-threads-'));
  db = open(2);
  await sql`create table counter (id integer primary key, value integer not null)`.execute(db);
  await sql`create table item (id integer primary key, name text not null unique)`.execute(db);
  await sql`create table event (id integer primary key, label text not null)`.execute(db);
  await db.insertInto('counter').values({ id: 1, value: 0 }).execute();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('threaded SQLite dialect', () => {
  it('keeps the event loop turning while a long query runs', async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const [row] = (await countTo(3_000_000).execute(db)).rows;
    const queryMs = performance.now() - started;
    clearInterval(timer);

    expect(row?.total).toBe(3_000_000);
    // Only meaningful if the query took a while; on the main thread it would be one long gap.
    expect(queryMs).toBeGreaterThan(150);
    expect(gaps.length).toBeGreaterThan(5);
    expect(Math.max(...gaps)).toBeLessThan(Math.max(100, queryMs / 3));
  });

  it('answers other reads while one reader is busy', async () => {
    const finished: string[] = [];
    const heavy = countTo(3_000_000)
      .execute(db)
      .then(() => finished.push('heavy'));
    await db.selectFrom('counter').selectAll().execute();
    finished.push('quick');
    await heavy;
    expect(finished).toEqual(['quick', 'heavy']);
  });

  it('runs export reads on a thread of lower priority (nice +10), the other threads as they were', async () => {
    const niceOfThreads = () =>
      readdirSync(`/proc/${process.pid}/task`).map((task) =>
        // Field 19 of stat is the nice value; the name before it may hold spaces, hence after ')'.
        Number(
          readFileSync(`/proc/${process.pid}/task/${task}/stat`, 'utf8')
            .split(') ')[1]!
            .split(' ')[16],
        ),
      );
    const before = niceOfThreads();
    const sqlite = new ThreadedSqlite({
      filename: path.join(dataDir, 'test.db'),
      readThreads: 1,
      reportReadThreads: 1,
      exportReadThreads: 1,
    });
    const exports = new Kysely<TestTables>({ dialect: sqlite.dialect('export') });
    const reports = new Kysely<TestTables>({ dialect: sqlite.dialect('report') });
    try {
      await exports.selectFrom('counter').selectAll().execute();
      await reports.selectFrom('counter').selectAll().execute();
      const after = niceOfThreads();
      const own = before[0]!;
      const niced = (values: number[]) => values.filter((nice) => nice === own + 10).length;
      expect(niced(after) - niced(before)).toBe(1);
      // The writer and the three readers: four more threads, three at the process's priority.
      expect(after.length - before.length).toBeGreaterThanOrEqual(4);
      expect(after.filter((nice) => nice === own).length).toBeGreaterThanOrEqual(before.length + 3);
    } finally {
      await exports.destroy();
      await reports.destroy();
    }
  });

  it('keeps main-lane reads off the threads that serve report reads, and the reverse', async () => {
    await db.destroy();
    const sqlite = new ThreadedSqlite({
      filename: path.join(dataDir, 'test.db'),
      readThreads: 1,
      reportReadThreads: 1,
    });
    db = new Kysely<TestTables>({ dialect: sqlite.dialect('main') });
    const reports = new Kysely<TestTables>({ dialect: sqlite.dialect('report') });
    try {
      const finished: string[] = [];
      // The report lane's only thread is busy for a while: a main-lane read must not queue
      // behind it, nor a main-lane write wait for it.
      const heavy = countTo(2_000_000)
        .execute(reports)
        .then(() => finished.push('report'));
      await db.selectFrom('counter').selectAll().execute();
      await db.updateTable('counter').set({ value: 2 }).where('id', '=', 1).execute();
      finished.push('main');
      await heavy;
      expect(finished).toEqual(['main', 'report']);

      // And the other way round: a busy main lane leaves report reads their own thread.
      finished.length = 0;
      const busy = countTo(2_000_000)
        .execute(db)
        .then(() => finished.push('main'));
      const counter = await reports.selectFrom('counter').select('value').executeTakeFirstOrThrow();
      finished.push('report');
      await busy;
      expect(counter.value).toBe(2);
      expect(finished).toEqual(['report', 'main']);
    } finally {
      await reports.destroy();
    }
    // The threads stay open until the last instance is destroyed.
    expect((await db.selectFrom('counter').select('value').executeTakeFirstOrThrow()).value).toBe(
      2,
    );
  });

  it('lets a read issued before a write answer as the data was when it was issued', async () => {
    await db.destroy();
    db = open(1);
    // The one reader is busy, so the second read waits in its queue while the write is issued.
    const busy = countTo(2_000_000).execute(db);
    const before = db.selectFrom('counter').select('value').executeTakeFirstOrThrow();
    await new Promise((resolve) => setImmediate(resolve));
    await db.updateTable('counter').set({ value: 1 }).where('id', '=', 1).execute();
    await busy;
    expect((await before).value).toBe(0);
    const after = await db.selectFrom('counter').select('value').executeTakeFirstOrThrow();
    expect(after.value).toBe(1);
  });

  it('runs concurrent transactions one after another, never interleaved', async () => {
    const runs = Array.from({ length: 8 }, (_, index) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('event')
          .values({ label: `begin ${index}` })
          .execute();
        const { value } = await trx
          .selectFrom('counter')
          .select('value')
          .where('id', '=', 1)
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await trx
          .updateTable('counter')
          .set({ value: value + 1 })
          .where('id', '=', 1)
          .execute();
        await trx
          .insertInto('event')
          .values({ label: `end ${index}` })
          .execute();
      }),
    );
    await Promise.all(runs);

    const counter = await db.selectFrom('counter').select('value').executeTakeFirstOrThrow();
    expect(counter.value).toBe(8);
    const labels = (await db.selectFrom('event').select('label').orderBy('id').execute()).map(
      (row) => row.label,
    );
    for (let i = 0; i < labels.length; i += 2) {
      expect(labels[i + 1]).toBe(labels[i]?.replace('begin', 'end'));
    }
  });

  it('rolls a failed transaction back and frees the writer for the next one', async () => {
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto('item').values({ name: 'kept?' }).execute();
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    await db.insertInto('item').values({ name: 'after' }).execute();
    const names = (await db.selectFrom('item').select('name').execute()).map((row) => row.name);
    expect(names).toEqual(['after']);
  });

  it('keeps a raw BEGIN on one connection until COMMIT', async () => {
    await db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      await connection.insertInto('item').values({ name: 'inside' }).execute();
      // Another session's write waits for the commit instead of landing inside the transaction.
      const outside = db.insertInto('item').values({ name: 'outside' }).execute();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sql`rollback`.execute(connection);
      await outside;
    });
    const names = (await db.selectFrom('item').select('name').execute()).map((row) => row.name);
    expect(names).toEqual(['outside']);
  });

  it('rejects a duplicate with the error isUniqueViolation recognizes', async () => {
    await db.insertInto('item').values({ name: 'twice' }).execute();
    const error: unknown = await db
      .insertInto('item')
      .values({ name: 'twice' })
      .execute()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('UNIQUE constraint failed: item.name');
    expect(error).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 2067 });
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('converts values as the in-thread dialect did', async () => {
    const result = await sql<Record<string, unknown>>`select ${true} as yes, ${false} as no,
      ${new Date('2026-01-02T03:04:05.000Z')} as at, ${null} as empty,
      ${new Uint8Array([1, 2, 255])} as bytes, ${2n ** 40n} as big`.execute(db);
    expect(result.rows).toEqual([
      {
        yes: 1,
        no: 0,
        at: '2026-01-02T03:04:05.000Z',
        empty: null,
        bytes: new Uint8Array([1, 2, 255]),
        big: 2 ** 40,
      },
    ]);
    const insert = await sql`insert into item (name) values (${'one'})`.execute(db);
    expect(insert).toMatchObject({ insertId: 1n, numAffectedRows: 1n, rows: [] });
  });

  it('returns a long result whole and in order, though it crosses in parts', async () => {
    const result = await sql<{ x: number }>`with recursive c(x) as
      (select 1 union all select x + 1 from c where x < 4500) select x from c`.execute(db);
    expect(result.rows).toHaveLength(4500);
    expect(result.rows.every((row, index) => row.x === index + 1)).toBe(true);
  });

  it('streams rows in batches of the requested size', async () => {
    await db
      .insertInto('event')
      .values(Array.from({ length: 250 }, (_, index) => ({ label: `row ${index}` })))
      .execute();
    const labels: string[] = [];
    for await (const row of db.selectFrom('event').select('label').orderBy('id').stream(100)) {
      labels.push(row.label);
    }
    expect(labels).toHaveLength(250);
    expect(labels.at(-1)).toBe('row 249');
  });

  it('stops stepping a stream when the consumer stops, so its thread serves again', async () => {
    await db.destroy();
    db = open(1);
    let seen = 0;
    for await (const row of endlessSelect(db).stream(100)) {
      seen = row.x;
      if (seen === 250) break;
    }
    expect(seen).toBe(250);
    // One reader only: had the endless statement gone on stepping, this would never answer.
    const started = performance.now();
    const counter = await db.selectFrom('counter').select('value').executeTakeFirstOrThrow();
    expect(counter.value).toBe(0);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('ends its threads on destroy, so the process exits', async () => {
    const dialectUrl = pathToFileURL(
      path.join(import.meta.dirname, 'dialects/threaded-sqlite.ts'),
    ).href;
    // The source imports siblings as .js; this hook finds the .ts beside them.
    const script = `
      import { registerHooks } from 'node:module';
      registerHooks({
        resolve(specifier, context, next) {
          try { return next(specifier, context); }
          catch (error) {
            if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
            return next(specifier.slice(0, -3) + '.ts', context);
          }
        },
      });
      const { Kysely, sql } = await import(${JSON.stringify(import.meta.resolve('kysely'))});
      const { createThreadedSqliteDialect } = await import(${JSON.stringify(dialectUrl)});
      const filename = ${JSON.stringify(path.join(dataDir, 'child.db'))};
      const db = new Kysely({ dialect: createThreadedSqliteDialect({ filename, readThreads: 3 }) });
      await sql\`select 1\`.execute(db);
      await db.destroy();
      console.log('destroyed');
    `;
    const scriptFile = path.join(dataDir, 'child.mjs');
    writeFileSync(scriptFile, script);
    const child = spawn(process.execPath, [scriptFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => {
      const timeout = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 10_000);
      child.once('exit', (code) => {
        clearTimeout(timeout);
        resolve(code);
      });
    });
    expect(output).toContain('destroyed');
    expect(exitCode).toBe(0);
  });
});

import type { SQLInputValue } from 'node:sqlite';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { SqliteThread } from './sqlite-thread.js';
import type { SqliteResult } from './sqlite-worker.js';

export interface ThreadedSqliteOptions {
  filename: string;
  /** Connections that serve the main lane's reads outside transactions, each in its own thread. */
  readThreads: number;
  /**
   * Connections kept for the report lane's reads (report tabs, summaries, CSV exports), each in
   * its own thread. 0 or absent: the report lane reads on the main lane's threads.
   */
  reportReadThreads?: number | undefined;
  /**
   * Connections kept for CSV exports, each in its own thread. 0 or absent: exports read on the
   * report lane's threads.
   */
  exportReadThreads?: number | undefined;
}

/**
 * Which read connections a dialect's reads use. Report reads of a large scan take from tens of
 * milliseconds to seconds each, and an export steps its statement for a minute; queued on the same
 * threads, they put every sign-in and scan-list read behind them. The main lane never waits for a
 * report read: each lane has its own threads, and its reads go to the least busy of its own.
 * Exports have a lane of their own too: an export is a statement stepped 2,000 rows at a time for
 * minutes, and each step queued in front of a report page made that page wait for it.
 */
export type ReadLane = 'main' | 'report' | 'export';

/**
 * Kysely's SQLite dialect with every statement run in worker threads, so a long report query or
 * export never stalls the event loop. One writer thread holds the only connection that writes
 * (SQLite allows one writer at a time; queuing here is cheaper and fairer than busy_timeout
 * polling) and every transaction, for its whole life; reads outside a transaction go to the
 * least busy read-only connection of their lane, which WAL lets run beside the writer.
 *
 * The dialects of the lanes (one Kysely instance each) share the threads: the first instance
 * used opens them, the last destroyed closes them.
 */
export class ThreadedSqlite {
  readonly #options: ThreadedSqliteOptions;
  #opening: Promise<ThreadPool> | undefined;
  #users = 0;

  constructor(options: ThreadedSqliteOptions) {
    this.#options = options;
  }

  dialect(lane: ReadLane): Dialect {
    return {
      createDriver: () => new ThreadedSqliteDriver(this, lane),
      createQueryCompiler: (): QueryCompiler => new SqliteQueryCompiler(),
      createAdapter: (): DialectAdapter => new ThreadedSqliteAdapter(),
      createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new SqliteIntrospector(db),
    };
  }

  /** The threads, opened on the first call; each call is one user until it calls release. */
  async acquire(): Promise<ThreadPool> {
    this.#users += 1;
    this.#opening ??= ThreadPool.open(this.#options);
    return this.#opening;
  }

  async release(): Promise<void> {
    this.#users -= 1;
    if (this.#users > 0 || !this.#opening) return;
    const opening = this.#opening;
    this.#opening = undefined;
    await (await opening).close();
  }
}

/** One dialect on the main lane (tests, tools): every read on `readThreads` threads. */
export function createThreadedSqliteDialect(options: ThreadedSqliteOptions): Dialect {
  return new ThreadedSqlite(options).dialect('main');
}

/** Several connections at once, unlike the one-connection SqliteDriver, so Kysely takes no global lock. */
class ThreadedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/** How much lower an export thread's priority is than the server's (Linux nice). */
const EXPORT_THREAD_NICENESS = 10;

/** A FIFO lock: who holds it owns the writer connection until they release it. */
class WriterLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  async acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

class ThreadPool {
  readonly writerLock = new WriterLock();
  readonly writer: SqliteThread;
  readonly #readers: Record<ReadLane, SqliteThread[]>;

  private constructor(writer: SqliteThread, readers: Record<ReadLane, SqliteThread[]>) {
    this.writer = writer;
    this.#readers = readers;
  }

  /** The writer opens first: it puts the file in WAL mode, which read-only connections cannot. */
  static async open(options: ThreadedSqliteOptions): Promise<ThreadPool> {
    const writer = new SqliteThread({ filename: options.filename, readOnly: false });
    await writer.request({ kind: 'execute', sql: 'select 1', parameters: [] });
    const readers = (count: number, niceness = 0) =>
      Array.from(
        { length: count },
        () => new SqliteThread({ filename: options.filename, readOnly: true, niceness }),
      );
    const main = readers(Math.max(1, options.readThreads));
    const report = options.reportReadThreads ? readers(options.reportReadThreads) : main;
    // A CSV export streams for minutes at a client's pace; on a machine with every core busy
    // its thread yields to the API and the report pages people wait on (nice 10).
    const exports = options.exportReadThreads
      ? readers(options.exportReadThreads, EXPORT_THREAD_NICENESS)
      : report;
    return new ThreadPool(writer, { main, report, export: exports });
  }

  /**
   * Main-lane reads sent to a reader and not answered yet. A write first waits for the reads
   * issued before it, so each read sees the data as it was when it was issued, as when every
   * statement took turns on one connection: code that reads after its own write while a worker's
   * write follows (a new scan's queue position, then its claim) keeps seeing things in the order
   * it asked. Report and export reads are not waited for: they read results and never decide a write, and a
   * scan's result writes must not wait for a long report query.
   */
  readonly #readsInFlight = new Set<Promise<unknown>>();

  async read<T>(lane: ReadLane, request: (reader: SqliteThread) => Promise<T>): Promise<T> {
    const reading = request(this.#leastBusyReader(lane));
    if (lane !== 'main') return reading;
    this.#readsInFlight.add(reading);
    try {
      return await reading;
    } finally {
      this.#readsInFlight.delete(reading);
    }
  }

  async readsIssuedSoFar(): Promise<void> {
    if (this.#readsInFlight.size > 0) await Promise.allSettled([...this.#readsInFlight]);
  }

  #leastBusyReader(lane: ReadLane): SqliteThread {
    return this.#readers[lane].reduce((best, reader) => (reader.load < best.load ? reader : best));
  }

  /** Readers first, so the writer's connection is the last and checkpoints the WAL away. */
  async close(): Promise<void> {
    const readers = new Set(Object.values(this.#readers).flat());
    await Promise.all([...readers].map((reader) => reader.close()));
    await this.writer.close();
  }
}

class ThreadedSqliteDriver implements Driver {
  readonly #threads: ThreadedSqlite;
  readonly #lane: ReadLane;
  #pool: ThreadPool | undefined;

  constructor(threads: ThreadedSqlite, lane: ReadLane) {
    this.#threads = threads;
    this.#lane = lane;
  }

  async init(): Promise<void> {
    this.#pool = await this.#threads.acquire();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#pool) throw new Error('the SQLite driver is not initialized');
    return Promise.resolve(new ThreadedSqliteConnection(this.#pool, this.#lane));
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadedSqliteConnection).release();
  }

  async destroy(): Promise<void> {
    if (!this.#pool) return;
    this.#pool = undefined;
    await this.#threads.release();
  }
}

const SQLITE_READONLY = 8;

/**
 * One Kysely connection: a session that borrows a thread per statement. Once a statement leaves
 * the writer inside a transaction (Kysely's `begin` or a raw BEGIN), the session keeps the writer
 * until the transaction ends, so no other session's statement lands inside it.
 */
class ThreadedSqliteConnection implements DatabaseConnection {
  readonly #pool: ThreadPool;
  readonly #lane: ReadLane;
  #holdsWriter = false;

  constructor(pool: ThreadPool, lane: ReadLane) {
    this.#pool = pool;
    this.#lane = lane;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = toSqlite(compiledQuery.parameters);
    if (!this.#holdsWriter && isRead(compiledQuery)) {
      try {
        return toQueryResult(
          await this.#pool.read(this.#lane, (reader) =>
            this.#run(reader, compiledQuery.sql, parameters),
          ),
        );
      } catch (error) {
        // A statement that only looked like a read (WITH … INSERT): the writer runs it.
        if (!isReadOnlyRefusal(error)) throw error;
      }
    }
    return toQueryResult(await this.#onWriter(compiledQuery.sql, parameters));
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error('Sqlite driver only supports streaming of select queries');
    }
    const request = {
      kind: 'open-stream',
      sql: compiledQuery.sql,
      parameters: toSqlite(compiledQuery.parameters),
      size: chunkSize,
    } as const;
    let thread = this.#pool.writer;
    const opened = this.#holdsWriter
      ? await thread.request(request)
      : await this.#pool.read(this.#lane, (reader) => {
          thread = reader;
          return reader.request(request);
        });
    const stream = opened.stream ?? 0;
    let batch = opened;
    let done = false;
    try {
      for (;;) {
        done = batch.done ?? true;
        if (batch.rows.length > 0) yield { rows: batch.rows as R[] };
        if (done) break;
        batch = await thread.request({ kind: 'next-batch', stream, size: chunkSize });
      }
    } finally {
      // The consumer stopped early (break, error, client gone): the thread resets the statement.
      if (!done) await thread.request({ kind: 'close-stream', stream });
    }
  }

  /** Ends a transaction the caller left open, so the writer is never held by a finished session. */
  async release(): Promise<void> {
    if (!this.#holdsWriter) return;
    try {
      if (this.#pool.writer.inTransaction)
        await this.#pool.writer.request({ kind: 'execute', sql: 'rollback', parameters: [] });
    } finally {
      this.#releaseWriter();
    }
  }

  async #onWriter(sql: string, parameters: SQLInputValue[]): Promise<SqliteResult> {
    if (!this.#holdsWriter) {
      await this.#pool.readsIssuedSoFar();
      await this.#pool.writerLock.acquire();
      this.#holdsWriter = true;
    }
    try {
      return await this.#run(this.#pool.writer, sql, parameters);
    } finally {
      if (!this.#pool.writer.inTransaction) this.#releaseWriter();
    }
  }

  #releaseWriter(): void {
    this.#holdsWriter = false;
    this.#pool.writerLock.release();
  }

  async #run(
    thread: SqliteThread,
    sql: string,
    parameters: SQLInputValue[],
  ): Promise<SqliteResult> {
    return thread.request({ kind: 'execute', sql, parameters });
  }
}

function toQueryResult<R>(result: SqliteResult): QueryResult<R> {
  if (result.changes === undefined) return { rows: result.rows as R[] };
  return {
    insertId: result.lastInsertRowid != null ? BigInt(result.lastInsertRowid) : undefined,
    numAffectedRows: BigInt(result.changes),
    rows: [],
  };
}

/** Selects built by Kysely, and raw SQL that starts as a query; everything else writes. */
function isRead(compiledQuery: CompiledQuery): boolean {
  if (SelectQueryNode.is(compiledQuery.query)) return true;
  if (compiledQuery.query.kind !== 'RawNode') return false;
  return /^\s*(select|with|values)\b/i.test(compiledQuery.sql);
}

function isReadOnlyRefusal(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' && (errcode & 0xff) === SQLITE_READONLY;
}

/** node:sqlite binds neither booleans nor dates; the in-thread dialect stored them this way. */
function toSqlite(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value): SQLInputValue => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}

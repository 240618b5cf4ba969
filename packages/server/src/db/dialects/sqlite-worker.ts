/**
 * One SQLite connection in its own thread (started by sqlite-thread.ts). The main thread sends
 * numbered requests; each is answered by one message with the same id, so statements run here
 * while the event loop goes on serving HTTP.
 *
 * Node runs this file directly (built .js, or .ts with type stripping under vitest), so it imports
 * nothing relative and uses only erasable TypeScript.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export interface SqliteWorkerData {
  filename: string;
  readOnly: boolean;
  /** Lower this thread's priority by this much (Linux nice), for work nobody waits on at once. */
  niceness?: number;
}

export type SqliteRequest =
  | { id: number; kind: 'execute'; sql: string; parameters: SQLInputValue[] }
  | { id: number; kind: 'open-stream'; sql: string; parameters: SQLInputValue[]; size: number }
  | { id: number; kind: 'next-batch'; stream: number; size: number }
  | { id: number; kind: 'close-stream'; stream: number }
  | { id: number; kind: 'close' };

export interface SerializedSqliteError {
  message: string;
  code?: unknown;
  errcode?: unknown;
  errstr?: unknown;
}

/** Rows of a long result sent ahead of its reply, so no thread holds the whole result twice. */
export interface SqlitePartialRows {
  id: number;
  partial: unknown[];
}

export type SqliteReply =
  | { id: number; ok: true; result: SqliteResult; inTransaction: boolean }
  | { id: number; ok: false; error: SerializedSqliteError; inTransaction: boolean };

/** Rows of a query; `changes` of a statement that returns none; `stream`/`done` of a stream. */
export interface SqliteResult {
  rows: unknown[];
  changes?: number | bigint;
  lastInsertRowid?: number | bigint;
  stream?: number;
  done?: boolean;
}

const { filename, readOnly, niceness } = workerData as SqliteWorkerData;
if (niceness) lowerThisThreadsPriority(niceness);

/**
 * Linux keeps a nice value per thread, and setpriority() given a thread's id changes that thread
 * alone; /proc/thread-self names this thread's id. Elsewhere (or where it is not allowed) the
 * thread keeps the process's priority.
 */
function lowerThisThreadsPriority(by: number): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // This thread started at the priority of the one that made it (getPriority() reads it).
    if (Number.isInteger(threadId)) setPriority(threadId, Math.min(19, getPriority() + by));
  } catch {
    // No /proc, or not allowed: nothing to lower.
  }
}
const database = new DatabaseSync(filename, { readOnly });
// Every connection gets the settings the in-thread dialect had; WAL lets readers run beside the
// writer, and busy_timeout lets another process's writer finish instead of failing at once.
if (!readOnly) database.exec('PRAGMA journal_mode = WAL');
database.exec('PRAGMA foreign_keys = ON');
database.exec('PRAGMA busy_timeout = 5000');
database.exec('PRAGMA synchronous = NORMAL');

const streams = new Map<number, Iterator<unknown>>();
let nextStreamId = 1;

parentPort?.on('message', (request: SqliteRequest) => {
  let reply: SqliteReply;
  try {
    reply = { id: request.id, ok: true, result: handle(request), inTransaction: inTransaction() };
  } catch (error) {
    reply = { id: request.id, ok: false, error: serialize(error), inTransaction: inTransaction() };
  }
  parentPort?.postMessage(reply);
  if (request.kind === 'close') parentPort?.close();
});

function handle(request: SqliteRequest): SqliteResult {
  switch (request.kind) {
    case 'execute':
      return execute(request.id, prepared(request.sql), request.parameters);
    case 'open-stream':
      return openStream(database.prepare(request.sql), request.parameters, request.size);
    case 'next-batch':
      return nextBatch(request.stream, request.size);
    case 'close-stream':
      streams.get(request.stream)?.return?.();
      streams.delete(request.stream);
      return { rows: [] };
    case 'close':
      for (const iterator of streams.values()) iterator.return?.();
      streams.clear();
      database.close();
      return { rows: [] };
  }
}

const PARTIAL_ROWS = 2000;

/**
 * Statements prepared before, by their SQL, the most recently used last. A scan's results are
 * written as the same multi-row INSERTs thousands of times, and SQLite takes ~2.7 ms to parse one
 * of 400 rows: prepared anew each time, that was a tenth of the writer's time on a big scan.
 * (Streams prepare their own: their statement stays open between requests.)
 */
const statements = new Map<string, StatementSync>();
const STATEMENTS_KEPT = 64;

function prepared(sql: string): StatementSync {
  let statement = statements.get(sql);
  if (statement) statements.delete(sql);
  else statement = database.prepare(sql);
  statements.set(sql, statement);
  const oldest = statements.keys().next().value;
  if (statements.size > STATEMENTS_KEPT && oldest !== undefined) statements.delete(oldest);
  return statement;
}

function execute(id: number, statement: StatementSync, parameters: SQLInputValue[]): SqliteResult {
  if (statement.columns().length === 0) {
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], changes, lastInsertRowid };
  }
  let rows: unknown[] = [];
  for (const row of statement.iterate(...parameters)) {
    rows.push(row);
    if (rows.length === PARTIAL_ROWS) {
      parentPort?.postMessage({ id, partial: rows } satisfies SqlitePartialRows);
      rows = [];
    }
  }
  return { rows };
}

/** Opens a stream with its first batch: the statement's snapshot is taken by the time it answers. */
function openStream(
  statement: StatementSync,
  parameters: SQLInputValue[],
  size: number,
): SqliteResult {
  const stream = nextStreamId++;
  streams.set(stream, statement.iterate(...parameters));
  return { ...nextBatch(stream, size), stream };
}

/** Steps the statement for at most `size` rows; a finished stream is forgotten at once. */
function nextBatch(stream: number, size: number): SqliteResult {
  const iterator = streams.get(stream);
  if (!iterator) return { rows: [], done: true };
  const rows: unknown[] = [];
  while (rows.length < size) {
    const step = iterator.next();
    if (step.done) {
      streams.delete(stream);
      return { rows, done: true };
    }
    rows.push(step.value);
  }
  return { rows, done: false };
}

function inTransaction(): boolean {
  return database.isOpen && database.isTransaction;
}

/** Errors lose their own properties in structured clone; errcode is what isUniqueViolation reads. */
function serialize(error: unknown): SerializedSqliteError {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, errcode, errstr } = error as {
    code?: unknown;
    errcode?: unknown;
    errstr?: unknown;
  };
  return { message: error.message, code, errcode, errstr };
}

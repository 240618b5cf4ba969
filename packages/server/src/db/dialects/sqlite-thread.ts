import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  SerializedSqliteError,
  SqlitePartialRows,
  SqliteReply,
  SqliteRequest,
  SqliteResult,
  SqliteWorkerData,
} from './sqlite-worker.js';

type RequestBody = SqliteRequest extends infer R
  ? R extends unknown
    ? Omit<R, 'id'>
    : never
  : never;

interface Pending {
  /** Rows that arrived ahead of the reply (SqlitePartialRows), in order. */
  rows: unknown[];
  resolve(reply: SqliteReply): void;
  reject(error: Error): void;
}

// Built, this module is .js beside sqlite-worker.js; under vitest it is the .ts source, which
// Node's type stripping runs as it is.
const workerFile = new URL(
  `./sqlite-worker${path.extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/** A worker thread holding one SQLite connection; requests are answered in the order sent. */
export class SqliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failure: Error | undefined;
  /** Requests sent and not yet answered: the pool gives new work to the least busy reader. */
  get load(): number {
    return this.#pending.size;
  }
  /** Whether the connection was inside a transaction after its last answer. */
  inTransaction = false;

  constructor(data: SqliteWorkerData) {
    this.#worker = new Worker(workerFile, { workerData: data });
    this.#worker.on('message', (message: SqliteReply | SqlitePartialRows) => {
      if ('partial' in message) this.#collect(message);
      else this.#settle(message);
    });
    this.#worker.on('error', (error: Error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`SQLite thread exited (${code})`)));
  }

  /** Sends one request; resolves with its result, rejects with the statement's SQLite error. */
  async request(body: RequestBody): Promise<SqliteResult> {
    if (this.#failure) throw this.#failure;
    const id = this.#nextId++;
    const reply = await new Promise<SqliteReply>((resolve, reject) => {
      this.#pending.set(id, { rows: [], resolve, reject });
      this.#worker.postMessage({ ...body, id });
    });
    this.inTransaction = reply.inTransaction;
    if (!reply.ok) throw toError(reply.error);
    return reply.result;
  }

  /** Closes the connection, then waits for the thread to end, so nothing keeps the process up. */
  async close(): Promise<void> {
    if (this.#failure) return;
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    await this.request({ kind: 'close' });
    await exited;
  }

  #collect({ id, partial }: SqlitePartialRows): void {
    const rows = this.#pending.get(id)?.rows;
    if (rows) for (const row of partial) rows.push(row);
  }

  #settle(reply: SqliteReply): void {
    const pending = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (!pending) return;
    if (reply.ok && pending.rows.length > 0) {
      for (const row of reply.result.rows) pending.rows.push(row);
      reply.result.rows = pending.rows;
    }
    pending.resolve(reply);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/**
 * The error node:sqlite threw in the thread, rebuilt with the properties that survive the trip
 * only as data (`code`, `errcode`, `errstr`), so isUniqueViolation and callers see what they did
 * with the in-thread driver; the stack is the caller's, which says more than the worker's.
 */
function toError(serialized: SerializedSqliteError): Error {
  const error = new Error(serialized.message);
  for (const key of ['code', 'errcode', 'errstr'] as const) {
    if (serialized[key] !== undefined) Object.assign(error, { [key]: serialized[key] });
  }
  return error;
}

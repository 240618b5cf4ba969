import { randomUUID } from 'node:crypto';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, userIdOf } from '../../test-support/scan-helpers.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';
import { ReportReadGate } from '../../test-support/report-read-gate.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { tooManyReportReadsMessage } from './reports.routes.js';

const LINKS = 100_000;
const TARGETS = 2_000;
const PAGES = 100;

/** Counts the link rows the server's queries read, and the link queries it starts. */
class LinkReadCounter implements KyselyPlugin {
  rowsRead = 0;
  queriesStarted = 0;
  readonly #linkQueries = new Set<unknown>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('scan_links')) {
      this.#linkQueries.add(args.queryId);
      this.queriesStarted += 1;
    }
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#linkQueries.has(args.queryId)) this.rowsRead += args.result.rows.length;
    return Promise.resolve(args.result);
  }
}

/** A finished scan of `links` link rows (long URLs, so the CSV is ~20 MB), written directly. */
async function insertBigScan(db: Kysely<Database>, userId: string, links: number): Promise<string> {
  const scanId = randomUUID();
  await insertFinishedScan(db, {
    id: scanId,
    userId,
    url: 'https://example.com/',
    sourceScheduleId: null,
    completedAt: new Date('2026-11-20T10:00:00Z'),
    uniqueLinks: TARGETS,
  });
  const pad = 'x'.repeat(120);
  await db.transaction().execute(async (trx) => {
    const pages = Array.from({ length: PAGES }, (_, id) => ({
      scan_id: scanId,
      id,
      url: `https://example.com/page/${String(id).padStart(5, '0')}`,
      status_code: 200,
      content_type: 'text/html',
      html_bytes: 1000,
      total_bytes: 2000 + id,
      depth: 1,
    }));
    await trx.insertInto('scan_pages').values(pages).execute();
    for (let start = 0; start < TARGETS; start += 500) {
      const targets = Array.from({ length: Math.min(500, TARGETS - start) }, (_, index) => {
        const id = start + index;
        return {
          scan_id: scanId,
          id,
          url: `https://example.com/t/${String(id).padStart(6, '0')}/${pad}`,
          state: id % 10 === 0 ? 'broken' : 'ok',
          reason: id % 10 === 0 ? 'Not Found' : null,
          status_code: id % 10 === 0 ? 404 : 200,
          internal: true,
          reference_count: Math.max(1, Math.round(links / TARGETS)),
          content_type: 'text/html',
          size: 100,
        };
      });
      await trx.insertInto('scan_targets').values(targets).execute();
    }
    for (let start = 0; start < links; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, links - start) }, (_, index) => {
        const id = start + index;
        return {
          scan_id: scanId,
          id,
          page_id: id % PAGES,
          target_id: id % TARGETS,
          target: `/t/${id}`,
          element: 'a',
          line: 1 + (id % 300),
          col: 1,
        };
      });
      await trx.insertInto('scan_links').values(rows).execute();
    }
  });
  return scanId;
}

/**
 * CSV exports stream (bounded memory, stopped when the client goes away) and heavy report reads
 * are limited per user (SPEC §8 error shape, 429 with Retry-After), over a scan of 100,000 links.
 */
describe.each(testDialects())('streamed exports and the per-user read limit (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let counter: LinkReadCounter;
  let gate: ReportReadGate;
  let owner: { email: string; token: string };
  let other: { email: string; token: string };
  let bigScan: string;
  let otherScan: string;

  beforeAll(async () => {
    counter = new LinkReadCounter();
    gate = new ReportReadGate();
    server = await startTestServer(
      dialect,
      {
        SQLITE_REPORT_READ_THREADS: '1',
        REPORT_READS_PER_USER: '2',
        REPORT_READ_QUEUE_MS: '400',
      },
      undefined,
      (database) => ({
        ...database,
        reportDb: database.reportDb.withPlugin(counter).withPlugin(gate),
        exportDb: database.exportDb.withPlugin(counter),
      }),
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'exporter');
    other = await signUp(api, 'other');
    const { db } = server.database;
    bigScan = await insertBigScan(db, await userIdOf(db, owner.email), LINKS);
    otherScan = await insertBigScan(db, await userIdOf(db, other.email), 100);
  }, 120_000);
  afterAll(async () => {
    // The HTTP client keeps sockets it opened for the parallel requests and never used; they
    // would hold the server's close until its headers timeout.
    server.app.server.closeAllConnections();
    await server.stop();
  });

  const exportUrl = (scanId: string) =>
    `${server.baseUrl}/api/report/link/${scanId}?format=csv&status=all`;

  /** An export whose answer has begun (headers and a first chunk read), still open. */
  async function openExport(token: string, scanId: string) {
    const controller = new AbortController();
    const response = await fetch(exportUrl(scanId), {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    return {
      first: new TextDecoder('utf-8', { ignoreBOM: true }).decode(first.value),
      abort: () => {
        controller.abort();
        return reader.cancel().catch(() => undefined);
      },
    };
  }

  /** Two report reads of the owner, running and held by the gate until the returned call. */
  async function holdTwoReportReads(): Promise<() => Promise<void>> {
    gate.close();
    const reads = [1, 2].map(() => api.get(`/api/report/link/${bigScan}?status=all`, owner.token));
    while (gate.held < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    return async () => {
      gate.open();
      for (const read of await Promise.all(reads)) expect(read.status).toBe(200);
    };
  }

  async function settledRowsRead(): Promise<number> {
    let before = -1;
    while (before !== counter.rowsRead) {
      before = counter.rowsRead;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return before;
  }

  async function settledQueriesStarted(): Promise<number> {
    let before = -1;
    while (before !== counter.queriesStarted) {
      before = counter.queriesStarted;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return before;
  }

  it('streams every row of a big export, header first, CRLF lines', async () => {
    const response = await fetch(exportUrl(bigScan), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFTarget,Source,Status code,Failure reason,Status detail,References,Line,Column,Suggested fix',
    );
    expect(lines).toHaveLength(LINKS + 2);
    expect(lines.at(-1)).toBe('');
    // Sorted by target URL, then by link: target 0's first link is link 0 on page 0.
    expect(lines[1]).toBe(
      `https://example.com/t/000000/${'x'.repeat(120)},https://example.com/page/00000,404,Not Found,broken,50,1,1,`,
    );
  });

  it('stops reading the database as soon as the client of an export goes away', async () => {
    await settledRowsRead();
    const start = counter.rowsRead;
    const download = await openExport(owner.token, bigScan);
    expect(download.first.startsWith('\uFEFFTarget,Source')).toBe(true);
    await download.abort();
    const read = (await settledRowsRead()) - start;
    // A few batches were read ahead of the socket; nowhere near the whole scan.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(LINKS / 2);
    // The only read thread is free: a report page answers at once.
    const started = performance.now();
    const page = await api.get(`/api/report/page/${bigScan}`, owner.token);
    expect(page.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('lets one user download two exports at once: a third waits, then gets 429 with Retry-After; the report still answers; other users are not affected', async () => {
    const first = await openExport(owner.token, bigScan);
    const second = await openExport(owner.token, bigScan);
    try {
      const started = performance.now();
      const refused = await fetch(exportUrl(bigScan), {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ message: tooManyReportReadsMessage(1) });
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);

      const page = await api.get(`/api/report/link/${bigScan}?status=all`, owner.token);
      expect(page.status).toBe(200);
      const elsewhere = await api.get(`/api/report/link/${otherScan}?status=all`, other.token);
      expect(elsewhere.status).toBe(200);
      const otherExport = await openExport(other.token, otherScan);
      await otherExport.abort();
    } finally {
      await first.abort();
      await second.abort();
    }
    // The places are given back when the exports' clients go away (one request at a time, so
    // none is left running into the next test).
    const deadline = Date.now() + 5000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      const download = await fetch(exportUrl(otherScan), {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      status = download.status;
      await download.body?.cancel();
    }
    expect(status).toBe(404); // the other user's scan: a place was free, and the scan not theirs
  });

  it('lets one user run two report reads at once: a third waits, then gets 429; other users are not affected', async () => {
    const release = await holdTwoReportReads();
    try {
      const started = performance.now();
      const refused = await api.get(`/api/report/page/${bigScan}`, owner.token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: tooManyReportReadsMessage(1) });
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);
      const elsewhere = api.get(`/api/report/page/${otherScan}`, other.token);
      while (gate.held < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      gate.open();
      expect((await elsewhere).status).toBe(200);
    } finally {
      await release();
    }
  });

  it('counts OData feed reads against the same per-user limit: a third waits, then gets an OData 429', async () => {
    const created = await api.post('/api/bi/tokens', { name: 'limit' }, owner.token);
    expect(created.status).toBe(201);
    const basic = `Basic ${Buffer.from(`x:${String(created.body.token)}`).toString('base64')}`;
    const feed = (set: string) =>
      fetch(`${server.baseUrl}/PowerBi/odata/${bigScan}/${set}`, {
        headers: { authorization: basic },
      });
    const release = await holdTwoReportReads();
    try {
      for (const set of ['Links?$top=5', 'Pages/$count']) {
        const refused = await feed(set);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
        expect(refused.headers.get('odata-version')).toBe('4.0');
        expect(await refused.json()).toEqual({
          error: { code: 'TooManyRequests', message: tooManyReportReadsMessage(1) },
        });
      }
      // The service document and $metadata read no rows: never limited.
      expect((await feed('')).status).toBe(200);
      expect((await feed('$metadata')).status).toBe(200);
    } finally {
      await release();
    }
    const answered = await feed('Links?$top=5');
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { value: unknown[] }).value).toHaveLength(5);
  });

  it("computes a finished scan's summary once for readers arriving together, and keeps it", async () => {
    const otherId = await userIdOf(server.database.db, other.email);
    const [together, alone] = [
      await insertBigScan(server.database.db, otherId, 100),
      await insertBigScan(server.database.db, otherId, 100),
    ];
    const summaryOf = (scanId: string) => api.get(`/api/report/summary/${scanId}`, other.token);

    let before = await settledQueriesStarted();
    expect((await summaryOf(alone)).status).toBe(200);
    const oneComputation = (await settledQueriesStarted()) - before;
    expect(oneComputation).toBeGreaterThan(0);

    before = await settledQueriesStarted();
    const answers = await Promise.all(Array.from({ length: 5 }, () => summaryOf(together)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect((await settledQueriesStarted()) - before).toBe(oneComputation);

    before = await settledQueriesStarted();
    const again = await summaryOf(together);
    expect(again.body).toEqual(answers[0]!.body);
    expect((await settledQueriesStarted()) - before).toBe(0);
  });

  it('computes a summary under the per-user read limit, but answers a kept one at once', async () => {
    const ownerId = await userIdOf(server.database.db, owner.email);
    const [kept, fresh] = [
      await insertBigScan(server.database.db, ownerId, 100),
      await insertBigScan(server.database.db, ownerId, 100),
    ];
    expect((await api.get(`/api/report/summary/${kept}`, owner.token)).status).toBe(200);
    const release = await holdTwoReportReads();
    try {
      const refused = await api.get(`/api/report/summary/${fresh}`, owner.token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: tooManyReportReadsMessage(1) });
      expect((await api.get(`/api/report/summary/${kept}`, owner.token)).status).toBe(200);
    } finally {
      await release();
    }
  });

  it('drops a queued export whose client went away, without running its query', async () => {
    const first = await openExport(owner.token, bigScan);
    const second = await openExport(owner.token, bigScan);
    const queriesBefore = await settledQueriesStarted();
    const controller = new AbortController();
    const queued = fetch(exportUrl(bigScan), {
      headers: { authorization: `Bearer ${owner.token}` },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await expect(queued).rejects.toThrow();
    await first.abort();
    await second.abort();
    // Had it stayed queued, a freed place would have run its link queries now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(counter.queriesStarted).toBe(queriesBefore);
  });
});

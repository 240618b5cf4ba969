import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { countFinalResults, insertFinishedScan } from '../../test-support/scan-rows.js';
import type { ReportQuery } from '@linkaudit/core';
import { computeUrlCheckpoints, linkFilterOf, linkPage } from './reports.repository.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

const PAGES = 12;
const TARGETS = 60;

/**
 * Targets of every state, each linked from a different number of pages (one linked from every
 * link slot of the scan's first pages, as a stylesheet is), and address-less links (a target of
 * their own each, all with the empty URL), numbered as the scan writer numbers them: a target
 * when its first link is met.
 */
async function insertScan(db: Kysely<Database>, userId: string): Promise<string> {
  const scanId = randomUUID();
  await insertFinishedScan(db, {
    id: scanId,
    userId,
    url: 'https://example.com/',
    sourceScheduleId: null,
    completedAt: new Date('2026-11-20T10:00:00Z'),
    uniqueLinks: TARGETS,
  });
  const states = ['ok', 'ok', 'broken', 'ok', 'skipped', 'unverified'];
  const reasons = ['Not Found', 'Server Error'];
  const pages = Array.from({ length: PAGES }, (_, id) => ({
    scan_id: scanId,
    id,
    url: `https://example.com/p/${String(id).padStart(3, '0')}`,
    status_code: 200,
    content_type: 'text/html',
    html_bytes: 1000,
    total_bytes: 2000 + (id % 4),
    depth: 1,
  }));
  const targets: Array<{ id: number; url: string; state: string; reason: string | null }> = [];
  const links: Array<{ id: number; page: number; target: number }> = [];
  let linkId = 0;
  for (let page = 0; page < PAGES; page++) {
    for (let slot = 0; slot < 25; slot++) {
      // Target n is met first on some page; its links then spread over later slots.
      const n = (page * 7 + slot * slot) % TARGETS;
      const empty = slot % 11 === 5;
      let target = empty ? undefined : targets.find((t) => t.url === urlOf(n));
      if (!target) {
        const state = empty ? 'broken' : (states[n % states.length] ?? 'ok');
        target = {
          id: targets.length + 1,
          url: empty ? '' : urlOf(n),
          state,
          reason: state === 'broken' ? (reasons[n % 2] ?? null) : null,
        };
        targets.push(target);
      }
      links.push({ id: ++linkId, page, target: target.id });
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('scan_pages').values(pages).execute();
    await trx
      .insertInto('scan_targets')
      .values(
        targets.map((target) => ({
          scan_id: scanId,
          id: target.id,
          url: target.url,
          state: target.state,
          reason: target.reason,
          status_code: target.state === 'broken' ? 404 : 200,
          internal: true,
          content_type: 'text/html',
          size: 10,
        })),
      )
      .execute();
    for (let start = 0; start < links.length; start += 100) {
      await trx
        .insertInto('scan_links')
        .values(
          links.slice(start, start + 100).map((link) => ({
            scan_id: scanId,
            id: link.id,
            page_id: link.page,
            target_id: link.target,
            // As written: a broken anchor's row shows it (its target's URL with the #fragment).
            target: hasBrokenAnchor(link, targets)
              ? `${targets[link.target - 1]?.url ?? ''}#gone`
              : `/t/${link.id}`,
            element: 'a',
            line: link.id,
            col: 1,
            // Some links to working pages name a #fragment the page lacks: broken anchors.
            ...(hasBrokenAnchor(link, targets)
              ? { anchor_fragment: '#gone', anchor_state: 'missing' }
              : {}),
          })),
        )
        .execute();
    }
  });
  return scanId;
}

/** Every fourth link whose target works carries a missing anchor. */
function hasBrokenAnchor(
  link: { id: number; target: number },
  targets: Array<{ id: number; state: string }>,
): boolean {
  return link.id % 4 === 0 && targets[link.target - 1]?.state === 'ok';
}

const urlOf = (n: number) => `https://example.com/t/${String((n * 37) % 101).padStart(3, '0')}`;

/**
 * A finished scan's link tab reads its totals and filter counts from the counts stored with its
 * results, and starts a deep page sorted by target at its first target URL: every page, total and
 * filter count must be what counting and skipping every row answers (the same scan without its
 * stored counts).
 */
describe.each(testDialects())('link tab pages of a finished scan (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let owner: { email: string; token: string };
  let scanId: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'pager');
    const { db } = server.database;
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();
    scanId = await insertScan(db, user.id);
  }, 60_000);
  afterAll(async () => {
    await server.stop();
  });

  const queries = [
    'status=all',
    'status=all&sortOrder=desc',
    'status=broken',
    'status=broken&sortOrder=desc',
    'status=ok',
    'status=skipped',
    'status=all&reason=Not%20Found',
    'status=broken&reason=Server%20Error&sortOrder=desc',
    'status=all&target=',
    `status=all&target=${encodeURIComponent(urlOf(3))}`,
    'status=all&sortBy=referenceCount&sortOrder=desc',
    'status=anchor',
    'reason=Broken%20Anchor',
    'reason=Broken%20Anchor&sortOrder=desc',
  ];

  /** Every page of every query (23 rows a page, and one page past the end). */
  async function readAll(): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    for (const query of queries) {
      for (let page = 1; ; page++) {
        const path = `/api/report/link/${scanId}?${query}&pageSize=23&page=${page}`;
        const response = await api.get(path, owner.token);
        expect(response.status, path).toBe(200);
        answers[path] = response.body;
        if ((response.body as { lists: unknown[] }).lists.length === 0) break;
      }
    }
    return answers;
  }

  it('answers every page, total and filter count as counting every link does', async () => {
    const { db } = server.database;
    await countFinalResults(db, scanId);
    const stored = await db
      .selectFrom('scan_link_counts')
      .select('links')
      .where('scan_id', '=', scanId)
      .execute();
    expect(stored.reduce((sum, row) => sum + Number(row.links), 0)).toBe(PAGES * 25);
    const brokenLinks = (
      await db
        .selectFrom('scan_link_counts')
        .select('links')
        .where('scan_id', '=', scanId)
        .where('state', '=', 'broken')
        .execute()
    ).reduce((sum, row) => sum + Number(row.links), 0);
    const fromStoredCounts = await readAll();
    // Without them, as while a scan runs: every total counted, every page skipped row by row.
    await db.deleteFrom('scan_link_counts').where('scan_id', '=', scanId).execute();
    const live = await readAll();
    expect(fromStoredCounts).toEqual(live);

    // The pages of all links together are every link once, in target order.
    const all = Object.entries(live)
      .filter(([path]) => /\?status=all&pageSize/.test(path))
      .flatMap(([, body]) => (body as { lists: Array<{ targetUri: string }> }).lists);
    expect(all).toHaveLength(PAGES * 25);
    const urls = all.map((row) => row.targetUri.split('#')[0] ?? '');
    expect(urls).toEqual([...urls].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    // The default (broken) pages together: every broken link and every broken anchor once.
    const broken = Object.entries(live)
      .filter(([path]) => /\?status=broken&pageSize/.test(path))
      .flatMap(([, body]) => (body as { lists: Array<{ failureReason: string | null }> }).lists);
    const anchors = await db
      .selectFrom('scan_links')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('scan_id', '=', scanId)
      .where('anchor_state', '=', 'missing')
      .executeTakeFirstOrThrow();
    expect(Number(anchors.count)).toBeGreaterThan(10);
    expect(broken.filter((row) => row.failureReason === 'Broken Anchor')).toHaveLength(
      Number(anchors.count),
    );
    expect(broken.filter((row) => row.failureReason !== 'Broken Anchor')).toHaveLength(brokenLinks);
  }, 180_000);

  it('starts a deep page from the nearest URL checkpoint with the same rows as from the first URL', async () => {
    const { db } = server.database;
    await countFinalResults(db, scanId);
    const filters: Array<Partial<ReportQuery>> = [
      { status: 'all' },
      { status: 'all', sortOrder: 'desc' },
      { status: 'ok' },
      { status: 'all', reason: 'Not Found', sortOrder: 'desc' },
    ];
    for (const filter of filters) {
      const query = (page: number): ReportQuery => ({
        page,
        pageSize: 23,
        sortOrder: 'asc',
        status: 'broken',
        groupBy: 'none',
        format: 'json',
        triage: 'open',
        ...filter,
      });
      const checkpoints = await computeUrlCheckpoints(
        db,
        scanId,
        await linkFilterOf(db, scanId, query(1)),
        3,
      );
      expect(checkpoints.length, JSON.stringify(filter)).toBeGreaterThan(2);
      for (let page = 1; ; page++) {
        const fromCheckpoints = await linkPage(db, scanId, query(page), () =>
          Promise.resolve(checkpoints),
        );
        const fromFirstUrl = await linkPage(db, scanId, query(page), () => Promise.resolve([]));
        expect(fromCheckpoints, `${JSON.stringify(filter)} page ${page}`).toEqual(fromFirstUrl);
        if (fromFirstUrl.rows.length === 0) break;
      }
    }
  }, 180_000);
});

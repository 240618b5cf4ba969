import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { countFinalResults, insertFinishedScan } from './scan-rows.js';

/**
 * A finished scan's result rows made up for the BI feed's tests and bench: pages, targets of
 * every state, links (some with a missing anchor) and rule violations. Tests compute what the
 * feed must answer from these same arrays.
 */
export interface BiScanRows {
  pages: Array<{
    id: number;
    url: string;
    status_code: number;
    total_bytes: number;
    depth: number;
    title: string | null;
  }>;
  targets: Array<{
    id: number;
    url: string;
    state: 'ok' | 'broken';
    reason: string | null;
    status_code: number | null;
    message: string | null;
    internal: boolean;
    content_type: string | null;
    size: number | null;
  }>;
  links: Array<{
    id: number;
    page_id: number;
    target_id: number;
    element: string;
    line: number;
    col: number;
    anchor_fragment: string | null;
    anchor_state: string | null;
  }>;
  rules: Array<{
    page_id: number;
    rule_id: string;
    rule_name: string;
    category_id: number;
    line: number;
    col: number;
  }>;
}

export function biScanRows(linkCount: number, pageCount = 50, targetCount = 400): BiScanRows {
  const pages = Array.from({ length: pageCount }, (_, id) => ({
    id,
    url: `https://site.test/page/${String(id).padStart(4, '0')}`,
    status_code: 200,
    total_bytes: 1000 + id * 37,
    depth: 1 + (id % 4),
    title: id % 5 === 0 ? null : `Page ${id}`,
  }));
  const targets = Array.from({ length: targetCount }, (_, id) => {
    const notFound = id % 7 === 3;
    const timeOut = !notFound && id % 11 === 5;
    return {
      id,
      // Every 17th address holds a quote, which a $filter string must escape by doubling it.
      url: `https://${id % 3 === 0 ? 'other.test' : 'site.test'}/t/${String(id).padStart(5, '0')}${id % 17 === 0 ? "/o'brien" : ''}`,
      state: notFound || timeOut ? ('broken' as const) : ('ok' as const),
      reason: notFound ? 'Not Found' : timeOut ? 'Time Out' : null,
      status_code: notFound ? 404 : timeOut ? null : 200,
      message: notFound ? 'Not Found' : timeOut ? 'The request timed out.' : null,
      internal: id % 3 !== 0,
      content_type: id % 4 === 0 ? 'image/png' : 'text/html',
      size: timeOut ? null : 100 + id,
    };
  });
  const links = Array.from({ length: linkCount }, (_, id) => ({
    id,
    page_id: id % pageCount,
    target_id: (id * 7) % targetCount,
    element: id % 4 === 0 ? 'img' : 'a',
    line: 1 + (id % 250),
    col: 1 + (id % 9),
    anchor_fragment: id % 13 === 0 ? '#section' : null,
    anchor_state: id % 13 === 0 ? (id % 26 === 0 ? 'missing' : 'found') : null,
  }));
  const rules = Array.from({ length: Math.min(pageCount * 2, 200) }, (_, index) => ({
    page_id: index % pageCount,
    rule_id: index % 2 === 0 ? 'img-alt' : 'title-length',
    rule_name: index % 2 === 0 ? 'Images need alt text' : 'Title too long',
    category_id: index % 2 === 0 ? 5 : 4,
    line: 10 + index,
    col: 3,
  }));
  return { pages, targets, links, rules };
}

/** Writes the rows as one finished scan of `userId`; answers its id. */
export async function insertBiScan(
  db: Kysely<Database>,
  userId: string,
  rows: BiScanRows,
): Promise<string> {
  const scanId = randomUUID();
  await insertFinishedScan(db, {
    id: scanId,
    userId,
    url: 'https://site.test/',
    sourceScheduleId: null,
    completedAt: new Date('2026-11-20T10:00:00Z'),
    uniqueLinks: rows.targets.length,
  });
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('scan_pages')
      .values(
        rows.pages.map((page) => ({
          ...page,
          scan_id: scanId,
          content_type: 'text/html',
          html_bytes: 500,
          page_rank: page.id / 100,
        })),
      )
      .execute();
    for (let start = 0; start < rows.targets.length; start += 500) {
      await trx
        .insertInto('scan_targets')
        .values(
          rows.targets.slice(start, start + 500).map((target) => ({ ...target, scan_id: scanId })),
        )
        .execute();
    }
    for (let start = 0; start < rows.links.length; start += 1000) {
      await trx
        .insertInto('scan_links')
        .values(
          rows.links.slice(start, start + 1000).map((link) => ({
            ...link,
            scan_id: scanId,
            target: `/t/${link.target_id}${link.anchor_fragment ?? ''}`,
          })),
        )
        .execute();
    }
    await trx
      .insertInto('scan_rule_violations')
      .values(
        rows.rules.map((rule) => ({ ...rule, scan_id: scanId, snippet: '<img>', message: null })),
      )
      .execute();
  });
  await countFinalResults(db, scanId);
  return scanId;
}

// Backpressure from the database to the scan (issue 21): with a results writer slower than the
// crawl, the events it holds stay within its bound, in either engine mode, and every one is stored.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultScanRequest, endingStatus, ScanStatus } from '@linkaudit/core';
import { crawlSettingsFor, unacknowledgedEventsLimit, type ScanEvent } from '@linkaudit/engine';
import {
  createLookup,
  fastEngineOptions,
  linksPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import {
  openTestDatabase,
  testDialects,
  type TestDatabase,
} from '../../test-support/test-server.js';
import { scanEngine } from './scan-engine.js';
import { resultBacklogLimit, ScanResultWriter } from './scan-results.js';
import type * as repository from './scan-results.repository.js';
import { insertScan } from './scans.repository.js';

/**
 * Each batch's transaction takes this much longer per 500 links: the database is the slow part of
 * the scan, row by row (the writer groups what arrives during a write into the next transaction,
 * so a cost per transaction would no longer hold it back). At 120 ms a CI machine running two test
 * files at once crawled slower than the writer wrote and the bound was never reached; at 400 ms
 * the in-process engine took over a minute for 12,000 events (to look into: it should follow the
 * writer's ~1,200 events/s).
 */
const slowWriteMs = 180;

vi.mock('./scan-results.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof repository>();
  return {
    ...original,
    writeResultBatch: async (...args: Parameters<typeof original.writeResultBatch>) => {
      const links = args[2].links.length;
      await new Promise((resolve) => setTimeout(resolve, (slowWriteMs * links) / 500));
      return original.writeResultBatch(...args);
    },
  };
});

const linkCount = 12_000;
const lookup = createLookup(['site.test']);

describe.each(testDialects())('backpressure of a slow results writer (%s)', (dialect) => {
  let handle: TestDatabase;
  let site: TestSite;

  beforeAll(async () => {
    handle = await openTestDatabase(dialect);
    const links = Array.from({ length: linkCount }, (_, index) => `/l/${index}`);
    site = await startTestSite({ '/': linksPage(links) }, { host: 'site.test', fallback: 'ok' });
  });
  afterAll(async () => {
    await site.close();
    await handle.drop();
  });

  async function newScan(): Promise<string> {
    const { db } = handle.database;
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: `${userId}@example.com`,
        normalized_email: `${userId}@example.com`,
        first_name: 'Ada',
        last_name: 'Lovelace',
        language: 'en',
        email_confirmed_at: null,
        created_at: new Date(),
      })
      .execute();
    const scanId = randomUUID();
    await insertScan(db, {
      id: scanId,
      userId,
      url: site.url('/'),
      priority: 1,
      scanType: 3,
      settingsJson: '{}',
      scheduleSettingsJson: null,
      enableSchedule: false,
      saveScheduleOnly: false,
      sourceScheduleId: null,
      createdAt: new Date(),
    });
    return scanId;
  }

  it.each(['process', 'none'] as const)(
    'holds a scan in mode %s back: the backlog stays bounded and every event is stored',
    async (mode) => {
      const { db } = handle.database;
      const scanId = await newScan();
      const writer = new ScanResultWriter(db, scanId);
      let linkEvents = 0;
      const onEvent = (event: ScanEvent) => {
        if (event.type === 'link') linkEvents++;
        writer.add(event);
      };
      const settings = crawlSettingsFor(
        defaultScanRequest({ url: site.url('/'), maxLinkAmount: 100_000, maxThreadCount: 20 }),
      );
      const started = performance.now();
      const done = await scanEngine({ mode, memoryLimitMb: 512 })(settings, {
        policy: { allowPrivate: true, allowedHosts: [] },
        signal: new AbortController().signal,
        onEvent,
        backpressure: writer,
        engineOptions: { ...fastEngineOptions, lookup },
      });
      await writer.finish(done);
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${mode} (${dialect}): ${linkEvents} link events in ${seconds.toFixed(1)} s, ` +
          `peak backlog ${writer.peakBacklog} (bound ${resultBacklogLimit})`,
      );

      expect(endingStatus(done)).toBe(ScanStatus.Complete);
      expect(linkEvents).toBe(linkCount);
      const stored = await db
        .selectFrom('scan_links')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('scan_id', '=', scanId)
        .executeTakeFirstOrThrow();
      expect(Number(stored.count)).toBe(linkCount);
      // The writer was the slow part, and stayed full for a while: the bound was what held.
      expect(writer.peakBacklog).toBeGreaterThanOrEqual(resultBacklogLimit);
      expect(writer.peakBacklog).toBeLessThanOrEqual(
        resultBacklogLimit + unacknowledgedEventsLimit,
      );
    },
    60_000,
  );
});

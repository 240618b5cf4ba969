// Limits across api processes (issue 36): two api servers on one PostgreSQL schema, as behind a
// load balancer, each with its own memory. The sign-in rate limit, the sign-in backoff and the
// per-user heavy-read limit hold across them. Skipped without TEST_DATABASE_URL: SQLite is the
// embedded server, one process by design.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWaitMessage } from '@linkaudit/core';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { ReportReadGate } from '../../test-support/report-read-gate.js';
import { signUp, userIdOf } from '../../test-support/scan-helpers.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { tooManyReportReadsMessage } from '../reports/reports.routes.js';

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'limits across two api servers on PostgreSQL',
  () => {
    let first: TestServer;
    let second: TestServer;
    let one: ApiClient;
    let two: ApiClient;
    const gate = new ReportReadGate();
    const limits = {
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT: '8',
      REPORT_READS_PER_USER: '2',
      REPORT_READ_QUEUE_MS: '300',
    };

    beforeAll(async () => {
      first = await startTestServer('postgres', limits, undefined, (database) => ({
        ...database,
        reportDb: database.reportDb.withPlugin(gate),
      }));
      second = await startTestServer('postgres', {
        ...limits,
        DATA_DIR: first.config.dataDir,
        DATABASE_URL: first.config.databaseUrl ?? '',
      });
      one = apiClient(first.baseUrl);
      two = apiClient(second.baseUrl);
    });
    afterAll(async () => {
      gate.open();
      await second?.stop();
      await first?.stop();
    });

    async function placesHeld(): Promise<number> {
      const rows = await first.database.db
        .selectFrom('heavy_read_places')
        .select('holder')
        .execute();
      return rows.length;
    }

    function signIn(server: TestServer, username: string, password: string, from: string) {
      return fetch(`${server.baseUrl}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': from,
        },
        body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
      });
    }

    it('counts one address’s sign-ins on both servers against one rate limit', async () => {
      const from = '203.0.113.61';
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 9; attempt++) {
        const server = attempt % 2 === 0 ? first : second;
        statuses.push((await signIn(server, `nobody${attempt}@example.com`, 'x1', from)).status);
      }
      // Eight a minute in all, not eight on each server.
      expect(statuses).toEqual([...Array.from({ length: 8 }, () => 400), 429]);
    });

    it('makes a failing address wait on both servers, while the owner signs in elsewhere', async () => {
      const { email } = await signUp(one, 'shared-backoff');
      const from = '203.0.113.62';
      for (let attempt = 0; attempt < 5; attempt++) {
        const server = attempt % 2 === 0 ? first : second;
        expect((await signIn(server, email, 'wrong1', from)).status).toBe(400);
      }
      for (const server of [first, second]) {
        const waiting = await signIn(server, email, 'secret1', from);
        expect(waiting.status).toBe(429);
        expect(((await waiting.json()) as { error_description: string }).error_description).toBe(
          signInWaitMessage(1),
        );
      }
      expect((await signIn(second, email, 'secret1', '198.51.100.62')).status).toBe(200);
    });

    it('holds one user to two report reads at once across both servers', async () => {
      const owner = await signUp(one, 'shared-reader');
      const scanId = randomUUID();
      await insertFinishedScan(first.database.db, {
        id: scanId,
        userId: await userIdOf(first.database.db, owner.email),
        url: 'https://example.com/',
        sourceScheduleId: null,
        completedAt: new Date('2026-11-20T10:00:00Z'),
        uniqueLinks: 0,
      });
      gate.close();
      const held = [1, 2].map(() => one.get(`/api/report/link/${scanId}?status=all`, owner.token));
      // Both reads hold their places (the first one's query is held by the gate, the second
      // joins it), as the shared table shows.
      while ((await placesHeld()) < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        // The two places are taken on the first server: the second has none to give.
        const refused = await two.get(`/api/report/link/${scanId}?status=all`, owner.token);
        expect(refused).toMatchObject({
          status: 429,
          body: { message: tooManyReportReadsMessage(1) },
        });
      } finally {
        gate.open();
      }
      for (const read of await Promise.all(held)) expect(read.status).toBe(200);
      // Given back when the reads end: the second server answers again.
      expect((await two.get(`/api/report/link/${scanId}?status=all`, owner.token)).status).toBe(
        200,
      );
    });
  },
);

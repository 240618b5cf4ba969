import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  fastEngineOptions,
  linksPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { buildApp } from '../../app.js';
import { openDatabase } from '../../db/database.js';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

interface HubMessage {
  type: string;
  scanId?: string;
  status?: number;
}

/** Opens the hub and gathers its messages until `until` says stop. */
function watch(baseUrl: string, token: string, until: (message: HubMessage) => boolean) {
  const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/hubs/scans?access_token=${token}`);
  const messages: HubMessage[] = [];
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as HubMessage;
      messages.push(message);
      if (message.type === 'hello') resolve();
    });
    socket.addEventListener('error', () => reject(new Error('hub connection failed')));
  });
  const finished = new Promise<HubMessage[]>((resolve) => {
    socket.addEventListener('message', () => {
      if (messages.some(until)) resolve(messages);
    });
    socket.addEventListener('close', () => resolve(messages));
  });
  return { opened, finished, close: () => socket.close() };
}

describe.each(testDialects())('scan hub over WebSocket (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({ '/': linksPage(['/a', '/missing']), '/a': 'a' });
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  it("pushes the user's scan from Queued to Complete, and nothing of other users' scans", async () => {
    const owner = await signUp(api);
    const other = await signUp(api);
    const mine = watch(
      server.baseUrl,
      owner.token,
      (message) => message.status === ScanStatus.Complete,
    );
    const theirs = watch(server.baseUrl, other.token, () => false);
    await Promise.all([mine.opened, theirs.opened]);
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      owner.token,
    );
    const messages = await mine.finished;
    const statuses = messages
      .filter((message) => message.scanId === created.body.id)
      .map((message) => message.status);
    expect(statuses).toContain(ScanStatus.InProgress);
    expect(statuses.at(-1)).toBe(ScanStatus.Complete);
    theirs.close();
    expect((await theirs.finished).filter((message) => message.type === 'scan')).toEqual([]);
    mine.close();
  });

  it('refuses a connection without a valid token', async () => {
    const hub = watch(server.baseUrl, 'not-a-token', () => false);
    await expect(hub.finished).resolves.toEqual([]);
  });

  it.runIf(dialect === 'postgres')(
    'reaches a hub in another process through LISTEN/NOTIFY',
    async () => {
      const database = await openDatabase(server.config);
      const apiOnly = await buildApp({
        config: server.config,
        database,
        workerConcurrency: 0,
        buildInfo: { version: '1.0test', assembledTime: '2026-11-21T05:00:00.000Z' },
      });
      const otherUrl = await apiOnly.listen({ host: '127.0.0.1', port: 0 });
      try {
        const owner = await signUp(api);
        const hub = watch(
          otherUrl,
          owner.token,
          (message) => message.status === ScanStatus.Complete,
        );
        await hub.opened;
        await api.post('/api/ScanApi/', { scanSettings: { url: site.url('/') } }, owner.token);
        const messages = await hub.finished;
        expect(messages.at(-1)?.status).toBe(ScanStatus.Complete);
        hub.close();
      } finally {
        await apiOnly.close();
        await database.close();
      }
    },
  );
});

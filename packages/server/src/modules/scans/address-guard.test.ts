import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanMessages, ScanStatus } from '@linkaudit/core';
import {
  createLookup,
  fastEngineOptions,
  linksPage,
  redirect,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import {
  freePort,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../test-support/test-server.js';
import type { LookupFunction } from 'node:net';
import { isHostAllowed, isPublicAddress, refusedStartAddress } from './address-guard.js';

describe('address guard', () => {
  it('refuses loopback, private, link-local (metadata), unique-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '172.16.0.1',
      '169.254.169.254',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '100.100.100.200',
      '0.0.0.0',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1::1')).toBe(true);
  });

  it('honours the port of an allow-list entry, and allows every port of an entry without one', () => {
    const policy = {
      allowPrivate: false,
      allowedHosts: ['127.0.0.1:8080', 'intranet.test', '[::1]:8443', 'Docs.Test.:81'],
    };
    expect(isHostAllowed('127.0.0.1', policy, '8080')).toBe(true);
    expect(isHostAllowed('127.0.0.1', policy, '6379')).toBe(false);
    expect(isHostAllowed('intranet.test', policy, '6379')).toBe(true);
    expect(isHostAllowed('[::1]', policy, '8443')).toBe(true);
    expect(isHostAllowed('::1', policy, '22')).toBe(false);
    expect(isHostAllowed('docs.test', policy, '81')).toBe(true);
    expect(isHostAllowed('docs.test', policy, '80')).toBe(false);
    expect(isHostAllowed('10.0.0.1', policy, '8080')).toBe(false);
    expect(isHostAllowed('10.0.0.1', { ...policy, allowPrivate: true }, '1')).toBe(true);
  });
});

describe('special-use names at submit', () => {
  /** A resolver that never answers in time, and notes who asked it. */
  const asked: string[] = [];
  const timingOut: LookupFunction = (hostname, _options, callback) => {
    asked.push(hostname);
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo EAI_AGAIN ${hostname}`);
    error.code = 'EAI_AGAIN';
    process.nextTick(() => callback(error, '', 0));
  };
  const hosted = { allowPrivate: false, allowedHosts: [] };

  it('refuses them by name, without a lookup, whatever the resolver does', async () => {
    for (const host of [
      'metadata.google.internal',
      'admin.localhost',
      'localhost',
      'printer.local',
      'router.home.arpa',
    ]) {
      await expect(refusedStartAddress(`http://${host}/`, hosted, timingOut)).resolves.toEqual({
        kind: 'private',
        address: host,
      });
    }
    expect(asked).toEqual([]);
    // An ordinary name whose lookup times out is left to the connect-time check, as before.
    await expect(refusedStartAddress('http://example.com/', hosted, timingOut)).resolves.toBe(
      undefined,
    );
    // The operator's allow-list and private targets still let them through.
    const listed = { allowPrivate: false, allowedHosts: ['app.localhost'] };
    await expect(refusedStartAddress('http://app.localhost/', listed, timingOut)).resolves.toBe(
      undefined,
    );
  });
});

describe.each(testDialects())('SSRF refusals over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let allowListed: TestServer;
  let portListed: TestServer;
  let api: ApiClient;
  let site: TestSite;
  /** Another service on 127.0.0.1 (another port), which only the port-less allow-list may reach. */
  let otherPort: TestSite;

  beforeAll(async () => {
    otherPort = await startTestSite({ '/secret': 'secret', '/via-redirect': 'secret' });
    site = await startTestSite({});
    site.routes['/port-page'] = linksPage([
      `http://127.0.0.1:${otherPort.port}/secret`,
      '/hop',
      `http://known.test:${site.port}/named`,
      '/ok',
    ]);
    site.routes['/hop'] = redirect(`http://127.0.0.1:${otherPort.port}/via-redirect`);
    site.routes['/'] = linksPage([
      `http://localhost:${site.port}/inner`,
      'http://10.1.2.3/x',
      '/ok',
    ]);
    site.routes['/ok'] = 'ok';
    server = await startTestServer(dialect);
    allowListed = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    // Only the test site's port of 127.0.0.1 is allowed; names resolve without DNS.
    portListed = await startTestServer(
      dialect,
      {
        LINKAUDIT_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
        ADMIN_EMAILS: `warden-${dialect}@example.com`,
      },
      { ...fastEngineOptions, lookup: createLookup(['known.test']) },
    );
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await allowListed.stop();
    await portListed.stop();
    await site.close();
    await otherPort.close();
  });

  it('refuses start addresses on loopback, private and metadata networks, and names resolving there', async () => {
    const { token } = await signUp(api);
    for (const [url, address] of [
      [site.url('/'), '127.0.0.1'],
      ['http://10.0.0.8/', '10.0.0.8'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      [`http://localhost:${site.port}/`, 'localhost'],
    ] as const) {
      const answer = await api.post('/api/ScanApi/', { scanSettings: { url } }, token);
      expect(answer.status, url).toBe(400);
      expect(answer.body.exceptionMessage).toBe(
        `The address ${address} is on a private network and may not be scanned`,
      );
    }
    expect((await api.get('/api/ScanApi/Get', token)).body).toEqual([]);
  });

  it('refuses each link the crawler follows to a private address, with a clear error', async () => {
    const client = apiClient(allowListed.baseUrl);
    const { token } = await signUp(client);
    const created = await client.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      token,
    );
    expect(created.status).toBe(200);
    await waitForScan(
      client,
      token,
      String(created.body.id),
      (item) => item.status === ScanStatus.Complete,
    );
    const links = await client.get(`/api/report/link/${String(created.body.id)}?status=all`, token);
    const byTarget = new Map(
      (links.body.lists as Array<{ targetUri: string }>).map((row) => [row.targetUri, row]),
    );
    expect(byTarget.get(`http://localhost:${site.port}/inner`)).toMatchObject({
      failureReason: 'Invalid Remote Name',
      errorMessage: expect.stringContaining('private network'),
    });
    expect(byTarget.get('http://10.1.2.3/x')).toMatchObject({
      failureReason: 'Invalid Remote Name',
      errorMessage: expect.stringContaining('private network'),
    });
    expect(site.requestedPaths()).not.toContain('/inner');
  });

  it('allows an allow-listed host only on the port its entry names', async () => {
    const client = apiClient(portListed.baseUrl);
    const { token } = await signUp(client);
    const allowed = await client.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      token,
    );
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    const otherPort = await freePort();
    const refused = await client.post(
      '/api/ScanApi/',
      { scanSettings: { url: `http://127.0.0.1:${otherPort}/` } },
      token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.exceptionMessage).toBe(scanMessages.privateAddress('127.0.0.1'));
    const list = (await client.get('/api/ScanApi/Get', token)).body as Array<{ url: string }>;
    expect(list.map((scan) => scan.url)).toEqual([site.url('/')]);
  });

  it('refuses links found during the scan on a port the allow-list does not name, saying why', async () => {
    const client = apiClient(portListed.baseUrl);
    const { token } = await signUp(client);
    const created = await client.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/port-page') } },
      token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    await waitForScan(client, token, id, (scan) => scan.status === ScanStatus.Complete);
    const links = await client.get(`/api/report/link/${id}?status=all`, token);
    const byTarget = new Map(
      (links.body.lists as Array<{ targetUri: string }>).map((row) => [row.targetUri, row]),
    );
    const refused = (target: string, address: string) => ({
      failureReason: 'Invalid Remote Name',
      errorMessage: scanMessages.privateLink(target, address),
    });
    // A link on a page, and a redirect hop, to another port of the allowed host.
    expect(byTarget.get(`http://127.0.0.1:${otherPort.port}/secret`)).toMatchObject(
      refused(`127.0.0.1:${otherPort.port}`, '127.0.0.1'),
    );
    expect(byTarget.get(site.url('/hop'))).toMatchObject(
      refused(`127.0.0.1:${otherPort.port}`, '127.0.0.1'),
    );
    // A name the allow-list does not hold, whose DNS answer is private: refused at connect time.
    expect(byTarget.get(`http://known.test:${site.port}/named`)).toMatchObject(
      refused(`known.test:${site.port}`, '127.0.0.1'),
    );
    expect(byTarget.get(site.url('/ok'))).toMatchObject({ failureReason: null });
    expect(otherPort.requestedPaths()).toEqual([]);
    expect(site.requestedPaths()).not.toContain('/named');
  });

  it('refuses at submit a name that does not exist, saying so', async () => {
    const client = apiClient(portListed.baseUrl);
    const { token } = await signUp(client);
    for (const body of [
      { scanSettings: { url: 'http://nowhere.test/' } },
      { url: 'https://www.nowhere.test/docs' },
    ]) {
      const answer = await client.post('/api/ScanApi/', body, token);
      expect(answer.status).toBe(400);
      const host = body.url ? 'www.nowhere.test' : 'nowhere.test';
      expect(answer.body).toMatchObject({
        message: scanMessages.unknownHost(host),
        exceptionMessage: scanMessages.unknownHost(host),
      });
    }
    expect((await client.get('/api/ScanApi/Get', token)).body).toEqual([]);
  });

  it('runs the start-address check on an admin requeue too', async () => {
    const client = apiClient(portListed.baseUrl);
    const admin = await signUp(client, 'warden', `warden-${dialect}@example.com`);
    const { token } = await signUp(client);
    const created = await client.post(
      '/api/ScanApi/',
      { scanSettings: { url: site.url('/') } },
      token,
    );
    const id = String(created.body.id);
    await waitForScan(client, token, id, (scan) => scan.status === ScanStatus.Complete);
    const requeue = (url: string) =>
      fetch(`${portListed.baseUrl}/api/admin/Requeue/`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, scanSettings: { url } }),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      }));
    for (const [url, message] of [
      ['http://10.0.0.8/', scanMessages.privateAddress('10.0.0.8')],
      [`http://127.0.0.1:${await freePort()}/`, scanMessages.privateAddress('127.0.0.1')],
      ['http://nowhere.test/', scanMessages.unknownHost('nowhere.test')],
    ] as const) {
      const answer = await requeue(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.exceptionMessage).toBe(message);
    }
    const [scan] = (await client.get('/api/ScanApi/Get', token)).body as Array<{
      url: string;
      status: number;
    }>;
    expect(scan).toMatchObject({ url: site.url('/'), status: ScanStatus.Complete });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus } from '@linkaudit/core';
import {
  fastEngineOptions,
  linksPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { isPublicAddress } from './address-guard.js';

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
});

describe.each(testDialects())('SSRF refusals over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let allowListed: TestServer;
  let api: ApiClient;
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({});
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
    api = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.stop();
    await allowListed.stop();
    await site.close();
  });

  it('refuses start addresses on loopback, private and metadata networks, and names resolving there', async () => {
    const { token } = await signUp(api);
    for (const [url, address] of [
      [site.url('/'), '127.0.0.1'],
      ['http://10.0.0.8/', '10.0.0.8'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      [`http://localhost:${site.port}/`, '127.0.0.1'],
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
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** Issue 21: Strict-Transport-Security only on answers sent over https (RFC 6797 §7.2). */
describe('HSTS only over https', () => {
  let direct: TestServer;
  let proxied: TestServer;

  beforeAll(async () => {
    direct = await startTestServer('sqlite');
    proxied = await startTestServer('sqlite', { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await direct.stop();
    await proxied.stop();
  });

  const headersOf = async (server: TestServer, headers: Record<string, string> = {}) =>
    (await fetch(`${server.baseUrl}/api/ServerVersion`, { headers })).headers;

  it('is not sent over plain HTTP, whatever an untrusted client claims', async () => {
    const plain = await headersOf(direct);
    expect(plain.get('strict-transport-security')).toBeNull();
    // The other security headers stay.
    expect(plain.get('x-content-type-options')).toBe('nosniff');
    expect(plain.get('content-security-policy')).toContain("default-src 'self'");
    const claimed = await headersOf(direct, { 'x-forwarded-proto': 'https' });
    expect(claimed.get('strict-transport-security')).toBeNull();
  });

  it('is sent when a trusted proxy says the request came over https', async () => {
    const secure = await headersOf(proxied, { 'x-forwarded-proto': 'https' });
    expect(secure.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await headersOf(proxied)).get('strict-transport-security')).toBeNull();
    const plain = await headersOf(proxied, { 'x-forwarded-proto': 'http' });
    expect(plain.get('strict-transport-security')).toBeNull();
  });
});

// TLS: a certificate from a trusted authority passes; a self-signed or untrusted one is Invalid
// Certificate when checkBrokenCertificate is on, and the same link is OK when it is off.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectScan,
  createLookup,
  linksPage,
  startTestSite,
  testCertificates,
  urlOutcomes,
  type TestSite,
} from '../test-support/index.js';

const names = ['site.test', 'secure.test', 'selfsigned.test'];
const lookup = createLookup(names);
const certificates = testCertificates(names);
let site: TestSite;
let secure: TestSite;
let selfSigned: TestSite;

beforeAll(async () => {
  const { trusted, selfSigned: untrusted } = certificates;
  secure = await startTestSite(
    { '/': linksPage(['/ok.html']), '/ok.html': 'secure page' },
    { tls: trusted, host: 'secure.test' },
  );
  selfSigned = await startTestSite(
    { '/x.html': 'self-signed page' },
    { tls: untrusted, host: 'selfsigned.test' },
  );
  site = await startTestSite(
    { '/': linksPage([secure.url('/ok.html'), selfSigned.url('/x.html')]) },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  await secure.close();
  await selfSigned.close();
});

describe('certificates', () => {
  it('trusts a private CA given in EngineOptions.ca and rejects a self-signed certificate', async () => {
    const ca = certificates.authority.cert;
    const { links, done } = await collectScan({ url: site.url('/') }, { lookup, ca });
    expect(done.status).toBe(ScanStatus.Complete);
    expect(urlOutcomes(links)).toEqual([
      { url: secure.url('/ok.html'), state: 'ok', detail: 200, referenceCount: 1 },
      {
        url: selfSigned.url('/x.html'),
        state: 'broken',
        detail: FailureReason.InvalidCertificate,
        referenceCount: 1,
      },
    ]);
    expect(links.find((link) => link.url === selfSigned.url('/x.html'))?.check).toMatchObject({
      errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });

  it('rejects a certificate whose authority is not trusted', async () => {
    const { links } = await collectScan({ url: site.url('/') }, { lookup });
    expect(urlOutcomes(links)).toEqual([
      {
        url: secure.url('/ok.html'),
        state: 'broken',
        detail: FailureReason.InvalidCertificate,
        referenceCount: 1,
      },
      {
        url: selfSigned.url('/x.html'),
        state: 'broken',
        detail: FailureReason.InvalidCertificate,
        referenceCount: 1,
      },
    ]);
  });

  it('reports the same links OK when checkBrokenCertificate is off', async () => {
    const { links } = await collectScan(
      { url: site.url('/'), checkBrokenCertificate: false },
      { lookup },
    );
    expect(urlOutcomes(links)).toEqual([
      { url: secure.url('/ok.html'), state: 'ok', detail: 200, referenceCount: 1 },
      { url: selfSigned.url('/x.html'), state: 'ok', detail: 200, referenceCount: 1 },
    ]);
  });

  it('crawls an HTTPS site whose CA is trusted', async () => {
    const ca = certificates.authority.cert;
    const { pages, done } = await collectScan(
      { url: secure.url('/'), scanDepth: 3 },
      { lookup, ca },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(pages.map((page) => page.finalUrl)).toEqual([secure.url('/'), secure.url('/ok.html')]);
  });

  it('fails the scan when the start page has an invalid certificate', async () => {
    const { done } = await collectScan({ url: selfSigned.url('/x.html') }, { lookup });
    expect(done.status).toBe(ScanStatus.Failed);
    expect(done.error).toEqual(expect.stringMatching(/\S/));
  });
});

// TLS certificates made at test time, one HTTPS site per case (expired, not yet valid, self-signed,
// wrong host, untrusted authority, a private CA the scan trusts, one expiring in 10 days): one
// certificate event per host with its details, links to bad certificates broken as Invalid
// Certificate with the precise cause, the 30-day warning, and the summary's count.
import { FailureReason, ScanStatus } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateEvent } from '../index.js';
import {
  certificateDate,
  collectScan,
  createCertificateAuthority,
  createLookup,
  eventsOfType,
  issueCertificate,
  linksPage,
  selfSignedCertificate,
  startTestSite,
  urlOutcomes,
  type TestSite,
  type TlsIdentity,
} from '../test-support/index.js';

const hostNames = [
  'site.test',
  'private.test',
  'soon.test',
  'expired.test',
  'future.test',
  'selfsigned.test',
  'wronghost.test',
  'untrusted.test',
] as const;
type HostName = (typeof hostNames)[number];
type SecureHost = Exclude<HostName, 'site.test'>;

const lookup = createLookup(hostNames);
const privateCa = createCertificateAuthority({ commonName: 'Scenario Private CA' });
// Not given to the scan. (The kit's authorities share one key; a certificate finds its issuer by
// name, and no trusted authority is called Stranger CA.)
const strangerCa = createCertificateAuthority({ commonName: 'Stranger CA' });

// Whole seconds, as X.509 keeps them. Offsets of a day plus an hour keep daysLeft whole and clear
// of the moment the scan runs: +10 d 1 h is 10 days left; −2 d +1 h is −2 (expired, so negative).
const dates = {
  longAgo: certificateDate(-90),
  yesterday: certificateDate(-1),
  nextYear: certificateDate(365, 1),
  soon: certificateDate(10, 1),
  expired: certificateDate(-2, 1),
  notYet: certificateDate(3),
};

const identities: Record<SecureHost, TlsIdentity> = {
  'private.test': issueCertificate(privateCa, {
    names: ['private.test'],
    notBefore: dates.yesterday,
    notAfter: dates.nextYear,
  }),
  'soon.test': issueCertificate(privateCa, {
    names: ['soon.test'],
    notBefore: dates.longAgo,
    notAfter: dates.soon,
  }),
  'expired.test': issueCertificate(privateCa, {
    names: ['expired.test'],
    notBefore: dates.longAgo,
    notAfter: dates.expired,
  }),
  'future.test': issueCertificate(privateCa, {
    names: ['future.test'],
    notBefore: dates.notYet,
    notAfter: dates.nextYear,
  }),
  'selfsigned.test': selfSignedCertificate({
    names: ['selfsigned.test'],
    notBefore: dates.yesterday,
    notAfter: dates.nextYear,
  }),
  'wronghost.test': issueCertificate(privateCa, {
    names: ['elsewhere.test'],
    notBefore: dates.yesterday,
    notAfter: dates.nextYear,
  }),
  'untrusted.test': issueCertificate(strangerCa, {
    names: ['untrusted.test'],
    notBefore: dates.yesterday,
    notAfter: dates.nextYear,
  }),
};

const secureHosts = Object.keys(identities) as SecureHost[];
const secure = new Map<SecureHost, TestSite>();
let site: TestSite;

const on = (host: SecureHost, path = '/page.html') => secure.get(host)!.url(path);
const hostOf = (host: SecureHost) => new URL(on(host)).host;

beforeAll(async () => {
  for (const host of secureHosts) {
    const routes = { '/page.html': 'secure page', '/other.html': 'another page' };
    secure.set(host, await startTestSite(routes, { tls: identities[host], host }));
  }
  site = await startTestSite(
    {
      // Two pages of expired.test and two links to private.test: still one certificate each.
      '/': linksPage([
        ...secureHosts.map((host) => on(host)),
        on('expired.test', '/other.html'),
        '/more.html',
      ]),
      '/more.html': linksPage([on('private.test'), on('private.test', '/other.html')]),
    },
    { host: 'site.test' },
  );
});
afterAll(async () => {
  await site.close();
  for (const server of secure.values()) await server.close();
});

const iso = (date: Date) => date.toISOString();

/** The certificate event each host should get. */
function expectedCertificates(): CertificateEvent[] {
  const { yesterday, nextYear, longAgo } = dates;
  // By default: named for its host, issued by the private CA, from yesterday to next year.
  const certificate = (
    host: SecureHost,
    fields: Pick<CertificateEvent, 'valid' | 'message' | 'expiresSoon'> &
      Partial<CertificateEvent> & { from?: Date; to?: Date },
  ): CertificateEvent => {
    const { from = yesterday, to = nextYear, ...rest } = fields;
    return {
      type: 'certificate',
      host: hostOf(host),
      subject: host,
      issuer: 'Scenario Private CA',
      validFrom: iso(from),
      validTo: iso(to),
      daysLeft: 365,
      ...rest,
    };
  };
  const invalid = (problem: CertificateEvent['problem'], errorCode: string, message: string) => ({
    valid: false,
    problem,
    errorCode,
    message,
    expiresSoon: false,
  });
  return [
    certificate('private.test', {
      valid: true,
      message: expect.any(String) as string,
      expiresSoon: false,
    }),
    certificate('soon.test', {
      valid: true,
      message: expect.stringMatching(
        new RegExp(`expires in 10 days.*${iso(dates.soon).slice(0, 10)}`),
      ) as string,
      from: longAgo,
      to: dates.soon,
      daysLeft: 10,
      expiresSoon: true,
    }),
    certificate('expired.test', {
      ...invalid('expired', 'CERT_HAS_EXPIRED', 'The certificate has expired'),
      from: longAgo,
      to: dates.expired,
      daysLeft: -2,
    }),
    certificate('future.test', {
      ...invalid('not-yet-valid', 'CERT_NOT_YET_VALID', 'The certificate is not yet valid'),
      from: dates.notYet,
    }),
    certificate('selfsigned.test', {
      ...invalid('self-signed', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'The certificate is self-signed'),
      issuer: 'selfsigned.test',
    }),
    certificate('wronghost.test', {
      ...invalid(
        'wrong-host',
        'ERR_TLS_CERT_ALTNAME_INVALID',
        'The certificate does not cover this host name',
      ),
      subject: 'elsewhere.test',
    }),
    certificate('untrusted.test', {
      ...invalid(
        'untrusted',
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        'The certificate is not signed by a trusted authority',
      ),
      issuer: 'Stranger CA',
    }),
  ].sort((a, b) => a.host.localeCompare(b.host));
}

const byHost = (a: CertificateEvent, b: CertificateEvent) => a.host.localeCompare(b.host);

const scanAll = (checkBrokenCertificate = true) =>
  collectScan(
    { url: site.url('/'), scanDepth: 3, checkBrokenCertificate },
    { lookup, ca: privateCa.cert },
  );

describe('certificate details', () => {
  it('reports each https host once, with subject, issuer, dates, days left and the precise problem', async () => {
    const { events, done } = await scanAll();
    expect(done.status).toBe(ScanStatus.Complete);
    expect(eventsOfType(events, 'certificate').sort(byHost)).toEqual(expectedCertificates());
    // Five invalid certificates and one that expires within 30 days.
    expect(done.summary.certificateProblems).toBe(6);
  });

  it('breaks links to hosts with invalid certificates (Invalid Certificate, precise code and cause)', async () => {
    const { links } = await scanAll();
    const broken = (errorCode: string, message: string) => ({
      state: 'broken',
      reason: FailureReason.InvalidCertificate,
      errorCode,
      message,
      redirects: [],
    });
    const checkOf = (url: string) => links.find((link) => link.url === url)?.check;
    expect(checkOf(on('expired.test'))).toEqual(
      broken('CERT_HAS_EXPIRED', 'The certificate has expired'),
    );
    expect(checkOf(on('expired.test', '/other.html'))).toEqual(
      broken('CERT_HAS_EXPIRED', 'The certificate has expired'),
    );
    expect(checkOf(on('future.test'))).toEqual(
      broken('CERT_NOT_YET_VALID', 'The certificate is not yet valid'),
    );
    expect(checkOf(on('selfsigned.test'))).toEqual(
      broken('DEPTH_ZERO_SELF_SIGNED_CERT', 'The certificate is self-signed'),
    );
    expect(checkOf(on('wronghost.test'))).toEqual(
      broken('ERR_TLS_CERT_ALTNAME_INVALID', 'The certificate does not cover this host name'),
    );
    expect(checkOf(on('untrusted.test'))).toEqual(
      broken(
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        'The certificate is not signed by a trusted authority',
      ),
    );
    const invalid = (url: string) => ({
      url,
      state: 'broken',
      detail: FailureReason.InvalidCertificate,
      referenceCount: 1,
    });
    const ok = (url: string, referenceCount = 1) => ({
      url,
      state: 'ok',
      detail: 200,
      referenceCount,
    });
    expect(urlOutcomes(links)).toEqual(
      [
        invalid(on('expired.test')),
        invalid(on('expired.test', '/other.html')),
        invalid(on('future.test')),
        ok(on('private.test'), 2),
        ok(on('private.test', '/other.html')),
        invalid(on('selfsigned.test')),
        ok(on('soon.test')),
        invalid(on('untrusted.test')),
        invalid(on('wronghost.test')),
        ok(site.url('/more.html')),
      ].sort((a, b) => (a.url < b.url ? -1 : 1)),
    );
  });

  it('never sends an HTTP request to a host whose certificate is refused', async () => {
    const before = new Map(secureHosts.map((host) => [host, secure.get(host)!.requests.length]));
    await scanAll();
    const requested = (host: SecureHost) =>
      secure
        .get(host)!
        .requests.slice(before.get(host))
        .map((request) => `${request.method} ${request.path}`);
    for (const host of [
      'expired.test',
      'future.test',
      'selfsigned.test',
      'wronghost.test',
    ] as const)
      expect(requested(host), host).toEqual([]);
    expect(requested('untrusted.test')).toEqual([]);
    expect(requested('soon.test')).toEqual(['HEAD /page.html']);
    expect(requested('private.test').sort()).toEqual(['HEAD /other.html', 'HEAD /page.html']);
  });

  it('inspects the certificate of an https start page', async () => {
    const { events, done } = await collectScan(
      { url: on('soon.test'), scanDepth: 1 },
      { lookup, ca: privateCa.cert },
    );
    expect(done.status).toBe(ScanStatus.Complete);
    expect(eventsOfType(events, 'certificate')).toEqual(
      expectedCertificates().filter((event) => event.host === hostOf('soon.test')),
    );
    expect(done.summary.certificateProblems).toBe(1);
  });

  it('inspects no certificate when checkBrokenCertificate is off', async () => {
    const { events, links, done } = await scanAll(false);
    expect(eventsOfType(events, 'certificate')).toEqual([]);
    expect(done.summary.certificateProblems).toBe(0);
    expect(links.filter((link) => link.check.state !== 'ok')).toEqual([]);
  });
});

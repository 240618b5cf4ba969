import type { LookupFunction } from 'node:net';
import tls, { rootCertificates, type PeerCertificate } from 'node:tls';
import type { CertificateEvent } from '../events.js';
import {
  assertLiteralAllowed,
  guardLookup,
  portOf,
  type AddressPolicy,
} from '../fetch/address-policy.js';
import { errorMessage } from '../fetch/errors.js';

export interface CertificateInspectorOptions {
  lookup?: LookupFunction | undefined;
  addressPolicy?: AddressPolicy | undefined;
  ca?: string | string[] | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  now?: () => number;
  /** Addresses answered from a folder (file-site.ts): they have no certificate to inspect. */
  fromDisk?: ((url: URL) => boolean) | undefined;
}

const expiryWarningDays = 30;
const dayMs = 86_400_000;

const problems: Record<string, CertificateEvent['problem']> = {
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not-yet-valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrong-host',
};

/**
 * Looks at the certificate of every https host once per scan: who issued it, when it expires,
 * and precisely why it is not valid. Link checks fail on a bad certificate by themselves; this
 * adds the details and the warning for certificates that expire within 30 days.
 */
export class CertificateInspector {
  private readonly seen = new Map<string, Promise<void>>();
  private readonly extraCa: string[];

  constructor(
    private readonly options: CertificateInspectorOptions,
    private readonly report: (event: CertificateEvent) => void,
  ) {
    this.extraCa = options.ca === undefined ? [] : [options.ca].flat();
  }

  inspect(url: URL): void {
    if (url.protocol !== 'https:' || this.seen.has(url.host)) return;
    if (this.options.fromDisk?.(url)) return;
    try {
      assertLiteralAllowed(url.href, this.options.addressPolicy);
    } catch {
      return; // the link check reports the refusal
    }
    this.seen.set(
      url.host,
      this.connect(url).then(
        (event) => event && this.report(event),
        () => undefined,
      ),
    );
  }

  /** Resolves when every inspection started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.seen.values());
  }

  /** The policy's lookup for this URL's port (the policy may allow a host on one port only). */
  private lookupFor(url: URL): { lookup?: LookupFunction } {
    const lookup = guardLookup(this.options.addressPolicy, portOf(url), this.options.lookup);
    return lookup ? { lookup } : {};
  }

  private connect(url: URL): Promise<CertificateEvent | undefined> {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const isIp = /^[\d.]+$/.test(hostname) || hostname.includes(':');
    return new Promise((resolve) => {
      const socket = tls.connect({
        host: hostname,
        port: portOf(url),
        ...(isIp ? {} : { servername: hostname }),
        rejectUnauthorized: false,
        ...(this.extraCa.length > 0 ? { ca: [...rootCertificates, ...this.extraCa] } : {}),
        ...this.lookupFor(url),
        timeout: this.options.timeoutMs,
      });
      const onAbort = () => finish(undefined);
      const finish = (event: CertificateEvent | undefined) => {
        this.options.signal.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(event);
      };
      this.options.signal.addEventListener('abort', onAbort, { once: true });
      socket.once('secureConnect', () => finish(this.describe(url.host, hostname, socket)));
      socket.once('timeout', () => finish(undefined));
      // Connection failures (DNS, refused) are the link check's to report; a failed handshake is ours.
      socket.once('error', (error: Error) =>
        finish(isHandshakeError(error) ? handshakeFailure(url.host, error) : undefined),
      );
    });
  }

  private describe(host: string, hostname: string, socket: tls.TLSSocket): CertificateEvent {
    const certificate = socket.getPeerCertificate();
    const authorizationError = socket.authorizationError as unknown as Error | string | null;
    let code =
      typeof authorizationError === 'string'
        ? authorizationError
        : (authorizationError as { code?: string } | null)?.code;
    if (!code && certificate.subject) {
      code = (tls.checkServerIdentity(hostname, certificate) as { code?: string } | undefined)
        ?.code;
    }
    const validTo = Date.parse(certificate.valid_to);
    const daysLeft = Number.isNaN(validTo)
      ? undefined
      : Math.floor((validTo - (this.options.now?.() ?? Date.now())) / dayMs);
    const valid = !code;
    const expiresSoon = valid && daysLeft !== undefined && daysLeft < expiryWarningDays;
    return {
      type: 'certificate',
      host,
      valid,
      ...(code ? { problem: problems[code] ?? 'other', errorCode: code } : {}),
      message: certificateMessage(code, daysLeft, certificate),
      ...names(certificate),
      ...dates(certificate),
      ...(daysLeft !== undefined ? { daysLeft } : {}),
      expiresSoon,
    };
  }
}

function certificateMessage(
  code: string | undefined,
  daysLeft: number | undefined,
  certificate: PeerCertificate,
): string {
  if (code) return errorMessage({ code, message: code });
  if (daysLeft !== undefined && daysLeft < expiryWarningDays) {
    return `The certificate expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'} (${new Date(certificate.valid_to).toISOString().slice(0, 10)})`;
  }
  return 'The certificate is valid';
}

function names(certificate: PeerCertificate): Pick<CertificateEvent, 'subject' | 'issuer'> {
  const subject = certificate.subject?.CN ?? certificate.subject?.O;
  const issuer = certificate.issuer?.CN ?? certificate.issuer?.O;
  return {
    ...(subject ? { subject: String(subject) } : {}),
    ...(issuer ? { issuer: String(issuer) } : {}),
  };
}

function dates(certificate: PeerCertificate): Pick<CertificateEvent, 'validFrom' | 'validTo'> {
  const from = Date.parse(certificate.valid_from);
  const to = Date.parse(certificate.valid_to);
  return {
    ...(Number.isNaN(from) ? {} : { validFrom: new Date(from).toISOString() }),
    ...(Number.isNaN(to) ? {} : { validTo: new Date(to).toISOString() }),
  };
}

function isHandshakeError(error: Error): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'EPROTO';
}

function handshakeFailure(host: string, error: Error): CertificateEvent {
  const code = (error as { code?: string }).code;
  return {
    type: 'certificate',
    host,
    valid: false,
    problem: 'other',
    ...(code ? { errorCode: code } : {}),
    message: `The TLS handshake failed: ${error.message}`,
    expiresSoon: false,
  };
}

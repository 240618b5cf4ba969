import { generateKeyPairSync, randomBytes } from 'node:crypto';
import net from 'node:net';
import forge from 'node-forge';

/** A certificate and its private key, both PEM: what an HTTPS server needs. */
export interface TlsIdentity {
  cert: string;
  key: string;
}

/** A private certificate authority; pass `cert` to EngineOptions.ca to trust it. */
export interface CertificateAuthority extends TlsIdentity {
  commonName: string;
}

export interface CertificateOptions {
  /** DNS names and IP addresses the certificate is valid for; the first is also the common name. */
  names?: string[];
  /** Default: yesterday. */
  notBefore?: Date;
  /** Default: in a year. */
  notAfter?: Date;
}

const dayMs = 24 * 60 * 60 * 1000;
const defaultNames = ['localhost', '127.0.0.1'];

// One key pair per role for the whole process: node:crypto makes them natively in milliseconds
// (forge's pure-JS RSA takes seconds), and tests never care whose key a certificate carries.
let authorityKeys: forge.pki.rsa.KeyPair | undefined;
let leafKeys: forge.pki.rsa.KeyPair | undefined;

function keyPair(): forge.pki.rsa.KeyPair {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const forgePrivate = forge.pki.privateKeyFromPem(privateKey);
  return {
    privateKey: forgePrivate,
    publicKey: forge.pki.setRsaPublicKey(forgePrivate.n, forgePrivate.e),
  };
}

function keysFor(role: 'authority' | 'leaf'): forge.pki.rsa.KeyPair {
  if (role === 'authority') return (authorityKeys ??= keyPair());
  return (leafKeys ??= keyPair());
}

/** A self-signed CA certificate that can sign leaves. */
export function createCertificateAuthority(
  options: { commonName?: string; notBefore?: Date; notAfter?: Date } = {},
): CertificateAuthority {
  const commonName = options.commonName ?? 'LinkAudit Test CA';
  const keys = keysFor('authority');
  const cert = newCertificate(keys.publicKey, options);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    commonName,
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/** A server certificate for `names`, signed by `authority`. */
export function issueCertificate(
  authority: CertificateAuthority,
  options: CertificateOptions = {},
): TlsIdentity {
  const keys = keysFor('leaf');
  const cert = leafCertificate(keys, options);
  const issuerCert = forge.pki.certificateFromPem(authority.cert);
  cert.setIssuer(issuerCert.subject.attributes);
  cert.sign(forge.pki.privateKeyFromPem(authority.key), forge.md.sha256.create());
  return {
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/** A server certificate for `names` that signs itself (no authority vouches for it). */
export function selfSignedCertificate(options: CertificateOptions = {}): TlsIdentity {
  const keys = keysFor('leaf');
  const cert = leafCertificate(keys, options);
  cert.setIssuer(cert.subject.attributes);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    cert: forge.pki.certificateToPem(cert),
    key: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

export interface TestCertificates {
  authority: CertificateAuthority;
  /** Valid for `names` (default localhost and 127.0.0.1), signed by `authority`. */
  trusted: TlsIdentity;
  /** The same names, self-signed. */
  selfSigned: TlsIdentity;
}

const cache = new Map<string, TestCertificates>();

/** A CA, a leaf it signed and a self-signed leaf for `names`, made once per process and name list. */
export function testCertificates(names: string[] = defaultNames): TestCertificates {
  const cacheKey = names.join(',');
  let certificates = cache.get(cacheKey);
  if (!certificates) {
    const authority = sharedAuthority();
    certificates = {
      authority,
      trusted: issueCertificate(authority, { names }),
      selfSigned: selfSignedCertificate({ names }),
    };
    cache.set(cacheKey, certificates);
  }
  return certificates;
}

let authority: CertificateAuthority | undefined;
function sharedAuthority(): CertificateAuthority {
  return (authority ??= createCertificateAuthority());
}

function leafCertificate(
  keys: forge.pki.rsa.KeyPair,
  options: CertificateOptions,
): forge.pki.Certificate {
  const names = options.names ?? defaultNames;
  const cert = newCertificate(keys.publicKey, options);
  cert.setSubject([{ name: 'commonName', value: names[0] ?? 'localhost' }]);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: names.map((name) =>
        net.isIP(name) ? { type: 7, ip: name } : { type: 2, value: name },
      ),
    },
  ]);
  return cert;
}

function newCertificate(
  publicKey: forge.pki.rsa.PublicKey,
  options: { notBefore?: Date; notAfter?: Date },
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial number: a leading 0x01 byte keeps the top bit clear.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - dayMs);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 365 * dayMs);
  return cert;
}

/**
 * A date `days` (and `hours`) from now, cut to whole seconds as X.509 stores it, so a test can
 * compare a certificate's validFrom / validTo with what it asked for exactly.
 */
export function certificateDate(days: number, hours = 0): Date {
  const ms = Date.now() + days * dayMs + hours * 60 * 60 * 1000;
  return new Date(Math.floor(ms / 1000) * 1000);
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM over short secrets (scan credentials, issue 36): `v1.` then base64url of the
 * 12-byte nonce, the 16-byte tag and the ciphertext. A fresh random nonce per sealing; the tag
 * makes a changed or foreign envelope fail to open instead of giving garbage.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a scan secrets key is 32 bytes');
    this.#key = key;
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  open(envelope: string): string {
    if (!envelope.startsWith('v1.')) throw new Error('not a sealed secret');
    const bytes = Buffer.from(envelope.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** A 32-byte key written as 64 hex digits or base64 (SCAN_SECRETS_KEY); undefined when not one. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const decoded = Buffer.from(trimmed, 'base64');
  return decoded.length === 32 ? decoded : undefined;
}

/**
 * The configured SCAN_SECRETS_KEY, or one generated on first start and kept in DATA_DIR (mode
 * 0600), as the embedded server does with its JWT secret. Scaled deployments set the key so
 * every api and worker process opens what the others sealed.
 */
export function resolveSecretsKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = parseSecretsKey(configured);
    if (!key) throw new Error('SCAN_SECRETS_KEY is not 32 bytes in hex or base64');
    return key;
  }
  const file = path.join(dataDir, 'scan-secrets-key');
  const read = () => parseSecretsKey(readFileSync(file, 'utf8'));
  try {
    const key = read();
    if (key) return key;
    throw new Error(`${file} does not hold a 32-byte key`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    // "wx": when two processes start at once, the first one's key wins and both use it.
    writeFileSync(file, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = read();
    if (!written) throw new Error(`${file} does not hold a 32-byte key`, { cause: error });
    return written;
  }
}

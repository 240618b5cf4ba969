import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A code for a mailed link: 256 random bits, URL-safe. */
export function newCode(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored: the SHA-256 of the code (hex), so a leaked table opens no account. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Compares a presented code with a stored hash in constant time. */
export function codeMatches(code: string, storedHash: string): boolean {
  const presented = Buffer.from(hashCode(code), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

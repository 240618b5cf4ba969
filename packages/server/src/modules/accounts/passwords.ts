import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id, the library's default algorithm, with its default cost (19 MiB, 2 passes: OWASP's
 * minimum), run off the event loop. The PHC string records the parameters, so raising them later
 * keeps old hashes verifiable.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a password nobody has, verified when the user does not exist, so a sign-in takes
 * as long whether or not the address is registered.
 */
let decoyHash: Promise<string> | undefined;
export async function verifyDecoyPassword(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that no account ever has');
  await verifyPassword(await decoyHash, password);
  return false;
}

/**
 * Host names that never name a public site, refused by name before any lookup (issue 36): a
 * resolver that times out must not let them through to the connect-time check, and what they
 * resolve to on the server's own network is no business of a visitor's.
 *
 * - `localhost` and `*.localhost`: loopback (RFC 6761 §6.3).
 * - `*.local`: multicast DNS on the local link (RFC 6762).
 * - `*.home.arpa`: home networks (RFC 8375).
 * - `*.internal`: reserved by ICANN for private use (2024); `metadata.google.internal` is the
 *   cloud metadata service.
 * - `*.intranet`, `*.private`, `*.corp`, `*.home`, `*.lan`: the private names RFC 6762 Appendix G
 *   finds in use; none is delegated in the public DNS.
 * `example`, `test` and `invalid` (RFC 6761) are not here: they either resolve to public addresses
 * (example.com) or not at all, and tests name their sites with them.
 */
const specialUseSuffixes = [
  'localhost',
  'local',
  'home.arpa',
  'internal',
  'intranet',
  'private',
  'corp',
  'home',
  'lan',
] as const;

/** True when `hostname` (any case, with or without a final dot) is a special-use name. */
export function isSpecialUseName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return specialUseSuffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

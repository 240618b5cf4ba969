/**
 * Scan address validation and normalisation (SPEC §5, with the wider top-level-domain rule of
 * DESIGN §6). Pure functions: the web form, the API and the CLI all answer the same way.
 */

export type ScanUrlProblem =
  | 'empty'
  | 'inner-space'
  | 'too-long'
  | 'unsupported-scheme'
  | 'malformed'
  | 'credentials'
  | 'invalid-host'
  | 'private-host';

export type ScanUrlCheck = { ok: true; url: string } | { ok: false; problem: ScanUrlProblem };

export interface ScanUrlOptions {
  /** localhost and IP literals are scan targets only where private targets are allowed (CLI, tests). */
  allowPrivate?: boolean;
}

/** The longest scan address (SPEC leaves it open; real pages' addresses stay far below). */
export const maxScanUrlLength = 2000;

const schemePattern = /^([a-z][a-z0-9+.-]*):\/\//i;
const httpSchemePattern = /^https?:\/\//i;
/** After the scheme: an authority (no slash, query or fragment in it), then an optional path. */
const authorityThenPathPattern = /^[^/?#\\]+(?:[/?#].*)?$/;
const labelPattern = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const topLevelDomainPattern = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const ipv4Pattern = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Checks a typed address and returns its normalised form when it is a valid scan target. */
export function checkScanUrl(input: string, options: ScanUrlOptions = {}): ScanUrlCheck {
  const trimmed = input.trim();
  if (trimmed === '' || /^https?:\/\/$/i.test(trimmed)) return { ok: false, problem: 'empty' };
  if (/\s/.test(trimmed)) return { ok: false, problem: 'inner-space' };
  // Longer than the API takes (issue 37: the form let 5,000 characters through to a raw refusal).
  if (trimmed.length > maxScanUrlLength) return { ok: false, problem: 'too-long' };

  if (/^https?:(?!\/\/)/i.test(trimmed)) return { ok: false, problem: 'malformed' };
  const scheme = schemePattern.exec(trimmed)?.[1];
  if (scheme && !/^https?$/i.test(scheme)) return { ok: false, problem: 'unsupported-scheme' };
  const withScheme = scheme ? trimmed : `http://${trimmed}`;
  if (!authorityThenPathPattern.test(withScheme.replace(httpSchemePattern, ''))) {
    return { ok: false, problem: 'malformed' };
  }

  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (parsed.username || parsed.password) return { ok: false, problem: 'credentials' };

  const hostProblem = checkHost(parsed.hostname, options.allowPrivate ?? false);
  if (hostProblem) return { ok: false, problem: hostProblem };
  parsed.hash = '';
  return { ok: true, url: parsed.href };
}

/** True when the address can be scanned; the form's live validation uses this. */
export function isValidScanUrl(input: string, options: ScanUrlOptions = {}): boolean {
  return checkScanUrl(input, options).ok;
}

/**
 * The normalised address a scan starts from: scheme and host lower-cased, `http://` added when
 * missing, a trailing slash when there is no path. The path keeps its case because servers may
 * treat `/Docs` and `/docs` as different pages (decisions.md).
 */
export function normalizeScanUrl(input: string, options: ScanUrlOptions = {}): string {
  const check = checkScanUrl(input, options);
  if (!check.ok) throw new Error(`Not a valid scan address (${check.problem}): ${input}`);
  return check.url;
}

function checkHost(hostname: string, allowPrivate: boolean): ScanUrlProblem | undefined {
  const host = hostname.toLowerCase();
  const isIpLiteral = host.startsWith('[') || ipv4Pattern.test(host);
  if (isIpLiteral || host === 'localhost' || host.endsWith('.localhost')) {
    return allowPrivate ? undefined : 'private-host';
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length > 253) return 'invalid-host';
  const labels = name.split('.');
  if (labels.length < 2) return 'invalid-host';
  if (!labels.every((label) => labelPattern.test(label))) return 'invalid-host';
  const topLevelDomain = labels[labels.length - 1] ?? '';
  return topLevelDomainPattern.test(topLevelDomain) ? undefined : 'invalid-host';
}

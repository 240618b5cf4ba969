import type { LinkCheck, RedirectHop } from '../events.js';

/**
 * What a scan keeps of every URL to its end, kept small (issue 34: a million pages held ~1 KB
 * each). Values that repeat across URLs — host names, content types — are kept once, an empty
 * list is one shared list, and a final address equal to the address is the same string: each
 * copy was tens of bytes per URL, a few hundred MB over a million pages.
 */

/** A string seen again is the first copy; at most `capacity` distinct ones are remembered. */
export class Interner {
  private readonly known = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  intern(value: string): string {
    const known = this.known.get(value);
    if (known !== undefined) return known;
    // A hostile site could send endless distinct values: past the capacity they stay copies.
    if (this.known.size < this.capacity) this.known.set(value, value);
    return value;
  }
}

/** The redirects of every check that had none (never written to: frozen). */
const noRedirects: RedirectHop[] = Object.freeze([]) as unknown as RedirectHop[];
/** The robots meta values of every page that has none. */
export const noStrings: string[] = Object.freeze([]) as unknown as string[];

/** `check` as a target keeps it: shared strings and lists where it has its own copies. */
export function compactCheck(check: LinkCheck, url: string, strings: Interner): LinkCheck {
  if (check.state === 'skipped') return check;
  const redirects = check.redirects.length === 0 ? noRedirects : check.redirects;
  if (check.state !== 'ok') return redirects === check.redirects ? check : { ...check, redirects };
  return {
    ...check,
    finalUrl: check.finalUrl === url ? url : check.finalUrl,
    redirects,
    ...(check.contentType !== undefined ? { contentType: strings.intern(check.contentType) } : {}),
  };
}

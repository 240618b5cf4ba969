/**
 * The exclusion list rules of SPEC §5, as pure functions the editor and its unit test share.
 * Messages are i18n keys under `scan.exclude.`.
 */
export type ExcludeLinkProblem = 'empty' | 'scheme' | 'duplicate' | 'wholeSite';

export function excludeLinkProblem(
  link: string,
  others: readonly string[],
  caseSensitive = false,
  scanUrl = '',
): ExcludeLinkProblem | undefined {
  const value = link.trim();
  if (value === '' || /^https?:\/\/$/i.test(value)) return 'empty';
  if (!/^https?:\/\//i.test(value)) return 'scheme';
  const fold = (text: string) => (caseSensitive ? text.trim() : text.trim().toLowerCase());
  const folded = fold(value);
  if (others.some((other) => other.trim() !== '' && folded.startsWith(fold(other)))) {
    return 'duplicate';
  }
  // A prefix of the scanned address excludes the start page, and so the whole scan (issue 37:
  // a new entry begins as the site's root, SPEC §5, and left so it excluded everything).
  const start = startAddress(scanUrl);
  if (start !== undefined && fold(start).startsWith(folded)) return 'wholeSite';
  return undefined;
}

function startAddress(scanUrl: string): string | undefined {
  if (scanUrl.trim() === '') return undefined;
  try {
    return new URL(/^https?:\/\//i.test(scanUrl) ? scanUrl : `http://${scanUrl}`).href;
  } catch {
    return undefined;
  }
}

/** A new entry begins as the scanned site's address ({scheme}://{host}/). */
export function newExcludeLink(scanUrl: string): string {
  try {
    const url = new URL(/^https?:\/\//i.test(scanUrl) ? scanUrl : `http://${scanUrl}`);
    return `${url.protocol}//${url.host}/`;
  } catch {
    return 'http://';
  }
}

/** Every entry's problem, by index; an empty array when the list can be submitted. */
export function excludeListProblems(
  links: readonly string[],
  caseSensitive = false,
  scanUrl = '',
): Array<ExcludeLinkProblem | undefined> {
  const problems = links.map((link, index) =>
    excludeLinkProblem(
      link,
      links.filter((_, other) => other !== index),
      caseSensitive,
      scanUrl,
    ),
  );
  return problems.some(Boolean) ? problems : [];
}

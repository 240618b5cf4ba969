/**
 * The exclusion list rules of SPEC §5, as pure functions the editor and its unit test share.
 * Messages are i18n keys under `scan.exclude.`.
 */
export type ExcludeLinkProblem = 'empty' | 'scheme' | 'duplicate';

export function excludeLinkProblem(
  link: string,
  others: readonly string[],
  caseSensitive = false,
): ExcludeLinkProblem | undefined {
  const value = link.trim();
  if (value === '' || /^https?:\/\/$/i.test(value)) return 'empty';
  if (!/^https?:\/\//i.test(value)) return 'scheme';
  const fold = (text: string) => (caseSensitive ? text.trim() : text.trim().toLowerCase());
  const folded = fold(value);
  if (others.some((other) => other.trim() !== '' && folded.startsWith(fold(other)))) {
    return 'duplicate';
  }
  return undefined;
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
): Array<ExcludeLinkProblem | undefined> {
  const problems = links.map((link, index) =>
    excludeLinkProblem(
      link,
      links.filter((_, other) => other !== index),
      caseSensitive,
    ),
  );
  return problems.some(Boolean) ? problems : [];
}

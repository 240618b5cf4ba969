import type { ExcludeLinkItem } from '@linkaudit/core';
import { foldCase } from './fold-case.js';

/** A compiled exclusion list: a URL matching any entry is neither checked nor crawled. */
export interface ExclusionMatcher {
  matches(url: string): boolean;
  /** Whether there is any exclusion at all (none: callers may skip asking). */
  readonly any: boolean;
}

/**
 * Entries are URL prefixes, `regex:<pattern>` regular expressions, or file types (`*.pdf`,
 * `.pdf`). Prefixes and file types ignore case unless the scan is case-sensitive; a regular
 * expression ignores case the same way. An invalid pattern is an error the caller reports.
 */
export function compileExclusions(
  items: ReadonlyArray<Pick<ExcludeLinkItem, 'link'>>,
  caseSensitive: boolean,
): ExclusionMatcher {
  const flags = caseSensitive ? '' : 'i';
  const fold = (text: string) => (caseSensitive ? text : foldCase(text));
  const prefixes: string[] = [];
  const patterns: RegExp[] = [];
  const extensions = new Set<string>();

  for (const item of items) {
    const entry = item.link.trim();
    if (!entry) continue;
    if (entry.toLowerCase().startsWith('regex:')) {
      patterns.push(new RegExp(entry.slice('regex:'.length), flags));
    } else if (/^\*?\.[\w-]+$/.test(entry)) {
      extensions.add(fold(entry.replace(/^\*/, '')));
    } else {
      prefixes.push(fold(entry));
    }
  }

  if (prefixes.length === 0 && patterns.length === 0 && extensions.size === 0) {
    return { matches: () => false, any: false };
  }
  return {
    any: true,
    matches(url: string): boolean {
      const folded = fold(url);
      if (prefixes.some((prefix) => folded.startsWith(prefix))) return true;
      if (extensions.size > 0 && extensions.has(extensionOf(folded))) return true;
      return patterns.some((pattern) => pattern.test(url));
    },
  };
}

/** Validates exclusion entries; returns a message per invalid one. */
export function exclusionProblems(items: ReadonlyArray<Pick<ExcludeLinkItem, 'link'>>): string[] {
  const problems: string[] = [];
  for (const item of items) {
    const entry = item.link.trim();
    if (!entry.toLowerCase().startsWith('regex:')) continue;
    try {
      new RegExp(entry.slice('regex:'.length));
    } catch (error) {
      problems.push(
        `Invalid regular expression in exclusion "${entry}": ${(error as Error).message}`,
      );
    }
  }
  return problems;
}

function extensionOf(url: string): string {
  const path = url.replace(/[?#].*$/, '');
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  return dot > 0 ? lastSegment.slice(dot) : '';
}

import type { SuggestionBasis } from '@linkaudit/core';
import {
  clearWinner,
  editSimilarity,
  roundedConfidence,
  wordOverlap,
  words,
} from './similarity.js';

/** A page the crawl read: where it is and its title. */
export interface KnownPage {
  url: string;
  title?: string;
}

export interface PageGuess {
  url: string;
  confidence: number;
  basis: Extract<SuggestionBasis, 'path' | 'file-name' | 'title'>;
}

/** The same file name in another folder is strong evidence, not proof (index.html is common). */
const sameFileNameScore = 0.9;

/**
 * The page of the site a broken internal link most likely meant: by path likeness, the same file
 * name elsewhere, or a title matching the link's text. Only a clear winner is offered.
 */
export function closestPage(
  brokenUrl: string,
  linkText: string | undefined,
  pages: readonly KnownPage[],
): PageGuess | undefined {
  const broken = new URL(brokenUrl);
  const brokenPath = broken.pathname.toLowerCase();
  const brokenFile = fileName(brokenPath);
  const textWords = words(linkText ?? '');
  const scored = pages
    .filter((page) => sameOrigin(page.url, broken) && page.url !== brokenUrl)
    .map((page) => {
      const { score, basis } = scorePage(page, brokenPath, brokenFile, textWords);
      return { item: { url: page.url, basis }, score };
    });
  const winner = clearWinner(scored);
  if (!winner) return undefined;
  return {
    url: winner.item.url,
    confidence: roundedConfidence(winner.score),
    basis: winner.item.basis,
  };
}

function scorePage(
  page: KnownPage,
  brokenPath: string,
  brokenFile: string,
  textWords: string[],
): { score: number; basis: PageGuess['basis'] } {
  const path = new URL(page.url).pathname.toLowerCase();
  const candidates: Array<{ score: number; basis: PageGuess['basis'] }> = [
    { score: editSimilarity(brokenPath, path), basis: 'path' },
    {
      score: brokenFile !== '' && fileName(path) === brokenFile ? sameFileNameScore : 0,
      basis: 'file-name',
    },
    { score: wordOverlap(textWords, words(page.title ?? '')), basis: 'title' },
  ];
  return candidates.reduce((best, next) => (next.score > best.score ? next : best));
}

/** The last path segment, unless it is a folder or a generic index page. */
function fileName(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /^(index|default)\.\w+$/.test(last) ? '' : last;
}

function sameOrigin(url: string, broken: URL): boolean {
  try {
    return new URL(url).host === broken.host;
  } catch {
    return false;
  }
}

import type { SuggestionBasis } from '@linkaudit/core';
import {
  clearWinner,
  editSimilarity,
  minimumLead,
  minimumScore,
  roundedConfidence,
  wordOverlap,
  words,
} from './similarity.js';

export interface PageGuess {
  url: string;
  confidence: number;
  basis: Extract<SuggestionBasis, 'path' | 'file-name' | 'title'>;
}

/** The same file name in another folder is strong evidence, not proof (index.html is common). */
const sameFileNameScore = 0.9;
/** Pages next to the broken address in path order, each side: where typos and renumbering land. */
const pathNeighbours = 8;
/**
 * Pages whose title could matter to one link text, at most. Past it the text's words are common
 * on the site, many titles are about as close, and no title can be sure to win: no guess.
 */
const maxTitleCandidates = 256;
/** A page scoring below this can neither win nor stand close enough to the winner to stop it. */
const relevantScore = minimumScore - minimumLead;
/** A file name shared by two pages or more: each would score `sameFileNameScore`, none can win. */
const shared = -1;

/** One host's pages in path order, and its file names, built once the crawl is over. */
interface HostPages {
  /** Its number in `PageIndex.hostOf`. */
  number: number;
  /** Page ids sorted by lower-case path. */
  ids: Int32Array;
  /** File name (of a broken address) → the one page that has it, or `shared`. */
  fileNames: Map<string, number>;
}

/**
 * The pages of a site as the closest-page guess (issue 27) looks them up (issue 34): a broken
 * internal link is compared with a bounded list of candidates — its neighbours in path order,
 * the page with the same file name, the pages whose title shares the rarest words of the link's
 * text — never with every page, so the guesses cost O(pages · log + broken links) whatever the
 * site's size. Only a clear winner is offered, as before.
 */
export class PageIndex {
  private readonly urls: string[] = [];
  private readonly titles: Array<string | undefined> = [];
  private hosts: Map<string, HostPages> | undefined;
  /** By page id, once built: the lower-case path and the host's number. */
  private pathOf: string[] = [];
  private hostOf = new Int32Array(0);
  private titleWords = new Map<string, number[] | 'common'>();
  /** The file names of the broken addresses: only those are looked for among the pages. */
  private wantedFiles = new Set<string>();
  /** Pages compared with a broken address so far: the work the guesses cost. */
  scored = 0;

  /** A page the crawl read (2xx); a page seen twice counts once (see hostPages). */
  add(url: string, title: string | undefined): void {
    this.urls.push(url);
    this.titles.push(title);
    this.hosts = undefined;
  }

  /** Pages added (a page reported twice counts twice here). */
  get size(): number {
    return this.urls.length;
  }

  /** Lets go of every page once the guesses are made: the analysis after them needs the room. */
  clear(): void {
    this.urls.length = 0;
    this.titles.length = 0;
    this.hosts = undefined;
    this.pathOf = [];
    this.hostOf = new Int32Array(0);
    this.titleWords = new Map();
    this.wantedFiles = new Set();
  }

  /**
   * What the guesses will look for, told once before them: the broken addresses (their file
   * names are looked for among the pages, no table of every page's) and the link texts (their
   * words among the titles, in one pass keeping only those; a word on more pages than
   * `maxTitleCandidates` is common).
   */
  prepare(brokenUrls: Iterable<string>, linkTexts: Iterable<string>): void {
    this.wantedFiles = new Set();
    for (const url of brokenUrls) {
      const file = fileName(parsed(url)?.pathname.toLowerCase() ?? '');
      if (file !== '') this.wantedFiles.add(file);
    }
    this.hosts = undefined;
    const wanted = new Set<string>();
    for (const text of linkTexts) for (const word of words(text)) wanted.add(word);
    this.titleWords = new Map();
    if (wanted.size === 0) return;
    this.titles.forEach((title, id) => {
      if (!title) return;
      for (const word of new Set(words(title))) {
        if (!wanted.has(word)) continue;
        const pages = this.titleWords.get(word) ?? [];
        if (pages === 'common') continue;
        pages.push(id);
        this.titleWords.set(word, pages.length > maxTitleCandidates ? 'common' : pages);
      }
    });
  }

  /**
   * The page a broken internal link most likely meant: by path likeness, the same file name
   * elsewhere, or a title matching the link's text. Only a clear winner is offered.
   */
  closest(brokenUrl: string, linkText: string | undefined): PageGuess | undefined {
    const broken = parsed(brokenUrl);
    const host = broken && this.hostPages().get(broken.host);
    if (!broken || !host) return undefined;
    const brokenPath = broken.pathname.toLowerCase();
    const brokenFile = fileName(brokenPath);
    const textWords = words(linkText ?? '');
    const candidates = this.candidates(host, brokenPath, brokenFile, textWords);
    if (!candidates) return undefined;
    const scored = [];
    for (const id of candidates) {
      const url = this.urls[id]!;
      if (url === brokenUrl || this.hostOf[id] !== host.number) continue;
      const { score, basis } = this.scorePage(id, brokenPath, brokenFile, textWords);
      if (score >= relevantScore) scored.push({ item: { url, basis }, score });
    }
    this.scored += candidates.size;
    const winner = clearWinner(scored);
    if (!winner) return undefined;
    return {
      url: winner.item.url,
      confidence: roundedConfidence(winner.score),
      basis: winner.item.basis,
    };
  }

  /** The pages worth scoring, or undefined when none can clearly win. */
  private candidates(
    host: HostPages,
    brokenPath: string,
    brokenFile: string,
    textWords: string[],
  ): Set<number> | undefined {
    const candidates = new Set<number>();
    if (brokenFile !== '') {
      const page = host.fileNames.get(brokenFile);
      if (page === shared) return undefined;
      if (page !== undefined) candidates.add(page);
    }
    const at = lowerBound(host.ids, this.pathOf, brokenPath);
    const from = Math.max(0, at - pathNeighbours);
    const to = Math.min(host.ids.length, at + pathNeighbours);
    for (let index = from; index < to; index++) candidates.add(host.ids[index]!);
    const titled = this.titleCandidates(textWords);
    if (!titled) return undefined;
    for (const id of titled) candidates.add(id);
    return candidates;
  }

  /**
   * Pages whose title shares enough of the text's words to score `relevantScore`: such a title
   * holds at least one of the text's rarest words (all but the fewest it must share), so only
   * those words' pages are read. Undefined when they are too many to tell a winner.
   */
  private titleCandidates(textWords: string[]): number[] | undefined {
    const unique = [...new Set(textWords)];
    if (unique.length === 0) return [];
    const mustShare = Math.ceil(relevantScore * unique.length);
    const postings = unique.map((word) => this.titleWords.get(word) ?? []);
    const sizes = postings.map((pages) => (pages === 'common' ? Infinity : pages.length));
    const rarest = postings
      .map((pages, index) => ({ pages, size: sizes[index]! }))
      .sort((a, b) => a.size - b.size)
      .slice(0, unique.length - mustShare + 1);
    const pages: number[] = [];
    for (const { pages: posting } of rarest) {
      if (posting === 'common') return undefined;
      pages.push(...posting);
      if (pages.length > maxTitleCandidates) return undefined;
    }
    return pages;
  }

  private scorePage(
    id: number,
    brokenPath: string,
    brokenFile: string,
    textWords: string[],
  ): { score: number; basis: PageGuess['basis'] } {
    const path = this.pathOf[id] ?? '';
    const candidates: Array<{ score: number; basis: PageGuess['basis'] }> = [
      { score: editSimilarity(brokenPath, path), basis: 'path' },
      {
        score: brokenFile !== '' && fileName(path) === brokenFile ? sameFileNameScore : 0,
        basis: 'file-name',
      },
      { score: wordOverlap(textWords, words(this.titles[id] ?? '')), basis: 'title' },
    ];
    return candidates.reduce((best, next) => (next.score > best.score ? next : best));
  }

  /**
   * Pages grouped by host, in path order: one sort of page ids, on the first guess after pages
   * were added; the file names kept are those of the broken addresses only.
   */
  private hostPages(): Map<string, HostPages> {
    if (this.hosts) return this.hosts;
    const byHost = new Map<string, number[]>();
    const pathOf = (this.pathOf = new Array<string>(this.urls.length));
    this.hostOf = new Int32Array(this.urls.length).fill(-1);
    this.urls.forEach((url, id) => {
      const page = parsed(url);
      if (!page) return;
      pathOf[id] = page.pathname.toLowerCase();
      const ids = byHost.get(page.host) ?? [];
      if (ids.length === 0) byHost.set(page.host, ids);
      ids.push(id);
    });
    this.hosts = new Map();
    for (const [host, ids] of byHost) {
      const number = this.hosts.size;
      // By path, then address: a page reported twice sorts next to itself and is kept once.
      const inOrder = Int32Array.from(ids).sort(
        (a, b) => compare(pathOf[a]!, pathOf[b]!) || compare(this.urls[a]!, this.urls[b]!),
      );
      const sorted = inOrder.filter(
        (id, index) => index === 0 || this.urls[id] !== this.urls[inOrder[index - 1]!],
      );
      const fileNames = new Map<string, number>();
      for (const id of sorted) {
        this.hostOf[id] = number;
        const file = fileName(pathOf[id]!);
        if (this.wantedFiles.has(file)) fileNames.set(file, fileNames.has(file) ? shared : id);
      }
      this.hosts.set(host, { number, ids: sorted, fileNames });
    }
    return this.hosts;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index of `ids` whose page's path is not below `path` (binary search). */
function lowerBound(ids: Int32Array, pathOf: readonly string[], path: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pathOf[ids[middle]!]! < path) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The last path segment, unless it is a folder or a generic index page. */
function fileName(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return /^(index|default)\.\w+$/.test(last) ? '' : last;
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

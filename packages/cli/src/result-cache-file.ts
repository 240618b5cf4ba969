import { readFile, rename, writeFile } from 'node:fs/promises';
import type { CachedResult, LinkCheck, ResultCache } from '@linkaudit/engine';
import { UsageError } from './options.js';

/**
 * --cache FILE (issue 38): external links' results kept between runs, each with the time it was
 * checked; one younger than --cache-max-age answers its URL without a request, so a CI run asks
 * only what is new or stale. What is worth keeping is the engine's choice (a working link, a
 * definite 4xx; never a time-out or a 5xx). A result taken from the file says so in its message.
 */
interface CacheFileContents {
  tool: 'linkaudit';
  cacheVersion: 1;
  /** By URL: when it was checked (ms since 1970) and what it answered. */
  results: Record<string, CachedResult & { checkedAt: number }>;
}

export class ResultCacheFile implements ResultCache {
  /** Results answered from the file, and results fetched and kept, this run. */
  hits = 0;
  kept = 0;

  private constructor(
    private readonly file: string,
    private readonly maxAgeMs: number,
    private readonly results: Map<string, CachedResult & { checkedAt: number }>,
    private readonly now: () => number,
  ) {}

  /** The file's results (none when it does not exist yet); a usage error when it is no cache. */
  static async open(file: string, maxAgeMs: number, now = Date.now): Promise<ResultCacheFile> {
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new UsageError(`cannot read the cache ${file}: ${(error as Error).message}`);
    }
    const results = new Map<string, CachedResult & { checkedAt: number }>();
    if (text !== undefined) {
      // Refused rather than overwritten: --cache given the wrong file must not destroy it.
      const contents = parseCache(text);
      if (!contents) throw new UsageError(`${file} is not a linkaudit cache file`);
      for (const [url, result] of Object.entries(contents.results)) results.set(url, result);
    }
    return new ResultCacheFile(file, maxAgeMs, results, now);
  }

  get(url: string): CachedResult | undefined {
    const result = this.results.get(url);
    if (!result || this.now() - result.checkedAt > this.maxAgeMs) return undefined;
    this.hits++;
    return { check: cachedCheck(result.check, result.checkedAt), ...pickAnchors(result) };
  }

  set(url: string, result: CachedResult): void {
    this.kept++;
    this.results.set(url, { ...result, checkedAt: this.now() });
  }

  /** Writes the fresh results (a stale one would never answer again), atomically. */
  async save(): Promise<void> {
    const now = this.now();
    const results: CacheFileContents['results'] = {};
    for (const [url, result] of [...this.results].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (now - result.checkedAt <= this.maxAgeMs) results[url] = result;
    }
    const contents: CacheFileContents = { tool: 'linkaudit', cacheVersion: 1, results };
    const partial = `${this.file}.${process.pid}.tmp`;
    try {
      await writeFile(partial, `${JSON.stringify(contents)}\n`);
      await rename(partial, this.file);
    } catch (error) {
      throw new Error(`cannot write the cache ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

function parseCache(text: string): CacheFileContents | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<CacheFileContents> | null;
    if (parsed?.tool !== 'linkaudit' || parsed.cacheVersion !== 1) return undefined;
    if (typeof parsed.results !== 'object' || parsed.results === null) return undefined;
    return parsed as CacheFileContents;
  } catch {
    return undefined;
  }
}

function pickAnchors(result: CachedResult): Pick<CachedResult, 'anchors'> {
  return result.anchors ? { anchors: result.anchors } : {};
}

/** A kept check as reports show it: its message says it is from the cache, and since when. */
function cachedCheck(check: LinkCheck, checkedAt: number): LinkCheck {
  if (check.state !== 'broken' && check.state !== 'unverified') return check;
  const when = new Date(checkedAt).toISOString().replace(/\.\d+Z$/, 'Z');
  return { ...check, message: `${check.message} (cached result, checked ${when})` };
}

/** An answer handed to the browser. */
export interface FetchedResource {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Answer = FetchedResource | 'failed';

/** Kinds of request whose answers stay the same from page to page of a site. */
const cacheableTypes = new Set(['script', 'stylesheet', 'font', 'image']);
const maxEntryBytes = 2 * 1024 * 1024;

/**
 * The answers to a scan's rendered pages' scripts, stylesheets, fonts and images, shared by all
 * its pages: a site's bundle is fetched once, not once a page (the browser's own cache is off
 * while requests are intercepted). Bounded in bytes, oldest dropped first; fetches of the same
 * address under way at once are one fetch.
 */
export class ResourceCache {
  private readonly entries = new Map<string, Promise<Answer>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(url: string, resourceType: string, fetch: () => Promise<Answer>): Promise<Answer> {
    if (!cacheableTypes.has(resourceType)) return fetch();
    const known = this.entries.get(url);
    if (known) {
      // (Map order is age: the one used now goes to the back.)
      this.entries.delete(url);
      this.entries.set(url, known);
      return known;
    }
    const answer = fetch();
    this.entries.set(url, answer);
    void answer.then((result) => this.keep(url, result));
    return answer;
  }

  private keep(url: string, answer: Answer): void {
    const size = answer === 'failed' ? 0 : answer.body.length;
    if (answer === 'failed' || size > maxEntryBytes) {
      this.entries.delete(url);
      return;
    }
    this.sizes.set(url, size);
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= this.sizes.get(oldest) ?? 0;
      this.sizes.delete(oldest);
    }
  }
}

import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { LineIndex } from '../extract/line-index.js';
import { decompress } from '../fetch/decode.js';
import { closeBody, type HttpClient } from '../fetch/http-client.js';

export interface SitemapContents {
  /** Sitemap files read (indexes followed). */
  sitemaps: string[];
  /** Page addresses listed, in order, without duplicates. */
  urls: string[];
  /** Each of `urls` where it is first listed: the sitemap file and its `<loc>`'s position. */
  entries: SitemapEntry[];
  /** The sitemaps each sitemap index lists, at their `<loc>` (a missing one is a broken link). */
  indexEntries: SitemapEntry[];
}

export interface SitemapEntry {
  url: string;
  sitemap: string;
  line: number;
  column: number;
}

export interface SitemapLimits {
  maxFiles: number;
  maxUrls: number;
  maxBytesPerFile: number;
}

const defaultLimits: SitemapLimits = {
  maxFiles: 50,
  maxUrls: 50_000,
  maxBytesPerFile: 50 * 1024 * 1024,
};

/**
 * Reads the site's sitemaps: the ones robots.txt names, else /sitemap.xml. Sitemap indexes are
 * followed; gzip files are read; a missing or broken sitemap just lists nothing.
 */
export async function readSitemaps(
  client: HttpClient,
  origin: string,
  fromRobots: string[],
  limits: SitemapLimits = defaultLimits,
): Promise<SitemapContents> {
  const queue = fromRobots.length > 0 ? [...fromRobots] : [`${origin}/sitemap.xml`];
  const read = new Set<string>();
  const urls = new Set<string>();
  const entries: SitemapEntry[] = [];
  const indexEntries: SitemapEntry[] = [];
  while (queue.length > 0 && read.size < limits.maxFiles && urls.size < limits.maxUrls) {
    const sitemapUrl = queue.shift() ?? '';
    if (read.has(sitemapUrl)) continue;
    const parsed = await fetchSitemap(client, sitemapUrl, limits.maxBytesPerFile);
    if (!parsed) continue;
    read.add(sitemapUrl);
    parsed.locations.forEach((location, index) => {
      const { line, column } = parsed.positions[index]!;
      const entry = { url: location, sitemap: sitemapUrl, line, column };
      if (parsed.isIndex) {
        queue.push(location);
        indexEntries.push(entry);
      } else if (urls.size < limits.maxUrls && !urls.has(location)) {
        urls.add(location);
        entries.push(entry);
      }
    });
  }
  return { sitemaps: [...read], urls: [...urls], entries, indexEntries };
}

async function fetchSitemap(
  client: HttpClient,
  url: string,
  maxBytes: number,
): Promise<ParsedSitemap | undefined> {
  try {
    const result = await client.follow(url, 'GET');
    if (!result.ok) return undefined;
    const { response } = result;
    if (response.statusCode >= 400) {
      closeBody(response.body);
      return undefined;
    }
    const encoding = response.headers['content-encoding'];
    let body = decompress(response.body, Array.isArray(encoding) ? encoding[0] : encoding);
    const type = String(response.headers['content-type'] ?? '');
    if (/\.gz$/i.test(new URL(url).pathname) || /gzip/i.test(type)) {
      body = await gunzipIfCompressed(body, maxBytes);
    }
    return await parseSitemap(body, maxBytes);
  } catch {
    return undefined;
  }
}

/**
 * A `.gz` sitemap: read it whole (it is bounded) and gunzip it when it starts with gzip's magic
 * bytes; some servers already decompress it on the way.
 */
async function gunzipIfCompressed(body: Readable, maxBytes: number): Promise<Readable> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= maxBytes) break;
  }
  closeBody(body);
  const bytes = Buffer.concat(chunks);
  const isGzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return Readable.from([isGzip ? gunzipSync(bytes, { maxOutputLength: maxBytes }) : bytes]);
}

interface ParsedSitemap {
  isIndex: boolean;
  locations: string[];
  /** Where each location's `<loc>` starts (1-based line and column). */
  positions: { line: number; column: number }[];
}

/** The `<loc>` values of a sitemap or sitemap index, read as a stream, with their positions. */
export async function parseSitemap(body: Readable, maxBytes: number): Promise<ParsedSitemap> {
  const locations: string[] = [];
  const positions: { line: number; column: number }[] = [];
  const lines = new LineIndex();
  let isIndex = false;
  let text: string | undefined;
  let locStart = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.toLowerCase().replace(/^.*:/, '');
        if (local === 'sitemapindex') isIndex = true;
        if (local === 'loc') {
          text = '';
          locStart = parser.startIndex;
        }
      },
      ontext(data) {
        if (text !== undefined) text += data;
      },
      onclosetag(name) {
        if (name.toLowerCase().replace(/^.*:/, '') === 'loc' && text !== undefined) {
          const location = text.trim();
          // An entry that is not an address (`http://[oops`) is no page of the site.
          if (/^https?:\/\//i.test(location) && URL.canParse(location)) {
            locations.push(location);
            positions.push(lines.position(locStart));
          }
          text = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      const chunkText = buffer.toString('utf8');
      lines.add(chunkText);
      parser.write(chunkText);
      if (size >= maxBytes) break;
    }
  } finally {
    closeBody(body);
  }
  parser.end();
  return { isIndex, locations, positions };
}

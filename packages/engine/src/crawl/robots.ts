import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { closeBody, type HttpClient } from '../fetch/http-client.js';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Set when nothing is disallowed: callers may skip asking (and building the URL to ask). */
  allowsAll?: true;
  /** Sitemap addresses the file names (page inclusion reads them). */
  sitemaps: string[];
  /** Each `Sitemap:` line's address as written, where it stands in the file (link sources). */
  sitemapLines: SitemapLine[];
}

export interface SitemapLine {
  url: string;
  line: number;
  column: number;
}

interface RobotsFile {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS with broken typings (an ambient shorthand module); load it as it is.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  contents: string,
) => RobotsFile;

/** Rules that allow everything: no robots.txt read, or none to be had. */
export const allowAllRobots: RobotsRules = {
  isAllowed: () => true,
  allowsAll: true,
  sitemaps: [],
  sitemapLines: [],
};
const maxRobotsBytes = 512 * 1024;

/**
 * The start origin's robots.txt, read once. A missing or broken file allows everything, as
 * crawlers agree; we obey the "LinkAudit" group, else "*".
 */
export async function loadRobots(client: HttpClient, origin: string): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const result = await client.follow(robotsUrl, 'GET');
    if (!result.ok) return allowAllRobots;
    const { response } = result;
    if (response.statusCode >= 400) {
      closeBody(response.body);
      return allowAllRobots;
    }
    const text = await readText(response.body, maxRobotsBytes);
    const robots = robotsParser(robotsUrl, text);
    return {
      isAllowed: (url) => robots.isAllowed(url, 'LinkAudit') !== false,
      sitemaps: robots.getSitemaps(),
      sitemapLines: sitemapLinesOf(text),
    };
  } catch {
    return allowAllRobots;
  }
}

/** The `Sitemap:` lines of a robots.txt (any case, any group): each address and its position. */
export function sitemapLinesOf(text: string): SitemapLine[] {
  const found: SitemapLine[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const match = /^(\s*sitemap\s*:\s*)([^\s#]+)/i.exec(line);
    if (match) found.push({ url: match[2]!, line: index + 1, column: match[1]!.length + 1 });
  });
  return found;
}

async function readText(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size >= limit) break;
  }
  closeBody(body);
  return Buffer.concat(chunks).toString('utf8');
}

// A real documentation site checked as a folder (issue 38) must give what the same files give
// when served: Debian's doc slices of the corpus, scanned by the CLI once through nginx-like
// serving on 127.0.0.1 and once from disk, with the same options. Every broken link (with its
// sources, lines and columns), broken fragment and page must be the same, the addresses of the
// served site read as the folder's file paths.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { main } from '@linkaudit/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteNamed } from './sites.mjs';
import { answerFor, serveSite, SiteFiles, type ServedSite } from './static-site.mjs';

interface Source {
  url: string;
  line: number;
  column: number;
  element: string;
  attribute: string;
}
interface Report {
  broken: Array<{ url: string; reason: string; sources: Source[] }>;
  anchors: { broken: Array<{ url: string; sources: Source[] }> };
}

async function scan(target: string | string[], exclude: string): Promise<Report> {
  const chunks: string[] = [];
  const stream = {
    write(chunk: string, callback?: (error?: Error | null) => void) {
      chunks.push(chunk);
      callback?.();
      return true;
    },
  };
  const code = await main(
    // (The network is closed: links to other hosts are excluded in both scans.)
    [
      'scan',
      ...[target].flat(),
      '--anchors',
      '--case-sensitive',
      '--exclude',
      exclude,
      '-f',
      'json',
      '-q',
    ],
    { stdout: stream, stderr: stream, env: {} },
  );
  expect(code, chunks.join('')).toBeLessThan(2);
  return JSON.parse(chunks.join('')) as Report;
}

/** The problems of a report, every address passed through `shown`, in a stable order. */
function problems(report: Report, shown: (url: string) => string) {
  // (A server answers one file at two addresses, "x/" and "x/index.html", and a crawl reads it
  // twice; from disk it is read once: the same file's links count once.)
  const sources = (list: Source[]) =>
    [
      ...new Set(
        list.map((s) => `${shown(s.url)}:${s.line}:${s.column} ${s.element} ${s.attribute}`),
      ),
    ].sort();
  return {
    broken: report.broken
      .map((item) => ({
        url: shown(item.url),
        reason: item.reason,
        sources: sources(item.sources),
      }))
      .sort((a, b) => (a.url < b.url ? -1 : 1)),
    anchors: report.anchors.broken
      .map((item) => ({ url: shown(item.url), sources: sources(item.sources) }))
      .sort((a, b) => (a.url < b.url ? -1 : 1)),
  };
}

describe.each(['texinfo-diffutils', 'mkdocs'])('%s as a folder and served', (name) => {
  const site = siteNamed(name);
  const folder = path.join(import.meta.dirname, 'sites', name, 'site');
  const shownFolder = path.relative(process.cwd(), folder);
  let served: ServedSite;

  beforeAll(async () => {
    served = await serveSite(new SiteFiles(folder));
  });
  afterAll(() => served.close());

  it('finds the same broken links and fragments at the same lines and columns', async () => {
    const origin = served.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const fromServer = await scan(served.url(site.start), `regex:^(?!${origin}/)`);
    const fromDisk = await scan(folder, 'regex:^(?!http://linkaudit-files\\.invalid/)');
    const asFile = (url: string) => {
      if (!url.startsWith(`${served.origin}/`)) return url;
      const file = url.slice(served.origin.length + 1);
      const decoded = decodeURIComponent(file);
      const index = `${decoded}index.html`;
      const folderPage = decoded === '' || decoded.endsWith('/');
      return `${shownFolder}/${folderPage && existsSync(path.join(folder, index)) ? index : decoded}`;
    };
    expect(problems(fromDisk, (url) => url)).toEqual(problems(fromServer, asFile));
    // (The slices are real sites with real faults: the comparison is not of two empty lists.)
    expect(fromDisk.broken.length + fromDisk.anchors.broken.length).toBeGreaterThan(0);
  });
});

/**
 * The folder served as nginx would (static-site.mjs), Markdown as text/markdown (nginx's
 * mime.types has no type for it; a server that serves Markdown documents names it so).
 */
async function serveMarkdown(folder: string): Promise<ServedSite> {
  const files = new SiteFiles(folder);
  const server = createServer((request, response) => {
    const answer = answerFor(files, request.url ?? '/');
    const type = answer.file?.endsWith('.md') ? 'text/markdown' : answer.contentType;
    const body = answer.status === 200 && answer.file ? files.read(answer.file) : undefined;
    response.writeHead(answer.status, {
      ...(type ? { 'content-type': type } : {}),
      ...(answer.location ? { location: answer.location } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (sitePath = '/') => `${origin}${sitePath}`,
    requestCount: () => 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// pino's README and docs/ as npm ships them (node_modules, from the lockfile): Markdown nobody
// here wrote, with real broken links (images npm does not ship) and real broken fragments.
describe('pino README.md and docs/ (npm) from disk and served', () => {
  const folder = path.join(import.meta.dirname, '..', 'node_modules', 'pino');
  const shownFolder = path.relative(process.cwd(), folder);
  let served: ServedSite;

  beforeAll(async () => {
    served = await serveMarkdown(folder);
  });
  afterAll(() => served.close());

  it('finds the same broken links and fragments at the same lines and columns', async () => {
    const origin = served.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const fromServer = await scan(served.url('/README.md'), `regex:^(?!${origin}/)`);
    const fromDisk = await scan(
      [path.join(folder, 'README.md'), path.join(folder, 'docs')],
      'regex:^(?!http://linkaudit-files\\.invalid/)',
    );
    const asFile = (url: string) =>
      url.startsWith(`${served.origin}/`)
        ? `${shownFolder}/${decodeURIComponent(url.slice(served.origin.length + 1))}`
        : url;
    expect(problems(fromDisk, (url) => url)).toEqual(problems(fromServer, asFile));
    expect(fromDisk.anchors.broken.length).toBeGreaterThan(0);
  });
});

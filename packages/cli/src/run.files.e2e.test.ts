import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './run.js';
import { fakeIo } from './test-support/io.js';

// `linkaudit scan <folder>` (issue 38): a folder of built HTML checked without a server. Its
// files are written here (one external link names the test's own server on 127.0.0.1).

let server: Server;
let external: string;
let folder: string;
/** The folder as the reports name it: relative to the working folder. */
let shown: string;

function builtSite(): Record<string, string> {
  return {
    'index.html': [
      '<!doctype html>',
      '<html lang="en">',
      '<head><title>Home</title><link rel="stylesheet" href="/style.css"></head>',
      '<body>',
      '<a href="docs/">Docs</a>',
      '<a href="/docs/setup.html#install">Install</a>',
      '<a href="/docs/setup.html#missing-step">A step that is gone</a>',
      '<a href="https://example.com/docs/setup.html">Own site, absolute</a>',
      '<img src="img/logo.png" alt="Logo"> <img src="img/banner.png" alt="Banner">',
      '<a href="https://example.com/gone.html">Gone page on the own site</a>',
      `<a href="${external}/ok">External</a> <a href="${external}/gone">External, gone</a>`,
      '</body>',
      '</html>',
    ].join('\n'),
    'docs/index.html':
      '<!doctype html>\n<title>Docs</title>\n<a href="setup.html">Setup</a> <a href="../missing.html">Missing</a>\n',
    'docs/setup.html': '<!doctype html>\n<title>Setup</title>\n<h2 id="install">Install</h2>\n',
    // Linked from nowhere: a folder's every page is checked.
    'orphan.html': '<!doctype html>\n<title>Orphan</title>\n<p>Broken: <a href="/nowhere/">x</a>\n',
    'style.css': 'body { background: url("img/bg.png"); }\n',
    'img/logo.png': 'PNG',
  };
}

/** A repository's Markdown: a README and docs/, with broken links and #fragments. */
function markdownTree(): Record<string, string> {
  return {
    'README.md': [
      '# Project',
      '',
      'See [the guide](docs/guide.md#getting-started) and [a gone part](docs/guide.md#no-such-part).',
      `Jump to [usage](#usage), [nothing](#nothing-here), [the api](docs/api.md) or [out](${external}/gone).`,
      '',
      '## Usage',
      '',
      '![logo](images/logo.png)',
      '',
      '<a name="explicit"></a>',
      'Link to [explicit](#explicit) and [a reference][old].',
      '',
      '[old]: docs/old.md',
    ].join('\n'),
    'docs/guide.md': [
      '# Guide',
      '',
      '## Getting started',
      '',
      '## Getting started',
      '',
      'Back to [readme](../README.md#usage), [second](#getting-started-1), [third](#getting-started-2).',
      '<img src="../images/missing.png" alt=""> <span id="custom"></span> [custom](#custom)',
    ].join('\n'),
  };
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(request.url === '/ok' ? 200 : 404, { 'content-type': 'text/plain' });
    response.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  external = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  folder = await mkdtemp(path.join(tmpdir(), 'linkaudit-files-'));
  await writeTree(folder, builtSite());
  shown = path.relative(process.cwd(), folder);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const io = fakeIo();
  const code = await main(['scan', ...args, '--retries', '0', '--quiet'], io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}

const source = (
  file: string,
  element: string,
  attribute: string,
  line: number,
  column: number,
) => ({
  url: `${shown}/${file}`,
  element,
  attribute,
  line,
  column,
});

describe('linkaudit scan <folder>', () => {
  it('reports broken links and anchors by file, line and column; the own site is the folder', async () => {
    const { code, stdout, stderr } = await run(
      folder,
      '--root-url',
      'https://example.com/',
      '-f',
      'json',
    );
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const broken = (
      report.broken as Array<{ url: string; reason: string; sources: unknown[] }>
    ).map(({ url, reason, sources }) => ({ url, reason, sources }));
    const externalLine = builtSite()['index.html']!.split('\n')[10]!;
    const externalColumn = externalLine.indexOf('<a', 1) + 1;
    const byUrl = (a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : 1);
    expect(broken.sort(byUrl)).toEqual(
      [
        {
          url: `${external}/gone`,
          reason: 'Not Found',
          sources: [source('index.html', 'a', 'href', 11, externalColumn)],
        },
        {
          url: `${shown}/gone.html`,
          reason: 'Not Found',
          sources: [source('index.html', 'a', 'href', 10, 1)],
        },
        {
          url: `${shown}/img/banner.png`,
          reason: 'Not Found',
          sources: [source('index.html', 'img', 'src', 9, 37)],
        },
        {
          url: `${shown}/img/bg.png`,
          reason: 'Not Found',
          sources: [source('style.css', 'css', 'url()', 1, 20)],
        },
        {
          url: `${shown}/missing.html`,
          reason: 'Not Found',
          sources: [source('docs/index.html', 'a', 'href', 3, 32)],
        },
        {
          url: `${shown}/nowhere/`,
          reason: 'Not Found',
          sources: [source('orphan.html', 'a', 'href', 3, 12)],
        },
      ].sort(byUrl),
    );
    expect(report.anchors.broken).toEqual([
      expect.objectContaining({
        url: `${shown}/docs/setup.html#missing-step`,
        sources: [source('index.html', 'a', 'href', 7, 1)],
      }),
    ]);
    expect(report.summary).toMatchObject({ pages: 4, uniqueBrokenLinks: 6, brokenAnchors: 1 });
  });

  it('takes a baseline like a crawl: known problems no longer fail the run', async () => {
    const baseline = path.join(folder, '..', `${path.basename(folder)}.baseline.json`);
    try {
      expect((await run(folder, '--write-baseline', baseline)).code).toBe(1);
      const again = await run(folder, '--baseline', baseline);
      expect(again.code).toBe(0);
    } finally {
      await rm(baseline, { force: true });
    }
  });

  it('refuses a path that does not exist, and --root-url on a web address', async () => {
    expect(await run('./no-such-folder')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no such file or folder: ./no-such-folder'),
    });
    expect(await run(`${external}/`, '--root-url', 'https://example.com/')).toMatchObject({
      code: 2,
    });
  });
});

describe('linkaudit scan README.md docs/', () => {
  let repository: string;
  let shownRepository: string;
  beforeAll(async () => {
    repository = await mkdtemp(path.join(tmpdir(), 'linkaudit-markdown-'));
    await writeTree(repository, markdownTree());
    shownRepository = path.relative(process.cwd(), repository);
  });
  afterAll(() => rm(repository, { recursive: true, force: true }));

  it('checks links, images and GitHub heading fragments, each at its line and column', async () => {
    const readme = path.join(repository, 'README.md');
    const docs = path.join(repository, 'docs');
    const { code, stdout, stderr } = await run(readme, docs, '-f', 'json');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const at = (file: string, element: string, line: number, column: number) =>
      `${shownRepository}/${file}:${line}:${column} ${element}`;
    const sources = (item: {
      sources: Array<{ url: string; element: string; line: number; column: number }>;
    }) =>
      item.sources.map(({ url, element, line, column }) => `${url}:${line}:${column} ${element}`);
    const broken = (report.broken as Array<{ url: string; reason: string; sources: [] }>).map(
      (item) => [item.url.replace(`${shownRepository}/`, ''), item.reason, sources(item)],
    );
    expect(broken.sort()).toEqual(
      [
        [`${external}/gone`, 'Not Found', [at('README.md', 'a', 4, 78)]],
        ['docs/api.md', 'Not Found', [at('README.md', 'a', 4, 52)]],
        ['docs/old.md', 'Not Found', [at('README.md', 'a', 13, 1)]],
        ['images/logo.png', 'Not Found', [at('README.md', 'img', 8, 1)]],
        ['images/missing.png', 'Not Found', [at('docs/guide.md', 'img', 8, 1)]],
      ].sort(),
    );
    const anchors = (report.anchors.broken as Array<{ url: string; sources: [] }>).map((item) => [
      item.url.replace(`${shownRepository}/`, ''),
      sources(item),
    ]);
    expect(anchors.sort()).toEqual(
      [
        ['README.md#nothing-here', [at('README.md', 'a', 4, 26)]],
        ['docs/guide.md#getting-started-2', [at('docs/guide.md', 'a', 7, 69)]],
        ['docs/guide.md#no-such-part', [at('README.md', 'a', 3, 52)]],
      ].sort(),
    );
    expect(report.summary).toMatchObject({ pages: 2, uniqueBrokenLinks: 5, brokenAnchors: 3 });
  });
});

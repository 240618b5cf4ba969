// The reference the corpus tests judge the engine by must itself follow the standards: these are
// the cases the engine got wrong on real sites (issue 19), decided by WHATWG URL parsing and the
// HTML standard, on a small site written here.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteFiles } from './static-site.mjs';
import { deriveTruth, type Truth } from './truth.mjs';

const origin = 'http://127.0.0.1:8000';
let root: string;
let truth: Truth;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'corpus-truth-'));
  mkdirSync(path.join(root, 'library'));
  const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;
  writeFileSync(
    path.join(root, 'library', 'x.html'),
    page(
      [
        '<a href="#">top</a><a href="?">self</a><a href="">self</a>',
        '<a name=":_&#37;&#37;&lt;">vim</a><a href="#:_%%<">found</a><a href="#:_%%3C">missing</a>',
        '<p id="café">c</p><a href="#caf%C3%A9">decoded</a><a href="#TOP">top</a>',
        '<a href="y.html#:~:text=hi">directive</a><a href="y.html#nope">missing</a>',
        '<img src=""><a href="http://exa mple.com/">bad</a><a href="http://exa mple.com/">bad</a>',
        '<a href="../library">folder</a><a href="gone.html">gone</a>',
        '<template><a href="inert.html">inert</a></template>',
      ].join('\n'),
    ),
  );
  writeFileSync(
    path.join(root, 'library', 'y.html'),
    page('<base href="/other/"><a href="z.html">z</a>'),
  );
  writeFileSync(path.join(root, 'library', 'index.html'), page('<p>index</p>'));
  truth = deriveTruth(new SiteFiles(root), { origin, start: '/library/x.html' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the corpus truth', () => {
  it('reads `#`, `?` and `` as the page itself, and a directory through its redirect', () => {
    expect(truth.pages).toEqual([
      `${origin}/library/`,
      `${origin}/library/x.html`,
      `${origin}/library/y.html`,
    ]);
    expect(truth.outcomes).toContainEqual({
      url: `${origin}/library/x.html`,
      state: 'ok',
      detail: 200,
      referenceCount: 7,
    });
  });

  it('matches fragments as the HTML standard does: raw, then leniently percent-decoded', () => {
    expect(truth.missingFragments).toEqual([
      {
        source: `${origin}/library/x.html`,
        url: `${origin}/library/x.html`,
        fragment: '#:_%%3C',
        referenceCount: 1,
      },
      {
        source: `${origin}/library/x.html`,
        url: `${origin}/library/y.html`,
        fragment: '#nope',
        referenceCount: 1,
      },
    ]);
  });

  it('resolves against <base href>, counts an invalid address once with every occurrence, ignores <template>', () => {
    expect(truth.broken).toEqual([
      { url: '', reason: 'Source Attribute Missing', referenceCount: 1 },
      {
        url: `${origin}/library/gone.html`,
        reason: 'Not Found',
        statusCode: 404,
        referenceCount: 1,
      },
      { url: `${origin}/other/z.html`, reason: 'Not Found', statusCode: 404, referenceCount: 1 },
      { url: 'http://exa mple.com/', reason: 'Invalid Format', referenceCount: 2 },
    ]);
  });
});

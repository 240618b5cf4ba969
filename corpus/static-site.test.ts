// The corpus server answers as nginx does with its default configuration; the engine's bugs on
// real sites (issue 19) showed only against a server that answers `//x` like `/x`.
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteFiles, answerFor } from './static-site.mjs';

let root: string;
let files: SiteFiles;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'corpus-static-'));
  mkdirSync(path.join(root, 'library'));
  mkdirSync(path.join(root, 'empty'));
  writeFileSync(path.join(root, 'index.html'), '<p>home</p>');
  writeFileSync(path.join(root, 'library', 'index.html'), '<p>library</p>');
  writeFileSync(path.join(root, 'library', 'x y.html'), '<p>x</p>');
  writeFileSync(path.join(root, 'style.css'), 'p {}');
  symlinkSync(path.join(root, 'style.css'), path.join(root, 'linked.css'));
  symlinkSync(path.join(root, 'gone.js'), path.join(root, 'dangling.js'));
  files = new SiteFiles(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the corpus site server (nginx defaults)', () => {
  it('merges slashes and resolves dot segments before looking a file up', () => {
    expect(answerFor(files, '//library/x%20y.html')).toMatchObject({
      status: 200,
      file: '/library/x y.html',
    });
    expect(answerFor(files, '/library/./../library//index.html?q=1')).toMatchObject({
      status: 200,
      file: '/library/index.html',
    });
    expect(answerFor(files, '/../index.html')).toEqual({ status: 400 });
  });

  it('redirects a directory to its slash, keeping the query; serves its index.html or refuses', () => {
    expect(answerFor(files, '/library?a=1')).toEqual({ status: 301, location: '/library/?a=1' });
    expect(answerFor(files, '/library/')).toMatchObject({
      status: 200,
      file: '/library/index.html',
    });
    expect(answerFor(files, '/empty/')).toEqual({ status: 403 });
    expect(answerFor(files, '/index.html/')).toEqual({ status: 404 });
  });

  it('follows symbolic links; a dangling one and a deleted file are 404s', () => {
    expect(answerFor(files, '/linked.css')).toMatchObject({ status: 200, contentType: 'text/css' });
    expect(answerFor(files, '/dangling.js')).toEqual({ status: 404 });
    const edited = new SiteFiles(root);
    edited.delete('/style.css');
    expect(answerFor(edited, '/style.css')).toEqual({ status: 404 });
    expect(answerFor(files, '/style.css')).toMatchObject({ status: 200 });
  });
});

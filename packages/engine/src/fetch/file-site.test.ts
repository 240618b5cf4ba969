import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSite } from './file-site.js';

let folder: string;
let site: FileSite;

beforeAll(async () => {
  const parent = await mkdtemp(path.join(tmpdir(), 'linkaudit-file-site-'));
  folder = path.join(parent, 'public');
  await mkdir(path.join(folder, 'docs', 'empty'), { recursive: true });
  await writeFile(path.join(folder, 'docs', 'index.html'), '<title>Docs</title>');
  await writeFile(path.join(folder, 'a b.css'), 'x{}');
  await writeFile(path.join(parent, 'secret.txt'), 'not the site');
  site = new FileSite({ rootUrl: 'https://example.com/site/', folder });
});
afterAll(() => rm(path.dirname(folder), { recursive: true, force: true }));

async function answer(url: string, method: 'GET' | 'HEAD' = 'HEAD') {
  const response = await site.answer(url, method);
  if (!response) return undefined;
  response.body.destroy();
  const { statusCode, headers } = response;
  return { statusCode, type: headers['content-type'], location: headers.location };
}

describe('FileSite', () => {
  it('answers as a static host: folders by their index.html, a folder without "/" by a redirect', async () => {
    expect(await answer('https://example.com/site/docs/')).toMatchObject({
      statusCode: 200,
      type: 'text/html',
    });
    expect(await answer('https://example.com/site/docs?x=1')).toMatchObject({
      statusCode: 301,
      location: '/site/docs/?x=1',
    });
    expect(await answer('https://example.com/site/docs/empty/')).toMatchObject({ statusCode: 404 });
    expect(await answer('https://example.com/site/a%20b.css')).toMatchObject({
      statusCode: 200,
      type: 'text/css',
    });
    expect(await answer('https://example.com/site/missing.html')).toMatchObject({
      statusCode: 404,
    });
  });

  it('leaves other addresses to the network and never answers from outside the folder', async () => {
    expect(await answer('https://example.com/other/')).toBeUndefined();
    expect(await answer('http://example.com/site/docs/')).toBeUndefined();
    expect(await answer('https://example.com/site/..%2fsecret.txt')).toMatchObject({
      statusCode: 400,
    });
    expect(await answer('https://example.com/site/%2e%2e/secret.txt')).toBeUndefined();
  });
});

// The physical limit: fetch every URL of the site once with undici (concurrency 50) and run
// every HTML page through htmlparser2's streaming parser. No crawl logic at all: the URL list
// comes from truth.json, links are counted but not resolved, redirects are not followed.
// Anything a real crawler does costs at least this much, so "ours / plain loop" is the overhead
// of our crawl logic on top of HTTP and parsing.
//
// node plain-loop.mjs --origin http://127.0.0.1:PORT --truth <site>/truth.json [--concurrency 50]
//                     [--out result.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Parser } from 'htmlparser2';
import { Agent, request } from 'undici';

const LINK_ATTRIBUTES = { a: 'href', link: 'href', img: 'src', script: 'src', iframe: 'src' };

// Streams an HTML body through the parser; returns the number of link attributes seen, so the
// parse cannot be optimised away and does the work a link extractor needs.
async function parseHtml(body) {
  let links = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const attribute = LINK_ATTRIBUTES[name];
        if (attribute && attributes[attribute] !== undefined) links++;
      },
    },
    { decodeEntities: true },
  );
  const decoder = new TextDecoder();
  for await (const chunk of body) parser.write(decoder.decode(chunk, { stream: true }));
  parser.end(decoder.decode());
  return links;
}

// Reads a non-HTML body to the end (a real check of a file downloads it too).
async function drain(body) {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return bytes;
}

async function fetchOne(url, dispatcher, totals) {
  const { statusCode, headers, body } = await request(url, { dispatcher, method: 'GET' });
  const type = String(headers['content-type'] ?? '');
  // (read first, then add: `totals.x += await …` would read totals.x before the await and
  // lose the updates other workers make meanwhile)
  if (statusCode === 200 && type.startsWith('text/html')) {
    const links = await parseHtml(body);
    totals.htmlPages++;
    totals.links += links;
  } else {
    const bytes = await drain(body);
    totals.bytes += bytes;
  }
  totals.statuses[statusCode] = (totals.statuses[statusCode] ?? 0) + 1;
  if (statusCode >= 400) totals.broken.push(url);
}

// `concurrency` workers take the next URL until the list is empty.
async function fetchAll(urls, concurrency) {
  const dispatcher = new Agent({ connections: concurrency });
  const totals = {
    fetched: 0,
    htmlPages: 0,
    links: 0,
    bytes: 0,
    statuses: {},
    broken: [],
    errors: [],
  };
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      try {
        await fetchOne(url, dispatcher, totals);
      } catch (error) {
        // (a dropped connection or a host that does not resolve: broken for any checker)
        totals.errors.push({ url, message: String(error?.message ?? error) });
        totals.broken.push(url);
      }
      totals.fetched++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await dispatcher.close();
  return totals;
}

async function main() {
  const { values } = parseArgs({
    options: {
      origin: { type: 'string' },
      truth: { type: 'string' },
      concurrency: { type: 'string', default: '50' },
      out: { type: 'string' },
    },
  });
  if (!values.origin || !values.truth) throw new Error('--origin and --truth are required');
  const { urls } = JSON.parse(readFileSync(values.truth, 'utf8'));
  const started = performance.now();
  const totals = await fetchAll(
    urls.map((p) => new URL(p, values.origin).href),
    Number(values.concurrency),
  );
  const result = { ...totals, durationMs: Math.round(performance.now() - started) };
  if (values.out) writeFileSync(values.out, JSON.stringify(result));
  else console.log(JSON.stringify({ ...result, broken: result.broken.length }));
}

await main();

// The scale bench's sites (issue 34), made up on each request instead of read from files: a
// million pages cost no disk and no memory, and the server's memory does not grow with the site.
// Run as a process of its own (`node bench/scale-site.mjs <kind> <pages>`), it prints its origin.
//
//   tree N     page i (/ for 0, else /d<i/1000>/p<i>.html) links its 10 children 10i+1…10i+10
//              (those under N), its parent and an image (/img/<i mod 1000>.png, 1,000 shared);
//              every 20th page also links a page that does not exist (404): ~5 % internal 404s.
//   endless    the same tree with no end and no missing page: a scan stops only at its link
//              limit (the crawl and the result writing alone, no broken link to suggest for).
//   links N    one page (/) with N links to distinct plain-text URLs (/l/<n>), written in chunks.
import http from 'node:http';

const CHILDREN = 10;
const IMAGES = 1000;
const MISSING_EVERY = 20;
/** A 1×1 transparent GIF: the image every page links (its content type is all a check needs). */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const pageUrl = (i) => (i === 0 ? '/' : `/d${Math.floor(i / 1000)}/p${i}.html`);
const missingUrl = (i) => `/d${Math.floor(i / 1000)}/gone${i}.html`;

/**
 * What a tree of `pages` pages (Infinity: endless) holds: for a finite tree the URLs a whole-site
 * scan finds (pages, images, missing pages) and the link rows it writes.
 */
export function treeFigures(pages) {
  const missing = Math.ceil(pages / MISSING_EVERY);
  const images = Math.min(IMAGES, pages);
  // Each page but the root is linked by its parent and links it back; every page links an image.
  const links = (pages - 1) * 2 + pages + missing;
  return { pages, urls: pages + images + missing, missing, links };
}

/** The page number in `pathname`, or -1 when it names no page of a tree of `pages` pages. */
function pageNumber(pathname, pages) {
  if (pathname === '/') return 0;
  const match = /^\/d(\d+)\/p(\d+)\.html$/.exec(pathname);
  if (!match) return -1;
  const i = Number(match[2]);
  return i > 0 && i < pages && Math.floor(i / 1000) === Number(match[1]) ? i : -1;
}

function treePage(i, pages) {
  let body = `<!doctype html><html><head><title>Page ${i}</title></head><body>\n<h1>Page ${i}</h1>\n`;
  if (i > 0) body += `<a href="${pageUrl(Math.floor((i - 1) / CHILDREN))}">up</a>\n`;
  body += `<img src="/img/${i % IMAGES}.gif" alt="">\n`;
  for (let c = CHILDREN * i + 1; c <= CHILDREN * i + CHILDREN && c < pages; c++)
    body += `<a href="${pageUrl(c)}">page ${c}</a>\n`;
  if (i % MISSING_EVERY === 0 && pages !== Infinity)
    body += `<a href="${missingUrl(i)}">gone</a>\n`;
  return `${body}</body></html>\n`;
}

function serveTree(request, response, pages) {
  const { pathname } = new URL(request.url, 'http://site');
  if (/^\/img\/\d+\.gif$/.test(pathname)) {
    response.writeHead(200, { 'content-type': 'image/gif', 'content-length': GIF.length });
    return response.end(request.method === 'HEAD' ? undefined : GIF);
  }
  const i = pageNumber(pathname, pages);
  if (i < 0) return response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  const body = treePage(i, pages);
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** One page of `count` links, written as it is generated (the page never exists whole). */
export function serveLinks(request, response, count) {
  if (request.url !== '/') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.write('<!doctype html><html><head><title>Links</title></head><body>\n');
  let written = 0;
  const writeMore = () => {
    while (written < count) {
      let chunk = '';
      for (let end = Math.min(count, written + 1000); written < end; written++)
        chunk += `<a href="/l/${written}">link ${written}</a>\n`;
      if (!response.write(chunk)) return void response.once('drain', writeMore);
    }
    response.end('</body></html>\n');
  };
  writeMore();
}

/** Starts the site on a free loopback port; resolves with the server and its origin. */
export function startScaleSite(kind, pages) {
  const handler =
    kind === 'links'
      ? (request, response) => serveLinks(request, response, pages)
      : (request, response) =>
          serveTree(request, response, kind === 'endless' ? Number.POSITIVE_INFINITY : pages);
  const server = http.createServer({ keepAliveTimeout: 30_000 }, handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

if (import.meta.filename === process.argv[1]) {
  const [kind = 'tree', pages = '10000'] = process.argv.slice(2);
  const { origin } = await startScaleSite(kind, Number(pages));
  console.log(origin);
  // The bench ends this process with its own: nothing is left listening.
  process.on('disconnect', () => process.exit(0));
}

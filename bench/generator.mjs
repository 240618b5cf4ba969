// Deterministic synthetic site for the crawl benchmark.
//
// A site is N HTML pages in nested folders (/s3/s37/p1873.html), each with ~30 links, 1–3
// images from a shared pool, a stylesheet and a script, and occasionally a link to one of a few
// 2.5 MB files. A known fraction of links point at missing pages (404) or removed ones (410),
// another at redirects (301/302, some two hops, some ending at a missing page), and some carry
// `#fragment`s that do or do not exist in the target page.
//
// Everything is derived from (seed, page index) through a seeded PRNG, so the same options
// always produce the same bytes, and a page's links can be computed without holding the site
// in memory. While writing, the generator crawls its own link graph breadth-first from `/` and
// records the ground truth (`truth.json`): every URL a crawler reaches, which are broken (with
// their status), the routes table the server answers (redirects, 410s) and the broken fragments.
//
// Links are root-relative (/s1/s2/p3.html) or document-relative (../s2/p3.html), so everything
// resolves to the server the site is served from, with one exception: the tail.
//
// The tail is what real sites have and a clean generated site lacks: a few URLs that answer
// slowly, trickle their body, or drop the connection mid-answer (the server reads these from the
// routes in truth.json), and a few links to external hosts that do not resolve (names under the
// reserved `.invalid` TLD, which never resolve anywhere, so no request ever leaves 127.0.0.1).
// Each tail URL is linked from a few pages spread over the site, in their footer. Truth: a slow
// or trickling answer that arrives within the request timeout is fine; a dropped connection and
// an unresolvable host are broken (`status: 0` with a `reason`).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Bump when the site's shape changes, so sites cached in bench/.sites are regenerated.
export const GENERATOR_VERSION = 3;

export const DEFAULT_OPTIONS = Object.freeze({
  pages: 2000,
  seed: 1,
  brokenFraction: 0.02, // share of <a href> occurrences that point straight at a 404/410
  redirectFraction: 0.02, // share of <a href> occurrences that point at a redirect
  bigFiles: 5, // number of 2.5 MB files
  bigFileBytes: 2.5 * 1024 * 1024,
  imagesPerPage: [1, 3], // inclusive range
  linksPerPage: 30, // average number of <a href> per page
  fragmentFraction: 0.1, // share of page links that carry a #fragment
  brokenFragmentShare: 0.25, // of those, the share whose fragment does not exist
  bigLinkChance: 0.02, // chance that a page links to one of the big files
  slowUrls: 3, // tail: URLs that wait slowMs before answering (pages and images)
  slowMs: 1500,
  trickleUrls: 3, // tail: pages whose body arrives in 10 pieces over trickleMs
  trickleMs: 1500,
  dropUrls: 3, // tail: URLs whose connection drops in the middle of the answer's headers
  deadHosts: 3, // tail: external hosts that do not resolve (*.bench.invalid)
  deadHostUrls: 4, // URLs linked on each dead host
  tailLinks: 3, // pages that link each tail URL
});

const FANOUT = 8; // backbone tree: page i links to pages 8i+1 … 8i+8, so all are reachable
const PAGES_PER_FOLDER = 40;
const FOLDERS_PER_SECTION = 10;
const SECTION_IDS = ['top', 'sec1', 'sec2', 'sec3', 'sec4', 'sec5'];
const IMAGE_TYPES = ['png', 'jpg', 'gif', 'svg', 'webp'];
const BIG_TYPES = ['zip', 'pdf', 'bin', 'tar.gz', 'mp4'];
const WORDS = (
  'link audit crawl page site index folder anchor image broken status server header body ' +
  'report check fast slow queue frontier graph node edge rank section chapter guide manual ' +
  'release note change log feature issue fix test bench measure result figure table chart ' +
  'user account project team plan price support contact about blog news archive tag topic'
).split(' ');

// mulberry32: a tiny, fast, well-distributed 32-bit PRNG. Returns floats in [0, 1).
export function mulberry32(state) {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Hash (seed, stream, index) into an independent PRNG state, so every page and pool has its
// own stream and generating page 7 never depends on how many numbers page 6 drew.
function hash3(seed, stream, index) {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) ^ Math.imul(index + 1, 0x846ca68b);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

function rngFor(seed, stream, index) {
  return mulberry32(hash3(seed, stream, index));
}

const STREAM = { page: 1, broken: 2, redirect: 3, image: 4, big: 5, missingImages: 6, tail: 7 };

const pick = (rng, n) => Math.floor(rng() * n);

// Everything derived from the options once: pool sizes and which pool entries are special.
export function siteConfig(options = {}) {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const n = o.pages;
  if (!Number.isInteger(n) || n < 10) throw new Error(`pages must be an integer ≥ 10, got ${n}`);
  const imagePool = Math.min(500, Math.max(20, Math.round(n / 20)));
  const missingImageCount = Math.max(1, Math.round(imagePool * 0.04));
  return {
    ...o,
    imagesPerPage: Array.isArray(o.imagesPerPage)
      ? o.imagesPerPage
      : [o.imagesPerPage, o.imagesPerPage],
    brokenPool: Math.max(10, Math.round(n * 0.05)),
    redirectPool: Math.max(10, Math.round(n * 0.05)),
    imagePool,
    missingImages: chooseDistinct(
      rngFor(o.seed, STREAM.missingImages, 0),
      imagePool,
      missingImageCount,
    ),
    tailByPage: tailByPage(o),
  };
}

function chooseDistinct(rng, n, count) {
  const chosen = new Set();
  while (chosen.size < count) chosen.add(pick(rng, n));
  return chosen;
}

// ---- The tail ---------------------------------------------------------------------------------

// Every tail URL: { kind, url, element, route } where url is a path on the site or an absolute
// URL on a dead host, element the tag that links it, route what the server does (truth.routes).
export function tailItems(o) {
  const items = [];
  for (let k = 0; k < o.slowUrls; k++) {
    const image = k % 2 === 1;
    items.push({
      kind: 'slow',
      url: `/tail/slow-${k}.${image ? 'png' : 'html'}`,
      element: image ? 'img' : 'a',
      route: { status: 200, delayMs: o.slowMs },
    });
  }
  for (let k = 0; k < o.trickleUrls; k++) {
    items.push({
      kind: 'trickle',
      url: `/tail/trickle-${k}.html`,
      element: 'a',
      route: { status: 200, trickleMs: o.trickleMs },
    });
  }
  for (let k = 0; k < o.dropUrls; k++) {
    const image = k % 2 === 1;
    items.push({
      kind: 'drop',
      url: `/tail/drop-${k}.${image ? 'png' : 'html'}`,
      element: image ? 'img' : 'a',
      route: { status: 0, drop: true },
    });
  }
  for (let h = 0; h < o.deadHosts; h++) {
    for (let j = 0; j < o.deadHostUrls; j++) {
      const image = j % 2 === 1;
      const scheme = (h + j) % 2 === 0 ? 'http' : 'https';
      items.push({
        kind: 'dead-host',
        url: `${scheme}://dead-${h}.bench.invalid/${image ? `img-${j}.png` : `page-${j}.html`}`,
        element: image ? 'img' : 'a',
      });
    }
  }
  return items;
}

// page index → the tail items its footer links; each item on `tailLinks` distinct pages.
function tailByPage(o) {
  const byPage = new Map();
  tailItems(o).forEach((item, t) => {
    const pages = chooseDistinct(
      rngFor(o.seed, STREAM.tail, t),
      o.pages,
      Math.min(o.tailLinks, o.pages),
    );
    for (const page of pages) {
      if (!byPage.has(page)) byPage.set(page, []);
      byPage.get(page).push(item);
    }
  });
  return byPage;
}

// The truth of a tail URL: null when it works, else why it is broken.
function tailBroken(item) {
  if (item.kind === 'drop') return { status: 0, reason: 'connection dropped' };
  if (item.kind === 'dead-host') return { status: 0, reason: 'host does not resolve' };
  return null;
}

function tailHtml(from, items) {
  return items
    .map((item) => {
      const href = item.url.startsWith('/') ? hrefFrom(from, item.url, false) : item.url;
      return item.element === 'img' ? `<img src="${href}" alt="">` : `<a href="${href}">more</a>`;
    })
    .join('\n');
}

// ---- Paths -------------------------------------------------------------------------------

function folderOf(i) {
  const leaf = Math.floor((i - 1) / PAGES_PER_FOLDER);
  return `/s${Math.floor(leaf / FOLDERS_PER_SECTION)}/s${leaf}/`;
}

export function pagePath(i) {
  return i === 0 ? '/' : `${folderOf(i)}p${i}.html`;
}

// Missing pages sit next to real ones so they look like typos or deleted pages; every 25th
// is a removed page the server answers with 410 Gone.
function brokenTarget(cfg, k) {
  const rng = rngFor(cfg.seed, STREAM.broken, k);
  if (k % 25 === 7) return { path: `/archive/removed-${k}.html`, status: 410 };
  return { path: `${folderOf(1 + pick(rng, cfg.pages - 1))}gone-${k}.html`, status: 404 };
}

function redirectPath(k) {
  return `/go/r${k}`;
}

// A redirect k answers 301 or 302; most land on a page, every 10th takes a second hop first and
// every 20th ends at a missing page (so the link is broken although its first answer is a 3xx).
// Half use an absolute Location (built by the server from the Host header), half a path.
function redirectRoutes(cfg, k) {
  const rng = rngFor(cfg.seed, STREAM.redirect, k);
  const status = rng() < 0.5 ? 301 : 302;
  const absolute = k % 2 === 0;
  const page = pick(rng, cfg.pages);
  const from = redirectPath(k);
  if (k % 20 === 13) {
    const missing = `${folderOf(1 + pick(rng, cfg.pages - 1))}moved-${k}.html`;
    return {
      finalPage: -1,
      finalStatus: 404,
      routes: [[from, { status, location: missing, absolute }]],
    };
  }
  if (k % 10 === 4) {
    const hop = `/go/h${k}`;
    return {
      finalPage: page,
      finalStatus: 200,
      routes: [
        [from, { status, location: hop, absolute }],
        [hop, { status: 302, location: pagePath(page), absolute: !absolute }],
      ],
    };
  }
  return {
    finalPage: page,
    finalStatus: 200,
    routes: [[from, { status, location: pagePath(page), absolute }]],
  };
}

function imagePath(k) {
  return `/img/g${k % 10}/i${k}.${IMAGE_TYPES[k % IMAGE_TYPES.length]}`;
}

function bigPath(k) {
  return `/files/big-${k}.${BIG_TYPES[k % BIG_TYPES.length]}`;
}

const STYLESHEET = '/assets/site.css';
const SCRIPT = '/assets/site.js';

// Root-relative or document-relative form of `target` as written in a page at `fromPath`.
function hrefFrom(fromPath, target, relative) {
  if (!relative) return target;
  const fromDir = fromPath
    .slice(0, fromPath.lastIndexOf('/') + 1)
    .split('/')
    .filter(Boolean);
  const parts = target.split('/').filter(Boolean);
  const isDir = target.endsWith('/');
  let common = 0;
  while (
    common < fromDir.length &&
    common < parts.length - (isDir ? 0 : 1) &&
    fromDir[common] === parts[common]
  ) {
    common++;
  }
  const up = '../'.repeat(fromDir.length - common);
  const rest = parts.slice(common).join('/') + (isDir && parts.length > common ? '/' : '');
  return up + rest || './';
}

// ---- One page's links ----------------------------------------------------------------------

// The links of page i as { kind, index, fragment, relative }. Pure function of (cfg, i).
export function pageLinks(cfg, i) {
  const rng = rngFor(cfg.seed, STREAM.page, i);
  const links = [];
  const pageLink = (index, fragment = null) =>
    links.push({ kind: 'page', index, fragment, relative: rng() < 0.5 });
  if (i !== 0) pageLink(0);
  if (i !== 0) pageLink(Math.floor((i - 1) / FANOUT));
  for (let c = FANOUT * i + 1; c <= FANOUT * i + FANOUT && c < cfg.pages; c++) pageLink(c);
  if (rng() < 0.3) links.push({ kind: 'self', index: i, fragment: SECTION_IDS[1 + pick(rng, 5)] });
  if (cfg.bigFiles > 0 && rng() < cfg.bigLinkChance) {
    links.push({ kind: 'big', index: pick(rng, cfg.bigFiles), relative: rng() < 0.5 });
  }
  addRandomLinks(cfg, i, rng, links, pageLink);
  return { links, images: pageImages(cfg, rng), tail: cfg.tailByPage?.get(i) ?? [] };
}

// Fills the page up to its total with random links; broken and redirect probabilities are
// scaled so that their share of *all* the page's links matches the requested fractions.
function addRandomLinks(cfg, i, rng, links, pageLink) {
  const total = cfg.linksPerPage - 4 + pick(rng, 9);
  const slots = Math.max(1, total - links.length);
  const pBroken = Math.min(1, (cfg.brokenFraction * total) / slots);
  const pRedirect = Math.min(1 - pBroken, (cfg.redirectFraction * total) / slots);
  for (let s = 0; s < slots; s++) {
    const r = rng();
    if (r < pBroken) {
      links.push({ kind: 'broken', index: pick(rng, cfg.brokenPool), relative: rng() < 0.5 });
    } else if (r < pBroken + pRedirect) {
      links.push({ kind: 'redirect', index: pick(rng, cfg.redirectPool), relative: rng() < 0.5 });
    } else {
      pageLink(randomPage(cfg, i, rng), randomFragment(cfg, rng));
    }
  }
}

// Half the random links stay in the page's own folder, as real navigation does.
function randomPage(cfg, i, rng) {
  if (i === 0 || rng() < 0.5) return pick(rng, cfg.pages);
  const first = Math.floor((i - 1) / PAGES_PER_FOLDER) * PAGES_PER_FOLDER + 1;
  return Math.min(cfg.pages - 1, first + pick(rng, PAGES_PER_FOLDER));
}

function randomFragment(cfg, rng) {
  if (rng() >= cfg.fragmentFraction) return null;
  if (rng() < cfg.brokenFragmentShare) return `gone-${pick(rng, 1000)}`;
  return SECTION_IDS[pick(rng, SECTION_IDS.length)];
}

function pageImages(cfg, rng) {
  const [min, max] = cfg.imagesPerPage;
  const count = min + pick(rng, max - min + 1);
  return Array.from({ length: count }, () => pick(rng, cfg.imagePool));
}

// ---- Rendering -----------------------------------------------------------------------------

function targetPath(cfg, link) {
  switch (link.kind) {
    case 'page':
    case 'self':
      return pagePath(link.index);
    case 'broken':
      return brokenTarget(cfg, link.index).path;
    case 'redirect':
      return redirectPath(link.index);
    case 'big':
      return bigPath(link.index);
  }
  throw new Error(`unknown link kind ${link.kind}`);
}

function words(rng, count) {
  const out = [];
  for (let w = 0; w < count; w++) out.push(WORDS[pick(rng, WORDS.length)]);
  return out.join(' ');
}

function anchor(cfg, from, link, rng) {
  if (link.kind === 'self') return `<a href="#${link.fragment}">${words(rng, 2)}</a>`;
  const href =
    hrefFrom(from, targetPath(cfg, link), link.relative) +
    (link.fragment ? `#${link.fragment}` : '');
  return `<a href="${href}">${words(rng, 1 + pick(rng, 3))}</a>`;
}

// The page's HTML: head with stylesheet and script, five sections (ids sec1..sec5) whose
// paragraphs carry the links, images in the first sections. ~5 KB a page.
export function renderPage(cfg, i, { links, images, tail = [] }) {
  const from = pagePath(i);
  const rng = rngFor(cfg.seed, STREAM.page, i + 0x40000000); // text only, links already drawn
  const perSection = Math.ceil(links.length / 5);
  const sections = [];
  for (let s = 0; s < 5; s++) {
    const chunk = links.slice(s * perSection, (s + 1) * perSection);
    const body = chunk.map((l) => `${words(rng, 6 + pick(rng, 10))} ${anchor(cfg, from, l, rng)}`);
    const img =
      images[s] === undefined
        ? ''
        : `\n<img src="${hrefFrom(from, imagePath(images[s]), rng() < 0.5)}" alt="${words(rng, 2)}">`;
    sections.push(
      `<section id="sec${s + 1}">\n<h2>${words(rng, 3)}</h2>${img}\n<p>${body.join(',\n')}.</p>\n</section>`,
    );
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Page ${i}: ${words(rng, 3)}</title>
<link rel="stylesheet" href="${hrefFrom(from, STYLESHEET, i % 2 === 1)}">
<script src="${hrefFrom(from, SCRIPT, i % 2 === 0)}" defer></script>
</head>
<body>
<h1 id="top">Page ${i}</h1>
${sections.join('\n')}
<footer><p>${words(rng, 12)}</p>${tail.length ? `\n${tailHtml(from, tail)}` : ''}</footer>
</body>
</html>
`;
}

// ---- Static files --------------------------------------------------------------------------

function randomBytes(rng, size) {
  const words32 = new Uint32Array(Math.ceil(size / 4));
  for (let w = 0; w < words32.length; w++) words32[w] = Math.floor(rng() * 4294967296);
  return Buffer.from(words32.buffer, 0, size);
}

function imageBytes(cfg, k) {
  const rng = rngFor(cfg.seed, STREAM.image, k);
  const type = IMAGE_TYPES[k % IMAGE_TYPES.length];
  if (type === 'svg') {
    const r = 5 + pick(rng, 40);
    // (no xmlns: the site must not contain any URL of another host, not even a namespace)
    return `<svg width="100" height="100"><circle cx="50" cy="50" r="${r}"/></svg>\n`;
  }
  return randomBytes(rng, 500 + pick(rng, 20000)); // opaque bytes: nobody decodes them
}

// ---- Site generation with its own crawl ----------------------------------------------------

class SiteWriter {
  constructor(dir) {
    this.dir = dir;
    this.madeDirs = new Set();
    this.bytes = 0;
  }

  write(urlPath, data) {
    const file = path.join(this.dir, urlPath === '/' ? 'index.html' : urlPath.slice(1));
    const parent = path.dirname(file);
    if (!this.madeDirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.madeDirs.add(parent);
    }
    writeFileSync(file, data);
    this.bytes += data.length;
  }
}

// Crawls the site as a link checker would (BFS from `/`, redirects followed), writing each page
// when it is reached and recording the truth on the way.
function crawlAndWrite(cfg, writer) {
  const state = {
    seen: new Set(['/']),
    urls: ['/'],
    broken: {},
    routes: {},
    brokenFragments: new Set(),
    stats: {
      pages: 0,
      aLinks: 0,
      brokenALinks: 0,
      redirectALinks: 0,
      fragmentALinks: 0,
      brokenFragmentALinks: 0,
      images: 0,
      brokenImages: 0,
    },
  };
  const reached = new Uint8Array(cfg.pages);
  const queue = [0];
  reached[0] = 1;
  const reach = (index) => {
    if (!reached[index]) {
      reached[index] = 1;
      queue.push(index);
    }
  };
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head];
    const page = pageLinks(cfg, i);
    writer.write(pagePath(i), renderPage(cfg, i, page));
    state.stats.pages++;
    for (const link of page.links) recordLink(cfg, state, link, reach);
    for (const k of page.images) recordImage(cfg, state, k);
    see(state, STYLESHEET);
    see(state, SCRIPT);
    for (const item of page.tail) recordTail(state, item);
  }
  const unreached = reached.indexOf(0);
  if (unreached !== -1) throw new Error(`generator bug: page ${unreached} is not reachable from /`);
  return state;
}

function see(state, url) {
  if (state.seen.has(url)) return false;
  state.seen.add(url);
  state.urls.push(url);
  return true;
}

function recordLink(cfg, state, link, reach) {
  const s = state.stats;
  s.aLinks++;
  if (link.kind === 'page' || link.kind === 'self') {
    see(state, pagePath(link.index));
    reach(link.index);
    if (link.fragment) recordFragment(state, link);
  } else if (link.kind === 'broken') {
    s.brokenALinks++;
    const { path: p, status } = brokenTarget(cfg, link.index);
    if (see(state, p)) state.broken[p] = { status };
  } else if (link.kind === 'redirect') {
    s.redirectALinks++;
    const { finalPage, finalStatus } = redirectRoutes(cfg, link.index);
    if (see(state, redirectPath(link.index)) && finalStatus !== 200) {
      state.broken[redirectPath(link.index)] = { status: finalStatus, redirected: true };
    }
    if (finalPage >= 0) reach(finalPage);
  } else if (link.kind === 'big') {
    see(state, bigPath(link.index));
  }
}

// Tail pages link back to `/` only, which is always seen: no crawl needed past them.
function recordTail(state, item) {
  if (!see(state, item.url)) return;
  const broken = tailBroken(item);
  if (broken) state.broken[item.url] = broken;
}

function recordFragment(state, link) {
  state.stats.fragmentALinks++;
  if (SECTION_IDS.includes(link.fragment)) return;
  state.stats.brokenFragmentALinks++;
  state.brokenFragments.add(`${pagePath(link.index)}#${link.fragment}`);
}

function recordImage(cfg, state, k) {
  state.stats.images++;
  const missing = cfg.missingImages.has(k);
  if (missing) state.stats.brokenImages++;
  if (see(state, imagePath(k)) && missing) state.broken[imagePath(k)] = { status: 404 };
}

// Non-page files: every image of the pool except the missing ones, the big files, the assets.
// The whole redirect table is written too (the server answers unlinked entries as well).
function writeStaticFiles(cfg, writer, state) {
  for (let k = 0; k < cfg.imagePool; k++) {
    if (!cfg.missingImages.has(k)) writer.write(imagePath(k), imageBytes(cfg, k));
  }
  for (let k = 0; k < cfg.bigFiles; k++) {
    writer.write(bigPath(k), randomBytes(rngFor(cfg.seed, STREAM.big, k), cfg.bigFileBytes));
  }
  writer.write(STYLESHEET, 'body { font-family: sans-serif; max-width: 60em; margin: auto; }\n');
  writer.write(SCRIPT, 'document.documentElement.classList.add("js");\n');
  for (let k = 0; k < cfg.redirectPool; k++) {
    for (const [from, route] of redirectRoutes(cfg, k).routes) state.routes[from] = route;
  }
  for (let k = 0; k < cfg.brokenPool; k++) {
    const { path: p, status } = brokenTarget(cfg, k);
    if (status !== 404) state.routes[p] = { status };
  }
  for (const item of tailItems(cfg)) {
    if (!item.route) continue;
    state.routes[item.url] = item.route;
    if (item.kind === 'drop') continue; // never answered: nothing to write
    writer.write(item.url, item.element === 'img' ? imageBytes(cfg, 1) : tailPage(item));
  }
}

// A small page behind a slow or trickling answer (~2 KB, so trickling takes several pieces).
function tailPage(item) {
  const filler = `<p>${'This page is served slowly, as some pages of real sites are. '.repeat(30)}</p>`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${item.kind}</title></head>\n<body><h1 id="top">${item.kind}</h1>\n${filler}\n<a href="/">home</a></body></html>\n`;
}

// Writes the site into `dir` (which must not exist) and returns its truth, also saved as
// `dir/truth.json` (deterministic too: no timings in it).
export function generateSite(dir, options = {}) {
  const cfg = siteConfig(options);
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  const writer = new SiteWriter(dir);
  const state = crawlAndWrite(cfg, writer);
  writeStaticFiles(cfg, writer, state);
  const truth = {
    generatorVersion: GENERATOR_VERSION,
    options: {
      ...cfg,
      missingImages: [...cfg.missingImages].sort((a, b) => a - b),
      tailByPage: undefined,
    },
    start: '/',
    urls: state.urls,
    broken: state.broken,
    routes: state.routes,
    brokenFragments: [...state.brokenFragments].sort(),
    stats: {
      ...state.stats,
      urls: state.urls.length,
      brokenUrls: Object.keys(state.broken).length,
      bytes: writer.bytes,
    },
  };
  writeFileSync(path.join(dir, 'truth.json'), JSON.stringify(truth));
  return truth;
}

export function readTruth(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8'));
}

// The cached site for these options under `baseDir`, generated first when missing or made by
// an older generator. It is written to a temporary folder and renamed, so an interrupted run
// never leaves a half-written site that looks complete.
export function ensureSite(baseDir, options = {}) {
  const cfg = siteConfig(options);
  const dir = path.join(baseDir, `${cfg.pages}-${cfg.seed}`);
  if (existsSync(path.join(dir, 'truth.json'))) {
    const truth = readTruth(dir);
    if (truth.generatorVersion === GENERATOR_VERSION && sameOptions(truth.options, cfg)) {
      return { dir, truth, generated: false };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(baseDir, { recursive: true });
  const truth = generateSite(tmp, options);
  renameSync(tmp, dir);
  return { dir, truth, generated: true };
}

function sameOptions(saved, cfg) {
  return Object.keys(DEFAULT_OPTIONS).every(
    (key) => JSON.stringify(saved[key]) === JSON.stringify(cfg[key]),
  );
}

// `node generator.mjs [pages] [seed]`: generate (or find) a site and print its stats.
if (import.meta.main) {
  const pages = Number(process.argv[2] ?? DEFAULT_OPTIONS.pages);
  const seed = Number(process.argv[3] ?? DEFAULT_OPTIONS.seed);
  const { dir, truth, generated } = ensureSite(path.join(import.meta.dirname, '.sites'), {
    pages,
    seed,
  });
  console.log(`${generated ? 'generated' : 'found'} ${dir}`);
  console.log(truth.stats);
}

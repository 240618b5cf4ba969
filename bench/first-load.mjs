// First load of the web app (issue 37): the JavaScript each route needs before it can draw,
// gzip-compressed as it travels, read from Vite's build manifest (packages/web/dist/.vite).
// A route needs the entry chunk, its page's chunk, and every chunk they import statically;
// chunks imported dynamically (the charts, the PDF viewer's pdf.js) load on demand and are
// listed apart. Run: npm run build:web && node bench/first-load.mjs [--json]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../packages/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

/** Where each route's page lives in the sources (the router's lazy imports). */
export const routePages = {
  '/': 'src/features/home/components/HomePage.tsx',
  '/scan': 'src/features/scans/components/ScanPage.tsx',
  '/report/{scanId}': 'src/features/reports/components/ReportPage.tsx',
  '/pricing': 'src/features/billing/components/PricingPage.tsx',
  '/signin': 'src/features/auth/components/SignInPage.tsx',
};

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) {
    gzipCache.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
  }
  return gzipCache.get(file);
}

/** The chunks a manifest key loads before it runs: itself and its static imports, transitively. */
function staticClosure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    staticClosure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
/** The router's lazy routes: other screens, not what this one loads on demand. */
const routeChunks = new Set(manifest[entryKey].dynamicImports ?? []);

/** Dynamic imports reachable from a set of chunks (loaded only when asked for). */
function onDemand(keys) {
  const loaded = new Set(keys);
  return [...new Set([...keys].flatMap((key) => manifest[key]?.dynamicImports ?? []))]
    .filter((key) => !loaded.has(key) && !routeChunks.has(key))
    .map((key) => ({
      chunk: manifest[key].file,
      gzipBytes: [...staticClosure([key])]
        .filter((chunk) => !loaded.has(chunk))
        .reduce((sum, chunk) => sum + gzipBytes(manifest[chunk].file), 0),
    }));
}

export function firstLoad() {
  return Object.entries(routePages).map(([route, page]) => {
    const chunks = staticClosure([entryKey, page]);
    const js = [...chunks].filter((key) => manifest[key].file.endsWith('.js'));
    return {
      route,
      chunks: js.length,
      gzipBytes: js.reduce((sum, key) => sum + gzipBytes(manifest[key].file), 0),
      onDemand: onDemand(chunks),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const routes = firstLoad();
  if (process.argv.includes('--json')) console.log(JSON.stringify(routes, null, 2));
  else {
    const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
    for (const { route, chunks, gzipBytes: bytes, onDemand: later } of routes) {
      const extra = later.map((item) => `${item.chunk} ${kB(item.gzipBytes)}`).join(', ');
      console.log(`${route.padEnd(18)} ${kB(bytes).padStart(9)} gzip in ${chunks} chunks`);
      if (extra) console.log(`${''.padEnd(18)} on demand: ${extra}`);
    }
  }
}

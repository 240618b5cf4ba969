// Rendering bench (issue 35): a 1,000-page site whose pages are built by script (an empty root,
// a 200 KB bundle that makes each page's links, image and id from a fetch), scanned with
// renderPages through the engine. Reports pages per second and the peak resident memory of the
// scanning process and its browser processes together (summed from /proc: RSS every 100 ms, PSS
// every 5 s; the
// site is served from a child process, not counted). Goal: >= 5 pages/s, < 1.5 GB.
//   npm run build:ts && node_modules/.bin/node bench/render.mjs [pages] [render pages at once]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { descendants, processSample } from './process-sample.mjs';

const pageCount = Number(process.argv[2] ?? 1000);
const slots = Number(process.argv[3] ?? 3);

if (process.argv[2] === '--serve') serve(Number(process.argv[3]));
else await bench();

/** The site: /p/N is the app's shell; the bundle makes the page from /api/N. */
function serve(pages) {
  const shell =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>' +
    '<script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>';
  const data = JSON.stringify(
    Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `item ${i}` })),
  );
  const bundle = `const catalogue = ${data};
const index = Number(location.pathname.split('/').pop()) || 0;
const root = document.getElementById('root');
fetch('/api/' + index).then((answer) => answer.json()).then((page) => {
  const heading = document.createElement('h1');
  heading.id = 'top';
  heading.textContent = page.title + ' of ' + catalogue.length;
  root.append(heading);
  for (const child of page.children) {
    const link = document.createElement('a');
    link.href = '/p/' + child + '#top';
    link.textContent = 'Page ' + child;
    root.append(link);
  }
  const home = document.createElement('a');
  home.href = '/p/0';
  home.textContent = 'Home';
  root.append(home);
  const picture = new Image();
  picture.src = '/img/' + index + '.png';
  root.append(picture);
});`;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    const [, kind, id] = url.pathname.split('/');
    const n = Number.parseInt(id ?? '', 10);
    const send = (status, type, body) => {
      response.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (kind === 'p' && n >= 0 && n < pages) return send(200, 'text/html', shell);
    if (url.pathname === '/assets/app.js') return send(200, 'text/javascript', bundle);
    if (kind === 'api' && n >= 0 && n < pages) {
      const children = [1, 2, 3, 4, 5].map((k) => n * 5 + k).filter((c) => c < pages);
      return send(200, 'application/json', JSON.stringify({ title: `Page ${n}`, children }));
    }
    // Every tenth image is missing.
    if (kind === 'img' && n % 10 !== 0) return send(200, 'image/png', 'x'.repeat(200));
    send(404, 'text/plain', 'Not Found');
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
}

async function bench() {
  const site = spawn(process.execPath, [import.meta.filename, '--serve', String(pageCount)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise((resolve) =>
    site.stdout.once('data', (chunk) => resolve(String(chunk).trim())),
  );
  const { defaultScanRequest } = await import('../packages/core/dist/index.js');
  const { crawlSettingsFor, runScan } = await import('../packages/engine/dist/index.js');
  // RSS is cheap to read (stat) and read often; PSS makes the kernel walk every mapping of
  // Chromium's large address spaces, so it is read every 5 s (its cost lands on this process).
  let peak = { rss: 0, pss: 0 };
  let samples = 0;
  const sampler = setInterval(() => {
    const now = treeMemory(process.pid, site.pid, samples++ % 50 === 0);
    peak = { rss: Math.max(peak.rss, now.rss), pss: Math.max(peak.pss, now.pss) };
  }, 100);
  const started = performance.now();
  let pages = 0;
  const settings = defaultScanRequest({
    url: `${origin}/p/0`,
    scanDepth: 3,
    maxDepth: 20,
    checkAnchors: true,
    renderPages: true,
  });
  const done = await runScan(crawlSettingsFor(settings), {
    linkEvents: 'problems',
    render: { pages: slots },
    onEvent: (event) => {
      if (event.type === 'page') pages++;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage();
  console.log(
    `scan process CPU: user ${(cpu.user / 1e6).toFixed(1)} s, system ${(cpu.system / 1e6).toFixed(1)} s`,
  );
  clearInterval(sampler);
  site.kill();
  const { rendering, uniqueBrokenLinks, brokenAnchors } = done.summary;
  console.log(
    JSON.stringify({
      pages,
      seconds: +seconds.toFixed(1),
      pagesPerSecond: +(pages / seconds).toFixed(2),
    }),
  );
  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  // RSS counts the pages Chromium's processes share once per process; PSS splits them.
  console.log(
    `peak memory of scan process + browser: RSS summed ${mb(peak.rss)}, PSS summed ${mb(peak.pss)}`,
  );
  console.log(JSON.stringify({ rendering, uniqueBrokenLinks, brokenAnchors }));
}

/** Resident and proportional bytes of `root` and its descendants, less the subtree of `except`. */
function treeMemory(root, except, withPss) {
  const skipped = new Set([except, ...descendants(except)]);
  const pids = [root, ...descendants(root)].filter((pid) => !skipped.has(pid));
  const total = { rss: 0, pss: 0 };
  for (const pid of pids) {
    total.rss += (processSample(pid)?.rssMb ?? 0) * 1024 * 1024;
    if (withPss) total.pss += pss(pid);
  }
  return total;
}

function pss(pid) {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

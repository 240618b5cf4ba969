// The real-site bench: every corpus site (../corpus/sites.mjs) whole, as its Debian package
// installs it, with the corpus faults, served on 127.0.0.1 as nginx serves it. Per site it
// measures our CLI and Debian's linkchecker from the outside (wall, CPU, peak RSS: measure.mjs)
// and compares what each found with the truth derived from the files (../corpus/truth.mjs).
//
//   npm run bench:corpus                      (root: builds TypeScript first)
//   npm run bench:corpus -w @linkaudit/bench -- --sites mkdocs,doxygen --linkchecker-anchors
//
// Options:
//   --sites a,b             only these corpus sites (default: every installed one)
//   --no-linkchecker        ours only
//   --linkchecker-anchors   linkchecker with its AnchorCheck plugin (it fetches and parses a page
//                           once per distinct fragment: minutes on a 25-page site)
//   --concurrency 50        our concurrency and linkchecker's threads
//   --timeout 900           seconds before a tool is killed
//
// Settings, alike for both: the whole site, unlimited depth, links to other hosts not checked
// (ours: an exclusion; linkchecker: --ignore-url, which only checks their syntax), 50 at a time.
// linkchecker's 10-requests-a-second politeness cap per host is lifted (the site sends the
// `LinkChecker` header that version 10 requires before it allows more).
//
// Raw outputs go to bench/results/corpus-<stamp>/, the summary to bench/results/corpus-<stamp>.json.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { filesWithFaults, sites } from '../corpus/sites.mjs';
import { serveSite } from '../corpus/static-site.mjs';
import { deriveTruth } from '../corpus/truth.mjs';
import { killAllChildren, runMeasured } from './measure.mjs';
import { OUR_BIN, OUR_CLI } from './tools.mjs';

const RESULTS_DIR = path.join(import.meta.dirname, 'results');

const { values: options } = parseArgs({
  options: {
    sites: { type: 'string' },
    'no-linkchecker': { type: 'boolean', default: false },
    'linkchecker-anchors': { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '50' },
    timeout: { type: 'string', default: '900' },
  },
});

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function ourCommand(url, origin, outFile) {
  return [
    OUR_BIN,
    'scan',
    url,
    '--depth',
    'site',
    '--max-depth',
    '1000',
    '--max-errors',
    '1000000',
    '--anchors',
    '--case-sensitive',
    '--exclude',
    `regex:^(?!${escapeRegex(origin)}/)`,
    '--concurrency',
    options.concurrency,
    '--format',
    'json',
    '--output',
    outFile,
  ];
}

function readOurs(outFile, origin) {
  const report = JSON.parse(readFileSync(outFile, 'utf8'));
  return {
    status: report.status,
    pages: report.summary.pages,
    urls: report.summary.uniqueLinks,
    broken: report.broken.map(({ url, reason, referenceCount }) => ({
      url,
      reason,
      referenceCount,
    })),
    fragments: brokenFragments(report.anchors.broken),
    origin,
  };
}

/** linkchecker's configuration, in the temp folder: run as root it drops to `nobody` to read it. */
/**
 * The CLI lists a broken anchor once per target (its url with the fragment, the page it should
 * be on, every source occurrence); the truth counts per linking page.
 */
function brokenFragments(anchors) {
  const byKey = new Map();
  for (const { url, fragment, sources } of anchors) {
    for (const source of sources) {
      const key = `${source.url}\n${url}`;
      const entry = byKey.get(key);
      if (entry) entry.referenceCount++;
      else {
        const target = url.split('#')[0];
        byKey.set(key, { source: source.url, url: target, fragment, referenceCount: 1 });
      }
    }
  }
  return [...byKey.values()];
}

function linkcheckerConfig(origin) {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'corpus-lc-')), 'linkcheckerrc');
  // Its own default crawls only the start URL's folder (the rest: syntax only); ours, the host.
  const lines = ['[checking]', 'maxrequestspersecond=100000', '[filtering]'];
  lines.push(`internlinks=^${escapeRegex(origin)}/`);
  if (options['linkchecker-anchors']) lines.push('[AnchorCheck]');
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o644 });
  return file;
}

function linkcheckerCommand(url, origin, configFile) {
  return [
    '-f',
    configFile,
    '--recursion-level',
    '-1',
    '--threads',
    options.concurrency,
    '--no-status',
    '--verbose',
    '--output',
    'csv',
    '--ignore-url',
    `^(?!${escapeRegex(origin)}/)`,
    url,
  ];
}

/** linkchecker's CSV (one row per distinct URL as written, fragment included, cached ones once). */
function readLinkchecker(outFile) {
  // Its comments start with '# ' and hold no ';'; a row may start with '#' (a link `#frag`).
  const lines = readFileSync(outFile, 'utf8')
    .split('\n')
    .filter((line) => line && !(line.startsWith('# ') && !line.includes(';')));
  const header = lines.shift()?.split(';') ?? [];
  const column = Object.fromEntries(header.map((name, index) => [name, index]));
  const urls = new Set();
  const broken = new Map();
  const fragments = new Set();
  for (const line of lines) {
    const cells = line.split(';');
    const url = cells[column.url] ?? '';
    const withoutFragment = url.split('#')[0];
    urls.add(withoutFragment);
    if (cells[column.valid] === 'False') {
      broken.set(withoutFragment, cells[column.result]);
    }
    if (/Anchor `.*' .*not found/.test(cells[column.warningstring] ?? '')) fragments.add(url);
  }
  return { urls: urls.size, broken, fragments };
}

/** missed / false / wrong reference counts of our findings against the truth. */
function judgeOurs(ours, truth) {
  const key = (entry) => `${entry.url}\n${entry.reason}`;
  const truthBroken = new Map(truth.broken.map((entry) => [key(entry), entry]));
  const ourBroken = new Map(ours.broken.map((entry) => [key(entry), entry]));
  const fragmentKey = (f) => `${f.source}\n${f.url}\n${f.fragment}`;
  const truthFragments = new Map(truth.missingFragments.map((f) => [fragmentKey(f), f]));
  const ourFragments = new Map(ours.fragments.map((f) => [fragmentKey(f), f]));
  const differ = (mine, theirs) => {
    const missed = [...theirs.keys()].filter((k) => !mine.has(k));
    const falsely = [...mine.keys()].filter((k) => !theirs.has(k));
    const counts = [...mine.keys()].filter(
      (k) => theirs.has(k) && theirs.get(k).referenceCount !== mine.get(k).referenceCount,
    );
    return { missed, false: falsely, wrongCounts: counts };
  };
  return { links: differ(ourBroken, truthBroken), fragments: differ(ourFragments, truthFragments) };
}

/**
 * linkchecker against the truth, by broken URL (it gives no reference counts, and names broken
 * fragments by URL only). Non-http findings (a malformed mailto:) are counted apart: the truth,
 * like our engine, does not check other schemes.
 */
function judgeLinkchecker(lc, truth, origin) {
  const truthUrls = new Set(truth.broken.map((entry) => entry.url));
  const reported = [...lc.broken.keys()];
  const http = reported.filter((url) => /^https?:/i.test(url));
  // linkchecker writes fragments re-encoded (`#:_%%3C` as `#%3A_%25%3C`): compare them decoded.
  const decoded = (url) => {
    const at = url.indexOf('#');
    return at === -1 ? url : url.slice(0, at + 1) + lenientDecode(url.slice(at + 1));
  };
  const truthFragments = new Set(truth.missingFragments.map((f) => decoded(f.url + f.fragment)));
  const lcFragments = new Set([...lc.fragments].map(decoded));
  return {
    links: {
      missed: [...truthUrls].filter((url) => !lc.broken.has(url)),
      false: http.filter((url) => !truthUrls.has(url)),
    },
    otherSchemes: reported.filter((url) => !/^https?:/i.test(url)),
    fragments: options['linkchecker-anchors']
      ? {
          missed: [...truthFragments].filter((f) => !lcFragments.has(f)),
          false: [...lcFragments].filter((f) => !truthFragments.has(f)),
        }
      : null,
    origin,
  };
}

/** WHATWG percent-decoding (a % without two hex digits stays), read as UTF-8. */
function lenientDecode(text) {
  const bytes = Buffer.from(
    text.replace(/%([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

const seconds = (ms) => (ms / 1000).toFixed(2);
const exactness = (judged) =>
  `${judged.missed.length}/${judged.false.length}` +
  (judged.wrongCounts ? `/${judged.wrongCounts.length}` : '');

async function benchSite(site, outDir) {
  const files = filesWithFaults(site, site.installed);
  const served = await serveSite(files, { headers: { LinkChecker: 'allow' } });
  try {
    const started = performance.now();
    const truth = deriveTruth(files, { origin: served.origin, start: site.start });
    const truthMs = performance.now() - started;
    const url = served.url(site.start);
    const timeoutMs = Number(options.timeout) * 1000;
    const result = { site: site.name, package: site.package, truthMs, truth: summaryOf(truth) };

    const ourOut = path.join(outDir, `${site.name}.ours.json`);
    const ourRun = await runMeasured('/bin/sh', ourCommand(url, served.origin, ourOut), {
      timeoutMs,
      stdoutFile: path.join(outDir, `${site.name}.ours.stdout`),
      stderrFile: path.join(outDir, `${site.name}.ours.stderr`),
    });
    const ours = existsSync(ourOut) ? readOurs(ourOut, served.origin) : null;
    result.ours = {
      run: ourRun,
      found: ours && { ...ours, broken: undefined, fragments: undefined },
    };
    if (ours) result.ours.judged = judgeOurs(ours, truth);

    if (!options['no-linkchecker']) {
      const lcOut = path.join(outDir, `${site.name}.linkchecker.csv`);
      const lcRun = await runMeasured(
        'linkchecker',
        linkcheckerCommand(url, served.origin, linkcheckerConfig(served.origin)),
        { timeoutMs, stdoutFile: lcOut, stderrFile: path.join(outDir, `${site.name}.lc.stderr`) },
      );
      const lc = readLinkchecker(lcOut);
      result.linkchecker = {
        run: lcRun,
        urls: lc.urls,
        judged: judgeLinkchecker(lc, truth, served.origin),
      };
    }
    return result;
  } finally {
    await served.close();
  }
}

function summaryOf(truth) {
  return {
    pages: truth.pages.length,
    links: truth.totalLinks,
    // URLs fetched: an unparseable address or a missing attribute is broken without a request
    urls:
      truth.outcomes.filter((o) => o.state === 'ok').length +
      truth.broken.filter((entry) => typeof entry.statusCode === 'number').length,
    broken: truth.broken.length,
    brokenFragments: truth.missingFragments.length,
  };
}

function printRow(result) {
  const { truth, ours, linkchecker } = result;
  const run = (r) =>
    `${seconds(r.wallMs)} | ${seconds(r.cpuMs)} | ${Math.round(r.peakRssMb)}` +
    (r.timedOut ? ' (timed out)' : '');
  const ourCells = ours.judged
    ? `${ours.found.pages} | ${ours.found.urls} | ${exactness(ours.judged.links)} | ${exactness(ours.judged.fragments)} | ${run(ours.run)}`
    : `— | — | no report | — | ${run(ours.run)}`;
  const lcCells = linkchecker
    ? `${linkchecker.urls} | ${exactness(linkchecker.judged.links)} | ${linkchecker.judged.fragments ? exactness(linkchecker.judged.fragments) : 'off'} | ${run(linkchecker.run)}`
    : '— | — | — | —';
  console.log(
    `| ${result.site} | ${truth.pages} | ${truth.urls} | ${truth.broken} | ${truth.brokenFragments} | ${ourCells} | ${lcCells} |`,
  );
}

async function main() {
  if (!existsSync(OUR_CLI)) throw new Error('the CLI is not built: npm run build:ts');
  const wanted = options.sites?.split(',');
  const chosen = sites.filter((site) => !wanted || wanted.includes(site.name));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = path.join(RESULTS_DIR, `corpus-${stamp}`);
  mkdirSync(outDir, { recursive: true, mode: 0o777 });
  console.log(
    '| site | pages | URLs | broken | broken fragments | ours: pages | URLs | links missed/false/wrong counts | fragments missed/false/wrong counts | wall s | CPU s | peak RSS MB | linkchecker: URLs | links missed/false | fragments missed/false | wall s | CPU s | peak RSS MB |',
  );
  console.log(`|${' --- |'.repeat(19)}`);
  const results = [];
  for (const site of chosen) {
    if (!existsSync(site.installed)) {
      console.log(`| ${site.name} | not installed: apt-get install ${site.package} |`);
      continue;
    }
    const result = await benchSite(site, outDir);
    results.push(result);
    printRow(result);
  }
  writeFileSync(`${outDir}.json`, JSON.stringify({ options, results }, null, 2));
  console.log(
    `\nDetails (every missed and false finding): ${path.relative(process.cwd(), outDir)}.json`,
  );
}

try {
  await main();
} finally {
  killAllChildren();
}

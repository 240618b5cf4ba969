// Turning raw runs into the comparison the issue asks for: broken found vs the truth, the
// printed table, the ratios and the goals for our CLI.

const LISTED = 50; // missed / false URLs kept in the results file per run

// A URL as the truth writes it: the path (and query) on the site's origin, fragment dropped,
// since fragment checking is off by default; anything on another origin stays absolute.
export function normaliseUrl(url, origin) {
  const parsed = new URL(url, origin);
  parsed.hash = '';
  return parsed.origin === new URL(origin).origin ? parsed.pathname + parsed.search : parsed.href;
}

// `expectRedirected`: whether links whose redirect ends at a missing page count as expected.
export function compareBroken(brokenUrls, truth, origin, expectRedirected = true) {
  const found = new Set(brokenUrls.map((url) => normaliseUrl(url, origin)));
  const expected = new Set(
    Object.entries(truth.broken)
      .filter(([, entry]) => expectRedirected || !entry.redirected)
      .map(([url]) => url),
  );
  const missed = [...expected].filter((url) => !found.has(url));
  const falseBroken = [...found].filter((url) => !expected.has(url));
  return {
    brokenFound: found.size,
    brokenExpected: expected.size,
    missed: missed.length,
    falseBroken: falseBroken.length,
    missedUrls: missed.slice(0, LISTED),
    falseBrokenUrls: falseBroken.slice(0, LISTED),
  };
}

const COLUMNS = [
  ['pages', 7, (r) => r.pages],
  ['tool', 11, (r) => r.tool],
  ['wall s', 8, (r) => (r.wallMs / 1000).toFixed(2)],
  ['CPU s', 7, (r) => (r.cpuMs / 1000).toFixed(2)],
  ['peak RSS MB', 12, (r) => r.peakRssMb.toFixed(0)],
  ['URLs', 7, (r) => r.urls ?? '?'],
  ['URLs/s', 8, (r) => (r.urls ? Math.round(r.urls / (r.wallMs / 1000)) : '?')],
  ['broken found/truth', 19, (r) => `${r.brokenFound}/${r.brokenExpected}`],
  ['missed', 7, (r) => r.missed],
  ['false', 6, (r) => r.falseBroken],
];

function line(cells) {
  return cells.map((cell, i) => String(cell).padStart(COLUMNS[i][1])).join(' ');
}

export function printTable(results) {
  console.log(`\n${line(COLUMNS.map(([title]) => title))}`);
  for (const row of results) {
    if (row.skipped || row.error) {
      console.log(
        `${line(COLUMNS.slice(0, 2).map(([, , get]) => get(row)))}  ${row.skipped ?? row.error}`,
      );
    } else {
      console.log(line(COLUMNS.map(([, , get]) => get(row))));
    }
  }
  for (const row of results.filter((r) => r.processes > 1 && !r.error)) {
    console.log(
      `(${row.tool} at ${row.pages}: peak RSS summed over its ${row.processes} processes, ` +
        `the largest ${row.largestProcessRssMb.toFixed(0)} MB)`,
    );
  }
  console.log(
    '(time and RSS: the median run; CPU: the median; broken found, missed and false: the worst run)\n' +
      '(the plain loop does not follow redirects: its truth leaves out redirects to missing pages)',
  );
}

function completed(results, pages, tool) {
  return results.find((r) => r.pages === pages && r.tool === tool && !r.skipped && !r.error);
}

function ratio(a, b) {
  return {
    of: `${a.tool} / ${b.tool}`,
    pages: a.pages,
    time: a.wallMs / b.wallMs,
    cpu: a.cpuMs / b.cpuMs,
    rss: a.peakRssMb / b.peakRssMb,
  };
}

// ours / plain loop and linkinator / ours per size; linkinator / plain while ours is missing.
export function printRatios(results, sizes) {
  const ratios = [];
  for (const pages of sizes) {
    const [ours, plain, linkinator] = ['ours', 'plain', 'linkinator'].map((tool) =>
      completed(results, pages, tool),
    );
    if (ours && plain) ratios.push(ratio(ours, plain));
    if (linkinator && ours) ratios.push(ratio(linkinator, ours));
    if (linkinator && plain && !ours) ratios.push(ratio(linkinator, plain));
  }
  if (ratios.length) console.log('');
  for (const r of ratios) {
    console.log(
      `${String(r.pages).padStart(7)} ${r.of.padEnd(20)} time ×${r.time.toFixed(2)}  CPU ×${r.cpu.toFixed(2)}  peak RSS ×${r.rss.toFixed(2)}`,
    );
  }
  return ratios;
}

// The goals for our CLI: exact findings everywhere; from 10,000 pages on, at most twice the
// plain loop's time, wall time at most 1.3× its CPU time (no tail of waiting: slow, dropping
// and unresolvable URLs are dealt with while the crawl goes on) and under 250 MB peak RSS.
export function goalChecks(results) {
  const goals = [];
  for (const ours of results.filter((r) => r.tool === 'ours' && !r.skipped && !r.error)) {
    goals.push({ pages: ours.pages, goal: 'no missed broken links', ok: ours.missed === 0 });
    goals.push({ pages: ours.pages, goal: 'no false broken links', ok: ours.falseBroken === 0 });
    const plain = completed(results, ours.pages, 'plain');
    if (ours.pages >= 10_000 && plain) {
      const time = ours.wallMs / plain.wallMs;
      goals.push({ pages: ours.pages, goal: 'time ≤ 2× plain loop', ok: time <= 2, value: time });
      const tail = ours.wallMs / ours.cpuMs;
      goals.push({ pages: ours.pages, goal: 'wall ≤ 1.3× CPU', ok: tail <= 1.3, value: tail });
      goals.push({
        pages: ours.pages,
        goal: 'peak RSS < 250 MB',
        ok: ours.peakRssMb < 250,
        value: ours.peakRssMb,
      });
    }
  }
  if (goals.length) console.log('');
  for (const g of goals) {
    const value = g.value === undefined ? '' : ` (${g.value.toFixed(2)})`;
    console.log(`${g.ok ? 'PASS' : 'FAIL'} ${String(g.pages).padStart(7)} ${g.goal}${value}`);
  }
  return goals;
}

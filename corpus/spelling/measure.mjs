// Spelling recall and precision on real pages (issue 37): the pages of site/ are read as one
// site by one rule runner with every misspelling rule, as a scan would (the site's vocabulary
// is learnt over its pages), and each distinct (page, word) found is compared with truth.json,
// where every misspelling of the pages is listed: those the pages have (`misspelt`), those
// planted into real sentences (`planted`: misspelling → the word it replaced), and the unknown
// words found that are no misspellings (`notMisspelt`, with why). A found word not listed at all
// counts as a false alarm.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const siteRoot = path.join(here, 'site');
/** Every rule that reports a misspelt word (body, title, heading, link, alt, meta, form, tooltip). */
export const misspellingRules = [2001, 2004, 2005, 2006, 2007, 2008, 2009, 2010];

/** The page as a browser decodes it: its declared charset (Latin-1 here) or UTF-8. */
function decode(bytes) {
  const head = bytes.subarray(0, 1024).toString('latin1');
  return /charset=["']?(?:iso-8859-1|latin1)/i.test(head)
    ? bytes.toString('latin1')
    : bytes.toString('utf8');
}

/** Distinct `page word` (word in lower case) of every misspelling finding on the site. */
export function findMisspellings(createRuleRunner) {
  const runner = createRuleRunner({ selectedRules: misspellingRules });
  const origin = 'http://spelling.test/';
  const violations = [];
  for (const file of readdirSync(siteRoot).sort()) {
    const bytes = readFileSync(path.join(siteRoot, file));
    violations.push(
      ...runner.checkPage({
        url: origin + file,
        statusCode: 200,
        headers: { 'content-type': 'text/html' },
        contentType: 'text/html',
        html: decode(bytes),
        bytes: bytes.length,
        compressed: false,
        redirects: [],
        isStartPage: false,
      }),
    );
  }
  violations.push(...runner.finishSite());
  const found = new Set();
  for (const { url, message } of violations) {
    const word = /"(.*)"/.exec(message ?? '')?.[1]?.toLowerCase();
    if (word) found.add(`${url.slice(origin.length)} ${word}`);
  }
  return found;
}

/** Every labelled misspelling as `page word`, and the labelled false alarms. */
export function readTruth() {
  const truth = JSON.parse(readFileSync(path.join(here, 'truth.json'), 'utf8'));
  const misspelt = new Set();
  const notMisspelt = new Set();
  for (const [page, labels] of Object.entries(truth)) {
    for (const word of labels.misspelt ?? []) misspelt.add(`${page} ${word}`);
    for (const word of Object.keys(labels.planted ?? {})) misspelt.add(`${page} ${word}`);
    for (const word of Object.keys(labels.notMisspelt ?? {})) notMisspelt.add(`${page} ${word}`);
  }
  return { misspelt, notMisspelt };
}

/** Precision and recall of the misspelling rules on the corpus. */
export function measureSpelling(createRuleRunner) {
  const found = findMisspellings(createRuleRunner);
  const { misspelt } = readTruth();
  const right = [...found].filter((key) => misspelt.has(key));
  const wrong = [...found].filter((key) => !misspelt.has(key));
  const missed = [...misspelt].filter((key) => !found.has(key));
  return {
    pages: readdirSync(siteRoot).length,
    labelled: misspelt.size,
    found: found.size,
    right: right.length,
    wrong,
    missed,
    precision: found.size === 0 ? 0 : right.length / found.size,
    recall: right.length / misspelt.size,
  };
}

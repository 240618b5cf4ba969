// The quality rules' precision on real pages (issue 25): every page of the corpus slices and a
// few pages of Vim's HTML help (corpus/precision/vim), each site scanned by one rule runner with
// every built-in rule, as a scan would (the spelling rules learn the site's vocabulary over its
// pages). Every finding was labelled by hand once, reading the page source, as a real defect or
// a false alarm (corpus/precision/truth.json, per page, per rule). The test fails when a rule's
// precision (labelled-real findings among all its findings; a finding nobody labelled counts as
// false) falls below 95 %, or when a finding labelled real is no longer reported.
//
// To label new findings after a rule changes: `PRECISION_WRITE=1 npx vitest run
// corpus/rule-precision.test.ts` adds them to truth.json with `"real": null`; read each in its
// page and set true or false (and `why` for a false one).
import { createRuleRunner, ruleCatalogue, type RuleViolation } from '@linkaudit/engine/rules';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const truthFile = path.join(here, 'precision', 'truth.json');
const minimumPrecision = 0.95;

interface Labelled {
  line: number;
  column: number;
  message: string;
  /** A real defect (true), a false alarm (false), not labelled yet (null). */
  real: boolean | null;
  why?: string;
  /**
   * A real defect the rule does not find, and why (a slip two edits away, a capitalised word
   * taken for a name): kept so the gap stays visible, and counted as found once it is reported.
   */
  missed?: string;
}
/** Page ("site/path") → rule id → findings. */
type Truth = Record<string, Record<string, Labelled[]>>;

interface Site {
  name: string;
  root: string;
}

const sites: Site[] = [
  ...readdirSync(path.join(here, 'sites'))
    .sort()
    .map((name) => ({ name, root: path.join(here, 'sites', name, 'site') })),
  { name: 'vim', root: path.join(here, 'precision', 'vim') },
];

function htmlFiles(root: string, under = ''): string[] {
  return readdirSync(path.join(root, under), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const relative = path.posix.join(under, entry.name);
      if (entry.isDirectory()) return htmlFiles(root, relative);
      return entry.name.endsWith('.html') ? [relative] : [];
    });
}

/** The page as a browser decodes it: its declared charset (Latin-1 here) or UTF-8. */
function decode(bytes: Buffer): string {
  const head = bytes.subarray(0, 1024).toString('latin1');
  return /charset=["']?(?:iso-8859-1|latin1|windows-1252)/i.test(head)
    ? bytes.toString('latin1')
    : bytes.toString('utf8');
}

const allRules = ruleCatalogue().map((rule) => rule.linkAuditorRuleID);

/** Every finding of a site's pages and of the site as a whole, keyed by page. */
function scanSite(site: Site): Map<string, RuleViolation[]> {
  const runner = createRuleRunner({ selectedRules: allRules });
  const origin = `http://${site.name}.test/`;
  const byPage = new Map<string, RuleViolation[]>();
  const pageOf = (url: string) => `${site.name}/${url.slice(origin.length)}`;
  const files = htmlFiles(site.root);
  for (const file of files) {
    const bytes = readFileSync(path.join(site.root, file));
    const violations = runner.checkPage({
      url: origin + file,
      statusCode: 200,
      // As nginx serves a static file with its defaults (static-site.mjs): validators, no gzip.
      headers: {
        'content-type': 'text/html',
        etag: '"65a1b2c3-1f40"',
        'last-modified': 'Tue, 06 Jun 2023 10:00:00 GMT',
      },
      contentType: 'text/html',
      html: decode(bytes),
      bytes: bytes.length,
      compressed: false,
      redirects: [],
      isStartPage: file === files[0],
    });
    byPage.set(pageOf(origin + file), violations);
  }
  for (const violation of runner.finishSite()) byPage.get(pageOf(violation.url))?.push(violation);
  return byPage;
}

const keyOf = (finding: { line: number; column: number; message?: string }) =>
  `${finding.line}:${finding.column} ${finding.message ?? ''}`;

function readTruth(): Truth {
  try {
    return JSON.parse(readFileSync(truthFile, 'utf8')) as Truth;
  } catch {
    return {};
  }
}

describe('quality rules on real pages: precision against hand-labelled findings', () => {
  const truth = readTruth();
  const found = new Map<string, Map<string, RuleViolation[]>>();
  for (const site of sites) {
    for (const [page, violations] of scanSite(site)) {
      const rules = new Map<string, RuleViolation[]>();
      for (const violation of violations) {
        const rule = String(violation.ruleId);
        rules.set(rule, [...(rules.get(rule) ?? []), violation]);
      }
      found.set(page, rules);
    }
  }

  if (process.env.PRECISION_WRITE) {
    it('writes the findings to label into truth.json', () => {
      const next: Truth = {};
      for (const [page, rules] of found) {
        for (const [rule, violations] of [...rules].sort((a, b) => Number(a[0]) - Number(b[0]))) {
          const labels = new Map((truth[page]?.[rule] ?? []).map((entry) => [keyOf(entry), entry]));
          (next[page] ??= {})[rule] = violations.map((violation) => {
            const known = labels.get(keyOf(violation));
            return (
              known ?? {
                line: violation.line,
                column: violation.column,
                message: violation.message ?? '',
                real: null,
              }
            );
          });
        }
        // Labelled real findings no longer reported stay, so the test below shows them lost.
        for (const [rule, entries] of Object.entries(truth[page] ?? {})) {
          const kept = ((next[page] ??= {})[rule] ??= []);
          for (const entry of entries) {
            if (entry.real === true && !kept.some((other) => keyOf(other) === keyOf(entry)))
              kept.push(entry);
          }
        }
      }
      writeFileSync(truthFile, `${JSON.stringify(next, null, 1)}\n`);
      expect(Object.keys(next).length).toBeGreaterThan(0);
    });
    return;
  }

  it('reads every page of the corpus and has labels for them', () => {
    expect(found.size).toBeGreaterThan(90);
    expect(Object.keys(truth).length).toBeGreaterThan(50);
  });

  it('keeps every finding labelled real', () => {
    const lost: string[] = [];
    for (const [page, rules] of Object.entries(truth)) {
      for (const [rule, entries] of Object.entries(rules)) {
        const now = new Set((found.get(page)?.get(rule) ?? []).map(keyOf));
        for (const entry of entries) {
          if (entry.real === true && entry.missed === undefined && !now.has(keyOf(entry)))
            lost.push(`${rule} ${page} ${keyOf(entry)}`);
        }
      }
    }
    expect(lost).toEqual([]);
  });

  it(`keeps every rule's precision at ${minimumPrecision * 100} % or more`, () => {
    const perRule = new Map<string, { real: number; all: number; wrong: string[] }>();
    for (const [page, rules] of found) {
      for (const [rule, violations] of rules) {
        const labels = new Map((truth[page]?.[rule] ?? []).map((entry) => [keyOf(entry), entry]));
        const tally = perRule.get(rule) ?? { real: 0, all: 0, wrong: [] };
        perRule.set(rule, tally);
        for (const violation of violations) {
          tally.all++;
          const label = labels.get(keyOf(violation));
          if (label?.real === true) tally.real++;
          else
            tally.wrong.push(
              `${page} ${keyOf(violation)} (${label ? 'false alarm' : 'unlabelled'})`,
            );
        }
      }
    }
    const below = [...perRule]
      .filter(([, tally]) => tally.real / tally.all < minimumPrecision)
      .map(([rule, tally]) => ({
        rule,
        precision: `${tally.real}/${tally.all}`,
        examples: tally.wrong.slice(0, 5),
      }));
    expect(below).toEqual([]);
  });
});

// How a batch's findings cross from the rule worker to the crawl's thread: as columns, not as an
// object per finding. The structured clone writes every property name of every object again
// and the receiving thread rebuilds each object property by property. On the 10,000-page bench
// site (142,000 findings) the columns were cloned and rebuilt in half the time (~120 → ~60 ms),
// and the crawl's thread, which receives them, made a third less garbage.
import type { PageFinding } from './rule-types.js';

/** One page's answer: its findings, or why the rules failed on it. */
export type Outcome = { findings: PageFinding[] } | { error: string };

/** The findings of a batch of pages, in page order. */
export interface BatchFindings {
  /** Per page: how many findings it has, or -1 when the rules failed on it. */
  counts: Int32Array<ArrayBuffer>;
  /** Per finding: rule id, line, column. */
  numbers: Int32Array<ArrayBuffer>;
  snippets: string[];
  /** Per finding: its message, or '' when it has none (no finding has an empty one). */
  messages: string[];
  /** Per failed page, in page order: what went wrong. */
  errors: string[];
}

const failed = -1;

export function packFindings(outcomes: readonly Outcome[]): BatchFindings {
  let total = 0;
  for (const outcome of outcomes) if ('findings' in outcome) total += outcome.findings.length;
  const batch: BatchFindings = {
    counts: new Int32Array(outcomes.length),
    numbers: new Int32Array(total * 3),
    snippets: new Array<string>(total),
    messages: new Array<string>(total),
    errors: [],
  };
  let at = 0;
  for (const [page, outcome] of outcomes.entries()) {
    if ('error' in outcome) {
      batch.counts[page] = failed;
      batch.errors.push(outcome.error);
      continue;
    }
    batch.counts[page] = outcome.findings.length;
    for (const finding of outcome.findings) {
      batch.numbers[at * 3] = finding.ruleId;
      batch.numbers[at * 3 + 1] = finding.line;
      batch.numbers[at * 3 + 2] = finding.column;
      batch.snippets[at] = finding.snippet;
      batch.messages[at] = finding.message ?? '';
      at++;
    }
  }
  return batch;
}

export function unpackFindings(batch: BatchFindings): Outcome[] {
  const { counts, numbers, snippets, messages, errors } = batch;
  const outcomes: Outcome[] = [];
  let at = 0;
  let error = 0;
  for (const count of counts) {
    if (count === failed) {
      outcomes.push({ error: errors[error++]! });
      continue;
    }
    const findings: PageFinding[] = [];
    for (const end = at + count; at < end; at++) {
      const finding: PageFinding = {
        ruleId: numbers[at * 3]!,
        line: numbers[at * 3 + 1]!,
        column: numbers[at * 3 + 2]!,
        snippet: snippets[at]!,
      };
      if (messages[at]) finding.message = messages[at];
      findings.push(finding);
    }
    outcomes.push({ findings });
  }
  return outcomes;
}

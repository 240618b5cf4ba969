// The English spell checker. nspell builds it from the Hunspell files by expanding every word of
// the dictionary with its affixes: about a third of a second and a gigainstruction, paid by
// every scan that checks spelling (each scan's rules run in a fresh worker). The build writes
// the expanded word list next to this module once (`npm run build:ts`), and a scan loads that
// snapshot into nspell instead, in a fraction of the time. Without a snapshot, or with one made
// from other dictionary files, nspell builds the checker as before: same answers, only slower.
import dictionary from 'dictionary-en';
import nspell from 'nspell';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

export type Checker = ReturnType<typeof nspell>;

/** The parts of nspell's state that `correct` reads and the snapshot restores. */
interface CheckerState {
  /** Every known word form and its Hunspell flags (one character each in this dictionary). */
  data: Record<string, readonly string[]>;
  /** Rules for compounds such as ordinals (1st, 22nd), built from the dictionary's words. */
  compoundRules: RegExp[];
  compoundRuleCodes: Record<string, string[]>;
}

const defaultSnapshotFile = new URL('./dictionary-en.snapshot', import.meta.url);

/** Which dictionary files a snapshot was made from. */
function sourceDigest(): string {
  return createHash('sha256').update(dictionary.aff).update(dictionary.dic).digest('hex');
}

/** The checker as nspell builds it from the Hunspell files. */
export function buildChecker(): Checker {
  return nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) });
}

/**
 * A checker's word list as text: a header line (the source digest and the compound rules), then
 * the words and their flags as one JSON object, which JSON.parse restores faster than any loop
 * over the words (a fifth of nspell's time).
 */
export function snapshotOf(checker: Checker, digest = sourceDigest()): string {
  const state = checker as unknown as CheckerState;
  const header = {
    digest,
    compoundRules: state.compoundRules.map((rule) => rule.source),
    compoundRuleCodes: state.compoundRuleCodes,
  };
  return `${JSON.stringify(header)}\n${JSON.stringify(state.data)}\n`;
}

/** A checker restored from a snapshot, or undefined when it was made from other files. */
export function checkerFromSnapshot(text: string, digest = sourceDigest()): Checker | undefined {
  const headerEnd = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, headerEnd)) as {
    digest: string;
    compoundRules: string[];
    compoundRuleCodes: Record<string, string[]>;
  };
  if (header.digest !== digest) return undefined;
  // The affix file alone is parsed in a millisecond; the words come from the snapshot.
  const checker = nspell({ aff: Buffer.from(dictionary.aff) });
  const state = checker as unknown as CheckerState;
  const data = JSON.parse(text.slice(headerEnd + 1)) as CheckerState['data'];
  // As nspell's own table: no prototype, so "constructor" or "toString" is no word it knows.
  Object.setPrototypeOf(data, null);
  state.data = data;
  state.compoundRules = header.compoundRules.map((source) => new RegExp(source, 'i'));
  state.compoundRuleCodes = header.compoundRuleCodes;
  return checker;
}

/** Writes the snapshot the checker is loaded from (the build runs this once). */
export function writeSnapshot(file: URL | string = defaultSnapshotFile): void {
  writeFileSync(file, snapshotOf(buildChecker()));
}

/** The checker from the build's snapshot when it matches the dictionary files, else built. */
export function loadChecker(file: URL | string = defaultSnapshotFile): Checker {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return buildChecker(); // no snapshot (the tests run the sources)
  }
  return checkerFromSnapshot(text) ?? buildChecker();
}

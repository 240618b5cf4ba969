import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildChecker,
  checkerFromSnapshot,
  loadChecker,
  snapshotOf,
  writeSnapshot,
} from './dictionary.js';

const built = buildChecker();
const snapshot = snapshotOf(built, 'digest-of-these-files');
const words = Object.keys((built as unknown as { data: Record<string, unknown> }).data);

/** Every word form of the dictionary as written, capitalised and in capitals, and some others. */
function probes(): string[] {
  const variants = words.flatMap((word) => [
    word,
    word.charAt(0).toUpperCase() + word.slice(1),
    word.toUpperCase(),
    word.toLowerCase(),
  ]);
  const others = ['recieve', 'teh', 'Wednesdya', 'accomodate', 'definately', 'colour', 'aluminium'];
  const objectKeys = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'];
  const numbers = ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st'];
  const wrongNumbers = ['1th', '2st', '11st', '12nd', '21th', '3th'];
  return [
    ...variants,
    ...others,
    ...objectKeys,
    ...numbers,
    ...wrongNumbers,
    "don't",
    'DON’T',
    'NASA',
    'nasa',
  ];
}

describe('the English dictionary snapshot', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'linkaudit-dictionary-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('answers every word exactly as the checker nspell builds', () => {
    const restored = checkerFromSnapshot(snapshot, 'digest-of-these-files')!;
    const list = probes();
    expect(list.length).toBeGreaterThan(400_000);
    const differing = list.filter((word) => restored.correct(word) !== built.correct(word));
    expect(differing).toEqual([]);
    // The probes hold both answers, so the comparison above can fail either way.
    expect(list.filter((word) => built.correct(word)).length).toBeGreaterThan(100_000);
    expect(['teh', '21th', 'recieve'].map((word) => restored.correct(word))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('is not used when it was made from other dictionary files', () => {
    expect(checkerFromSnapshot(snapshot, 'digest-of-other-files')).toBeUndefined();
  });

  it('is written by the build and loaded by a scan, which builds the checker without one', () => {
    const file = path.join(folder, 'dictionary-en.snapshot');
    expect(loadChecker(file).correct('gardening')).toBe(true); // no file yet: built
    writeSnapshot(file);
    const loaded = loadChecker(file);
    expect(loaded.correct('gardening')).toBe(true);
    expect(loaded.correct('gardning')).toBe(false);
    expect(loaded).not.toBe(built);
  });
});

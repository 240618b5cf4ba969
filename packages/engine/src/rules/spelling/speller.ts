import dictionary from 'dictionary-en';
import nspell from 'nspell';
import { ChunkReader, normalizeApostrophes } from './chunks.js';

type Checker = ReturnType<typeof nspell>;

// One dictionary per process: building it takes about 160 ms and 20 MB, and it never changes.
let english: Checker | undefined;
function englishChecker(): Checker {
  return (english ??= nspell({
    aff: Buffer.from(dictionary.aff),
    dic: Buffer.from(dictionary.dic),
  }));
}

/** The English (US Hunspell) spell checker of one scan, with the scan's own accepted words. */
export class Speller {
  private readonly ignored: ReadonlySet<string>;
  /** Chunks of prose read with this speller, remembered for the whole scan. */
  readonly chunks = new ChunkReader(this);

  constructor(ignore: readonly string[]) {
    this.ignored = new Set(ignore.map((word) => normalizeApostrophes(word.trim()).toLowerCase()));
  }

  isCorrect(word: string): boolean {
    return this.ignored.has(word.toLowerCase()) || englishChecker().correct(word);
  }
}

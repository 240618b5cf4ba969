import { ChunkReader, normalizeApostrophes } from './chunks.js';
import { loadChecker, type Checker } from './dictionary.js';
import { SiteVocabulary } from './vocabulary.js';

// One dictionary per process (about 20 MB), loaded on first use; it never changes.
let english: Checker | undefined;
function englishChecker(): Checker {
  return (english ??= loadChecker());
}

/** The English (US Hunspell) spell checker of one scan, with the scan's own accepted words. */
export class Speller {
  private readonly ignored: ReadonlySet<string>;
  /** Chunks of prose read with this speller, remembered for the whole scan. */
  readonly chunks = new ChunkReader(this);
  /** The site's own terms, learnt as the scan reads its pages, and the findings held for them. */
  readonly vocabulary = new SiteVocabulary();

  constructor(ignore: readonly string[]) {
    this.ignored = new Set(ignore.map((word) => normalizeApostrophes(word.trim()).toLowerCase()));
  }

  isCorrect(word: string): boolean {
    return this.ignored.has(word.toLowerCase()) || englishChecker().correct(word);
  }
}

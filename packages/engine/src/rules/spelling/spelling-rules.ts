import type { BuiltInRule } from '../built-in-rule.js';
import { articleMismatch, confusedWords, lowercaseI, repeatedWord } from './grammar.js';
import { misspellingRules } from './misspellings.js';

/** Category 2, Spellcheck. */
export const spellingRules: readonly BuiltInRule[] = [
  ...misspellingRules,
  repeatedWord,
  confusedWords,
  articleMismatch,
  lowercaseI,
];

import type { PageRule } from '../built-in-rule.js';
// Mistakes of correctly spelt words, found by the same pass as unknown words (prose.ts).
import { RuleCategory } from '@linkaudit/core';
import { proseFindings, type ProseKind } from './prose.js';

function proseRule(kind: ProseKind, info: Omit<PageRule, 'category' | 'check'>): PageRule {
  return {
    ...info,
    category: RuleCategory.Spellcheck,
    check(page, report) {
      for (const finding of proseFindings(page)) {
        if (finding.kind === kind)
          report({ start: finding.start, end: finding.start + 120 }, finding.message);
      }
    },
  };
}

export const repeatedWord = proseRule('repeated', {
  id: 2002,
  slug: 'spelling/repeated-word',
  name: 'Repeated word',
  note: 'The same word is written twice in a row ("the the", "The the"). Leaves alone a word beside its upper-case keyword ("or OR", "AND and"), good doubles ("had had"), words split by punctuation or markup, and code.',
  prompt: 'Delete the repeated word.',
});

export const confusedWords = proseRule('confused', {
  id: 2003,
  slug: 'spelling/confused-words',
  name: 'Commonly confused words',
  note: 'A phrase is a common slip for another one ("should of" for "should have", "alot"). Leaves alone "could of course", "must of course" and the like, and code.',
  prompt: 'Replace the phrase with the one suggested.',
});

export const articleMismatch = proseRule('article', {
  id: 2011,
  slug: 'spelling/article-mismatch',
  name: 'Wrong article (a/an)',
  note: '"a" stands before a vowel ("a apple"), "an" before a consonant ("an car"), or either before another determiner ("an the": delete it, or "and the" was meant). Leaves alone a letter naming something ("A is", "a and b"), words not in the dictionary or not in lower case ("an FAQ"), and code.',
  prompt: 'Use "an" before a vowel sound and "a" before a consonant sound.',
});

export const lowercaseI = proseRule('pronoun', {
  id: 2012,
  slug: 'spelling/lowercase-i',
  name: 'Lower-case "i" as a pronoun',
  note: 'The pronoun I is written in lower case ("i think", "i\u2019m").',
  prompt: 'Write the pronoun as a capital I.',
});

// Links people can understand and trust.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, collapse, hasLabelAttribute, isInCode, isInSvg, textOf, tokens } from '../dom.js';
import { hasAccessibleName } from './accessible-name.js';

// Texts that say nothing about where a link goes (after lower-casing and dropping punctuation).
const vagueTexts = new Set([
  'click',
  'click here',
  'click this',
  'go',
  'here',
  'info',
  'information',
  'learn more',
  'link',
  'more',
  'more info',
  'more information',
  'read more',
  'right here',
  'see more',
  'start',
  'this',
  'this link',
  'this page',
]);
const longestVagueText = Math.max(...[...vagueTexts].map((text) => text.length));

export const vagueLinkText: PageRule = {
  id: 5004,
  slug: 'ux/vague-link-text',
  name: 'Vague link text',
  category: RuleCategory.UserExperience,
  note: 'A link reads like "click here" or "read more", which says nothing out of context. Leaves alone links inside code (`pre`, `code`, a code class) and texts marked as names by code punctuation (`:!start`, `\'more\'`): there "go" or "more" is a command or an option.',
  prompt: 'Make the link text say where it goes, e.g. "Download the 2024 price list".',
  check(page, report) {
    for (const link of page.all('a')) {
      if (link.attribs.href === undefined || hasLabelAttribute(link)) continue;
      const raw = textOf(link, longestVagueText * 3);
      if (raw.length > longestVagueText * 3) continue; // most links: no need to normalise
      const text = collapse(raw).toLowerCase();
      const vague =
        vagueTexts.has(text) ||
        (mayBeVague(text) && !codePunctuation.test(text) && vagueTexts.has(bareText(text)));
      // (Whether it sits in code is asked last: few links get this far.)
      if (vague && !isInCode(link)) report(link, `Link text "${collapse(raw)}"`);
    }
  },
};

// Punctuation that makes a word a name in code or a command (`:!start`, `'more'`, `<go>`; not "!", which ends sentences).
const codePunctuation = /['"`:|<{}$=/\\]/;

/** The words of a text without its punctuation: "» read more…" → "read more". */
function bareText(text: string): string {
  return text.replace(/[^\p{L}\p{N} ]/gu, '').trim();
}

/**
 * Whether the bare text of a lower-case, collapsed text could be a vague one that the text
 * itself is not, decided without building it (most link texts are no vague text at all). The
 * vague texts are ASCII letters and spaces, so a digit or more letters than the longest of them
 * rule it out, and so does a text of nothing but such letters and spaces: stripping leaves it
 * as it is. Other scripts and non-ASCII punctuation leave it to bareText.
 */
function mayBeVague(text: string): boolean {
  let letters = 0;
  let strippable = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 0x80) return true;
    if (code >= 0x30 && code <= 0x39) return false;
    if (code >= 0x61 && code <= 0x7a) {
      if (++letters > longestVagueText) return false;
    } else if (code !== 0x20) {
      strippable = true;
    }
  }
  return letters > 0 && strippable;
}

export const emptyLink: PageRule = {
  id: 5005,
  slug: 'ux/empty-link',
  name: 'Link without text',
  category: RuleCategory.UserExperience,
  note: 'A link has no text, no image alt text and no label, so screen readers announce only "link".',
  prompt: 'Add link text, alt text to the image inside it, or an aria-label.',
  check(page, report) {
    for (const link of page.all('a')) {
      if (link.attribs.href !== undefined && !isInSvg(link) && !hasAccessibleName(link)) {
        report(link);
      }
    }
  },
};

export const targetBlankNoopener: PageRule = {
  id: 5007,
  slug: 'ux/target-blank-noopener',
  name: 'New window without rel="noopener"',
  category: RuleCategory.UserExperience,
  note: 'A link opens a new window (target="_blank") without rel="noopener", so the new page can control this one in older browsers.',
  prompt: 'Add rel="noopener" (or "noreferrer") to links with target="_blank".',
  check(page, report) {
    for (const link of [...page.all('a'), ...page.all('area')]) {
      if (attr(link, 'target')?.toLowerCase() !== '_blank' || link.attribs.href === undefined) {
        continue;
      }
      const rel = tokens(link, 'rel');
      if (!rel.includes('noopener') && !rel.includes('noreferrer')) report(link);
    }
  },
};

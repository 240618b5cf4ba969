import type { BuiltInRule, PageRule } from '../built-in-rule.js';
import type { RuleInfo } from '../rule-types.js';
// Category 3, Valid HTML: each catalogue entry stands for one or a few html-validate rules that
// share a cause and a fix; whatever else html-validate reports lands in "Other HTML error".
import { RuleCategory } from '@linkaudit/core';

type HtmlRuleInfo = Omit<RuleInfo, 'category'> & {
  htmlValidate: readonly string[];
  /** Messages of those html-validate rules this rule leaves alone (another rule owns them). */
  leaves?: (message: string) => boolean;
};

// Elements removed from HTML (the standard's "obsolete features"): 3007 reports them, so 3003
// does not report them again where they stand.
const obsoleteElements = new Set([
  'acronym',
  'applet',
  'basefont',
  'bgsound',
  'big',
  'blink',
  'center',
  'dir',
  'font',
  'frame',
  'frameset',
  'isindex',
  'keygen',
  'listing',
  'marquee',
  'menuitem',
  'multicol',
  'nextid',
  'nobr',
  'noembed',
  'noframes',
  'plaintext',
  'rb',
  'rtc',
  'spacer',
  'strike',
  'tt',
  'xmp',
]);
const placedElement = /^<([\w-]+)> element is not permitted/i;

const entries: readonly HtmlRuleInfo[] = [
  {
    id: 3001,
    slug: 'html/close-order',
    name: 'Element not closed or closed out of order',
    note: 'An end tag is missing, stray, or closes elements in the wrong order.',
    prompt: 'Close every element, innermost first: <b><i>…</i></b>.',
    htmlValidate: ['close-order', 'close-attr'],
  },
  {
    id: 3002,
    slug: 'html/duplicate-id',
    name: 'Duplicate id',
    note: 'Two elements share an id, so links, labels and scripts reach only the first.',
    prompt: 'Make every id unique on the page.',
    htmlValidate: ['no-dup-id'],
  },
  {
    id: 3003,
    slug: 'html/element-not-allowed-here',
    name: 'Element not allowed here',
    note: 'An element sits where the HTML content model does not allow it (a <div> inside a <p>, an <li> outside a list). Leaves alone obsolete elements (<font>, <center>, <tt>: 3007 reports them) and a <tbody> after rows the parser already wrapped in one (`<table><tr>…</tr><tbody>` is a valid table once parsed).',
    prompt: 'Move the element or change its parent so the nesting is allowed.',
    htmlValidate: [
      'element-permitted-content',
      'element-permitted-parent',
      'element-required-ancestor',
      'element-permitted-order',
    ],
    leaves: (message) =>
      obsoleteElements.has(placedElement.exec(message)?.[1]?.toLowerCase() ?? '') ||
      /^Element <tbody> must be used before <tr>/i.test(message),
  },
  {
    id: 3004,
    slug: 'html/required-content-missing',
    name: 'Required child element missing',
    note: 'An element lacks a child it must have, such as a <title> in <head>.',
    prompt: 'Add the missing child element.',
    htmlValidate: ['element-required-content'],
  },
  {
    id: 3005,
    slug: 'html/invalid-attribute-value',
    name: 'Invalid attribute value',
    note: 'An attribute has a value the standard does not allow, or is used where it has no effect.',
    prompt: 'Use one of the values the attribute allows, or remove the attribute.',
    htmlValidate: ['attribute-allowed-values', 'attribute-misuse', 'valid-autocomplete'],
  },
  {
    id: 3006,
    slug: 'html/required-attribute-missing',
    name: 'Required attribute missing',
    note: 'An element lacks an attribute it must have, such as src on <img>. Leaves alone lang on <html>: 5003 reports it.',
    prompt: 'Add the missing attribute.',
    htmlValidate: ['element-required-attributes'],
    leaves: (message) => /^<html> is missing required "lang"/i.test(message),
  },
  {
    id: 3007,
    slug: 'html/obsolete',
    name: 'Obsolete element or attribute',
    note: 'The page uses an element or attribute removed from HTML (<center>, <font>, align=…); it owns obsolete elements, which 3003 leaves alone wherever they stand.',
    prompt: 'Replace it with CSS or the modern element.',
    htmlValidate: ['deprecated', 'no-deprecated-attr'],
  },
  {
    id: 3008,
    slug: 'html/element-repeated',
    name: 'Element used more than allowed',
    note: 'An element appears more often than allowed, such as two <title> or two visible <main>.',
    prompt: 'Keep one and remove the others.',
    htmlValidate: ['element-permitted-occurrences', 'no-multiple-main'],
  },
  {
    id: 3009,
    slug: 'html/doctype',
    name: 'Missing or wrong doctype',
    note: 'The page does not start with <!DOCTYPE html>, so browsers render it in quirks mode.',
    prompt: 'Start the page with <!DOCTYPE html>.',
    htmlValidate: ['missing-doctype', 'doctype-html'],
  },
  {
    id: 3010,
    slug: 'html/character-reference',
    name: 'Unescaped or unknown character reference',
    note: 'Text contains an ambiguous raw &, or a character reference that does not exist (&nbps;).',
    prompt: 'Write & as &amp; and check the spelling of named references.',
    htmlValidate: ['no-raw-characters', 'unrecognized-char-ref'],
  },
  {
    id: 3011,
    slug: 'html/duplicate-attribute',
    name: 'Duplicate attribute',
    note: 'An element has the same attribute twice; browsers keep the first and ignore the rest.',
    prompt: 'Remove the repeated attribute, merging values if needed.',
    htmlValidate: ['no-dup-attr'],
  },
  {
    id: 3012,
    slug: 'html/invalid-reference',
    name: 'Invalid id or label reference',
    note: 'An id is not a valid identifier, or a label/map refers to an id that is malformed or missing.',
    prompt: 'Use ids without spaces and point for= and usemap at existing ids.',
    htmlValidate: ['valid-id', 'valid-for', 'map-id-name', 'map-dup-name'],
  },
  {
    id: 3013,
    slug: 'html/self-closing',
    name: 'Self-closed element or void element with content',
    note: 'A normal element is written self-closing (<div/>), which HTML ignores, or a void element has content.',
    prompt: 'Write <div></div>; give void elements (<br>, <img>) no end tag or content.',
    htmlValidate: ['no-self-closing', 'void-content'],
  },
  {
    id: 3014,
    slug: 'html/invalid-element-name',
    name: 'Invalid element name',
    note: 'A tag name is not valid HTML (custom elements need a hyphen, like <my-widget>).',
    prompt: 'Fix the tag name, or give custom elements a name with a hyphen.',
    htmlValidate: ['element-name'],
  },
];

const otherEntry: Omit<RuleInfo, 'category'> = {
  id: 3099,
  slug: 'html/other',
  name: 'Other HTML error',
  note: 'The HTML breaks another rule of the standard, as reported by html-validate.',
  prompt: 'Read the message and correct the markup it points to.',
};

/** Our catalogue id for each html-validate rule id; missing ones are Other. */
const catalogueIdOf = new Map(
  entries.flatMap((entry) => entry.htmlValidate.map((id) => [id, entry.id])),
);

export function htmlRuleFor(htmlValidateRuleId: string): number {
  return catalogueIdOf.get(htmlValidateRuleId) ?? otherEntry.id;
}

function htmlRule(
  info: Omit<RuleInfo, 'category'>,
  leaves?: (message: string) => boolean,
): PageRule {
  return {
    ...info,
    category: RuleCategory.ValidHtml,
    check(page, report) {
      for (const message of page.services.htmlValidator.messages(page)) {
        if (htmlRuleFor(message.ruleId) !== info.id) continue;
        if (leaves?.(message.message)) continue;
        const start = message.offset;
        report({ start, end: start + Math.max(message.size, 1) + 120 }, message.message);
      }
    },
  };
}

export const htmlRules: readonly BuiltInRule[] = [
  ...entries.map(({ htmlValidate: _mapped, leaves, ...info }) => htmlRule(info, leaves)),
  htmlRule(otherEntry),
];

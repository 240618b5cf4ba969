// Scripts and styles that hold up the first paint.
import { RuleCategory } from '@linkaudit/core';
import { isText } from 'domhandler';
import type { PageRule } from '../built-in-rule.js';
import { hasAttr, isInHead } from '../dom.js';
import type { PageElement } from '../page.js';
import type { Report } from '../rule-types.js';

// Types a browser runs as classic scripts; anything else (JSON-LD, templates) is not executed.
const classicScriptTypes = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'text/ecmascript',
]);

const scriptType = (script: PageElement): string =>
  (script.attribs.type ?? '').trim().toLowerCase();

export const renderBlockingScript: PageRule = {
  id: 1005,
  slug: 'performance/render-blocking-script',
  name: 'Render-blocking script in head',
  category: RuleCategory.WebPerformance,
  note: 'A <script src> in the <head> has neither async nor defer, so rendering waits for it.',
  prompt: 'Add defer (or async for independent scripts), or move the script to the end of <body>.',
  check(page, report) {
    for (const script of page.all('script')) {
      const blocking =
        hasAttr(script, 'src') &&
        !hasAttr(script, 'async') &&
        !hasAttr(script, 'defer') &&
        classicScriptTypes.has(scriptType(script));
      if (blocking && isInHead(script)) report(script);
    }
  },
};

/** Reports every match of `pattern` in the text of inline (no src) scripts or styles. */
function findInInlineText(
  elements: readonly PageElement[],
  pattern: RegExp,
  report: Report,
  message: (match: string) => string,
): void {
  for (const element of elements) {
    if (hasAttr(element, 'src')) continue;
    for (const child of element.children) {
      if (!isText(child)) continue;
      for (const match of child.data.matchAll(pattern)) {
        // Script and style text is never entity-decoded, so offsets map one to one.
        const start = (child.startIndex ?? 0) + match.index;
        report({ start, end: start + match[0].length + 80 }, message(match[0]));
      }
    }
  }
}

export const cssImport: PageRule = {
  id: 1006,
  slug: 'performance/css-import',
  name: 'CSS @import in a style block',
  category: RuleCategory.WebPerformance,
  note: 'An inline style sheet loads another one with @import, which the browser finds late.',
  prompt: 'Replace @import with a <link rel="stylesheet"> in the <head>.',
  check(page, report) {
    findInInlineText(page.all('style'), /@import\b/gi, report, () => '@import in <style>');
  },
};

export const documentWrite: PageRule = {
  id: 1015,
  slug: 'performance/document-write',
  name: 'document.write in a script',
  category: RuleCategory.WebPerformance,
  note: 'An inline script calls document.write, which blocks parsing and is ignored on slow networks.',
  prompt: 'Insert content with DOM methods (append, insertAdjacentHTML) or load scripts async.',
  check(page, report) {
    const scripts = page
      .all('script')
      .filter((script) => classicScriptTypes.has(scriptType(script)));
    findInInlineText(scripts, /document\.write(?:ln)?\s*\(/g, report, (match) =>
      match.replace(/\s*\($/, '()'),
    );
  },
};

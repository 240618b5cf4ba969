import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulePageHtml, rulePagesDir } from './rule-pages.js';

/** The elements Markdown makes of our rule pages; anything else came from raw HTML in a page. */
const markdownElements = new Set(
  'html head meta title style body nav main h1 h2 h3 p strong em ul ol li a code pre br hr'.split(
    ' ',
  ),
);

describe('rule pages as HTML', () => {
  const pages = readdirSync(rulePagesDir).filter((file) => file.endsWith('.md'));

  it('renders every rule page with its title, and no markup the Markdown did not make', () => {
    expect(pages.length).toBeGreaterThan(50);
    for (const file of pages) {
      const markdown = readFileSync(path.join(rulePagesDir, file), 'utf8');
      const html = rulePageHtml(markdown);
      const title = /^# (.+)$/m.exec(markdown)![1]!;
      expect(html, file).toContain(
        `<title>${title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)} · LinkAudit</title>`,
      );
      // Code samples (`<script>` in a fence) are text; outside code only Markdown's elements.
      const outsideCode = html
        .replace(/<pre>[\s\S]*?<\/pre>/g, '')
        .replace(/<code>[\s\S]*?<\/code>/g, '')
        .replace(/<style>[\s\S]*?<\/style>/, '');
      const elements = [...outsideCode.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!);
      expect(
        elements.filter((name) => !markdownElements.has(name)),
        file,
      ).toEqual([]);
      expect(outsideCode, file).not.toContain('<!--');
    }
  });
});

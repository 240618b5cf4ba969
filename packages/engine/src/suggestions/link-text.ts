/**
 * The text of the link whose `<a` starts at line/column (1-based) of `html`: its words, tags left
 * out. The crawl keeps no text (memory stays flat); the few broken internal links read theirs
 * back from their page after the crawl.
 */
export function linkTextAt(html: string, line: number, column: number): string | undefined {
  const start = offsetOf(html, line, column);
  if (start === undefined || !/^<a[\s>]/i.test(html.slice(start, start + 3))) return undefined;
  const open = html.indexOf('>', start);
  if (open === -1) return undefined;
  const close = html.slice(open + 1).search(/<\/a\s*>/i);
  const inner = html.slice(open + 1, close === -1 ? open + 1 + 500 : open + 1 + close);
  const text = inner
    .replace(/<[^>]*>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text.slice(0, 200);
}

function offsetOf(html: string, line: number, column: number): number | undefined {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = html.indexOf('\n', offset);
    if (next === -1) return undefined;
    offset = next + 1;
  }
  return offset + column - 1;
}

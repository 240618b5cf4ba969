/**
 * The `fileFilter` of a data-driven rule (SPEC §3): which pages the rule looks at. Entries are
 * separated by spaces, commas or semicolons. An entry shaped `type/subtype` (`text/html`,
 * `application/*`) is a content type; any other entry is a URL glob where `*` matches any run of
 * characters and `?` one character. A glob with `://` is matched against the whole URL, any
 * other against its path and query (`/blog/*`, `*.html`). Matching ignores case. A page passes
 * when it matches one of the globs (if any) and one of the content types (if any); an empty
 * filter passes every page.
 */
export interface FileFilter {
  matches(url: string, contentType: string): boolean;
}

const contentTypeEntry = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9!#$&^_.+*-]+$/i;

export function parseFileFilter(filter: string): FileFilter {
  const entries = filter.split(/[\s,;]+/).filter(Boolean);
  const types = entries.filter((entry) => contentTypeEntry.test(entry)).map(globToRegExp);
  const globs = entries
    .filter((entry) => !contentTypeEntry.test(entry))
    .map((entry) => ({ wholeUrl: entry.includes('://'), pattern: globToRegExp(entry) }));
  return {
    matches(url, contentType) {
      const essence = contentType.split(';')[0]?.trim() ?? '';
      if (types.length > 0 && !types.some((type) => type.test(essence))) return false;
      if (globs.length === 0) return true;
      const parsed = URL.parse(url);
      const whole = url.split('#')[0] ?? url;
      const path = parsed ? parsed.pathname + parsed.search : whole;
      return globs.some((glob) => glob.pattern.test(glob.wholeUrl ? whole : path));
    },
  };
}

function globToRegExp(glob: string): RegExp {
  const source = Array.from(glob, (char) =>
    char === '*' ? '.*' : char === '?' ? '.' : escapeRegExp(char),
  ).join('');
  return new RegExp(`^${source}$`, 'is');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

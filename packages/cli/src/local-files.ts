// `linkaudit scan ./public` and `linkaudit scan README.md docs/` (issue 38): the files named on
// the command line as a site the engine crawls from disk (its localFolder option), and the
// reports' addresses of that site turned back into the file paths a person opens.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { LocalFolder } from '@linkaudit/engine';

/** The address a folder stands for when --root-url does not say (.invalid never resolves). */
export const defaultRootUrl = 'http://linkaudit-files.invalid/';

/** Files read as pages: built HTML and Markdown. */
const pageFile = /\.(?:html?|xhtml|md|markdown)$/i;
/** Folders that hold no pages of the site (dependencies, version control). */
const skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn']);

export interface FileScan {
  /** The engine's option: the folder, its address, the pages to crawl beside the start. */
  localFolder: LocalFolder;
  /** The address the crawl starts at (the folder's index.html, else its first page file). */
  startUrl: string;
}

/** Whether a command line argument names files rather than a web address. */
export function namesFiles(argument: string): boolean {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(argument)) return false;
  return (
    existsSync(argument) || /^\.{0,2}\//.test(argument) || /\.(?:md|markdown)$/i.test(argument)
  );
}

/**
 * The files and folders named → the site to crawl: the folder they share is its root (a single
 * folder is the root itself, so "/css/x.css" in ./public/a.html is ./public/css/x.css).
 * Throws a message for a path that does not exist or a folder without pages.
 */
export function fileScanOf(paths: readonly string[], rootUrl = defaultRootUrl): FileScan {
  const absolute = paths.map((path) => resolve(path));
  const missing = paths.find((_, index) => !existsSync(absolute[index]!));
  if (missing !== undefined) throw new Error(`no such file or folder: ${missing}`);
  const folder = sharedFolder(absolute);
  const files = absolute.flatMap((path) =>
    statSync(path).isDirectory() ? pageFilesUnder(path) : [path],
  );
  const unique = [...new Set(files)];
  if (unique.length === 0) throw new Error(`no HTML or Markdown files in ${paths.join(', ')}`);
  // A folder's index.html is crawled at the folder's address, as links name it and as a static
  // host serves it, so the two are not two pages.
  const addressOf = (file: string) =>
    new URL(
      relative(folder, file)
        .split(sep)
        .map(encodeURIComponent)
        .join('/')
        .replace(/(?:^|(?<=\/))index\.html$/, ''),
      rootUrl,
    ).href;
  const addresses = [...new Set(unique.map(addressOf))];
  const startUrl = addresses.includes(rootUrl) ? rootUrl : addresses[0]!;
  const pages = addresses.filter((url) => url !== startUrl);
  return { localFolder: { rootUrl, folder, pages }, startUrl };
}

/** The deepest folder holding every path (a file's own folder when it is alone). */
function sharedFolder(paths: readonly string[]): string {
  const folders = paths.map((path) => (statSync(path).isDirectory() ? path : dirname(path)));
  let shared = folders[0]!;
  for (const folder of folders.slice(1)) {
    while (folder !== shared && !folder.startsWith(shared.endsWith(sep) ? shared : shared + sep))
      shared = dirname(shared);
  }
  return shared;
}

/** Every page file under a folder, in name order, depth first. */
function pageFilesUnder(folder: string): string[] {
  const found: string[] = [];
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !skippedFolders.has(entry.name)) found.push(...pageFilesUnder(path));
    else if (entry.isFile() && pageFile.test(entry.name)) found.push(path);
  }
  return found;
}

/**
 * Turns the site's addresses in a report into file paths relative to the working folder
 * ("public/docs/a.html#setup"): what a person opens, and what code scanning annotates.
 */
export function filePathsFor(localFolder: LocalFolder, cwd = process.cwd()) {
  const { rootUrl } = localFolder;
  const shown = relative(cwd, localFolder.folder).split(sep).join('/');
  const prefix = shown === '' ? '' : `${shown}/`;
  // A folder's address is shown as its index.html when it has one (the file with the links).
  const indexes = new Map<string, boolean>();
  const hasIndex = (path: string) => {
    let known = indexes.get(path);
    if (known === undefined) {
      known = existsSync(join(localFolder.folder, ...path.split('/'), 'index.html'));
      indexes.set(path, known);
    }
    return known;
  };
  const toPath = (text: string): string => {
    if (!text.startsWith(rootUrl)) return text;
    const rest = text.slice(rootUrl.length);
    const cut = rest.search(/[?#]/);
    let path = cut === -1 ? rest : rest.slice(0, cut);
    try {
      path = decodeURIComponent(path);
    } catch {
      // (shown as written)
    }
    if ((path === '' || path.endsWith('/')) && hasIndex(path)) path += 'index.html';
    const shownPath = `${prefix}${path}${cut === -1 ? '' : rest.slice(cut)}`;
    return shownPath === '' ? './' : shownPath;
  };
  return <T>(value: T): T => mapStrings(value, toPath);
}

/** A copy of plain data with every string passed through `map` (events are plain data). */
function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, map)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = mapStrings(item, map);
  return copy as T;
}

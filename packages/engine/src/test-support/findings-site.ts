// A site whose every finding is known (issue 23): broken anchors of each kind a checker gets
// wrong, anchors that must be found, duplicate ids, an orphan page listed in the sitemap, a page
// missing from the sitemap, a broken link and SEO rule findings. Plain data (no imports), so the
// server's HTTP tests and the browser tests serve the same site and check the same ground truth.

const page = (title: string | undefined, body: string) =>
  `<!doctype html>\n<html><head>${title === undefined ? '' : `<title>${title}</title>`}</head><body>\n${body}\n</body></html>\n`;

const home = page(
  'Findings home page',
  [
    '<h1 id="intro">Intro</h1>',
    '<a href="#">bare hash: no anchor to check</a>',
    '<a href="#top">top: always there</a>',
    '<a href="#intro">an id on this page</a>',
    '<a href="#Intro">case differs</a>',
    '<a href="#gone">missing on this page</a>',
    '<a href="/guide.html">the guide</a>',
    '<a href="/guide.html#setup">an id</a>',
    '<a href="/guide.html#legacy">an a[name]</a>',
    '<a href="/guide.html#caf%C3%A9">percent-encoded</a>',
    '<a href="/guide.html#in-template">inside a template</a>',
    '<a href="/guide.html#field">a name on an input</a>',
    '<a href="/guide.html#in-script">text of a script</a>',
    '<a href="/guide.html#in-comment">a comment</a>',
    '<a href="/guide.html#nowhere">nowhere</a>',
    '<a href="/missing.html">a missing page</a>',
  ].join('\n'),
);

const guide = page(
  'Guide to the findings site',
  [
    '<h2 id="setup">Setup</h2>',
    '<a name="legacy">Legacy</a>',
    '<h2 id="café">Café</h2>',
    '<a id="both" name="both">id and name on one element: no duplicate</a>',
    '<p id="dup">first</p>',
    '<template id="tpl"><p id="in-template">t</p><p id="dup">in a template</p></template>',
    '<form><input name="field"></form>',
    '<script>const html = \'<p id="in-script">\';</script>',
    '<!-- <p id="in-comment"> -->',
    '<p id="dup">second</p>',
    '<div id="setup">setup again</div>',
    '<a href="/">home</a>',
    '<a href="/short.html">a short page</a>',
  ].join('\n'),
);

// An id a spreadsheet would run as a formula, twice: exports must defuse it.
const short = page(
  'Hi',
  [
    '<a href="/guide.html">back to the guide</a>',
    '<p id="=HYPERLINK(1)">one</p>',
    '<p id="=HYPERLINK(1)">two</p>',
  ].join('\n'),
);
const orphan = page(undefined, '<p>Listed in the sitemap, linked from no page.</p>');

/** Path → HTML of every page (the sitemap, naming absolute addresses, is findingsSitemap). */
export function findingsSitePages(): Record<string, string> {
  return { '/': home, '/guide.html': guide, '/short.html': short, '/orphan.html': orphan };
}

/** /sitemap.xml for the site served at `origin` (http://127.0.0.1:port): lists the orphan. */
export function findingsSitemap(origin: string): string {
  const urls = ['/', '/guide.html', '/orphan.html'].map(
    (path) => `  <url><loc>${origin}${path}</loc></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The scan settings the findings need (anchors, rank, inclusion, two SEO rules). */
export const findingsScanSettings = {
  scanDepth: 3,
  checkAnchors: true,
  checkPageRank: true,
  checkPageInclusion: true,
  selectedRules: [4001, 4003],
} as const;

/** 1-based line and column of the first `needle` in `html`. */
function at(html: string, needle: string): { line: number; column: number } {
  const index = html.indexOf(needle);
  if (index < 0) throw new Error(`not in the fixture: ${needle}`);
  const before = html.slice(0, index);
  return { line: before.split('\n').length, column: index - before.lastIndexOf('\n') };
}

/** What a correct scan of the site finds, by path. */
export const findingsGroundTruth = {
  /** Links (source path, target as written) whose #fragment names nothing on their page. */
  brokenAnchors: [
    ['/', '/#Intro'],
    ['/', '/#gone'],
    ['/', '/guide.html#in-template'],
    ['/', '/guide.html#field'],
    ['/', '/guide.html#in-script'],
    ['/', '/guide.html#in-comment'],
    ['/', '/guide.html#nowhere'],
  ] as const,
  /** Fragments that must be found (never reported). */
  foundAnchors: ['/#intro', '/guide.html#setup', '/guide.html#legacy', '/guide.html#caf%C3%A9'],
  brokenLinks: [['/', '/missing.html']] as const,
  /** Each repeat of an id on a page, with both places, in page order. */
  duplicateAnchors: [
    {
      page: '/guide.html',
      anchor: 'dup',
      first: at(guide, '<p id="dup">first'),
      duplicate: at(guide, '<p id="dup">second'),
    },
    {
      page: '/guide.html',
      anchor: 'setup',
      first: at(guide, '<h2 id="setup">'),
      duplicate: at(guide, '<div id="setup">'),
    },
    {
      page: '/short.html',
      anchor: '=HYPERLINK(1)',
      first: at(short, '<p id="=HYPERLINK(1)">one'),
      duplicate: at(short, '<p id="=HYPERLINK(1)">two'),
    },
  ],
  /** Every crawled page: incoming links from other pages, sitemap, orphan. */
  pages: {
    '/': { incomingLinks: 1, linkedFrom: ['/guide.html'], inSitemap: true, orphan: false },
    // Nine links from the home page (fragments included) and one from the short page.
    '/guide.html': {
      incomingLinks: 10,
      linkedFrom: ['/', '/short.html'],
      inSitemap: true,
      orphan: false,
    },
    '/short.html': {
      incomingLinks: 1,
      linkedFrom: ['/guide.html'],
      inSitemap: false,
      orphan: false,
    },
    '/orphan.html': { incomingLinks: 0, linkedFrom: [], inSitemap: true, orphan: true },
  },
  rules: [
    { page: '/orphan.html', ruleId: '4001', ruleName: 'Title missing' },
    { page: '/short.html', ruleId: '4003', ruleName: 'Title too short' },
  ],
} as const;

// The corpus: real documentation sites nobody on the team wrote, one per site generator, from
// Debian 12 packages. Each has a slice checked in under sites/<name>/site (cut by slice.mjs, with
// its package, version and licence in sites/<name>/) for the tests, and the whole installed site
// (`installed`, present once the package is installed) for the bench.
//
// Faults are injected into both by the same overlay (the files on disk never change): a linked
// page deleted, an id a fragment names removed, and a few links appended before </body>, among
// them the shapes the engine got wrong on real sites (issue 19): `#`, `?` and `` (the page
// itself), a fragment with a literal `%`, the same unparseable address on two pages.
import path from 'node:path';
import { SiteFiles } from './static-site.mjs';

/** Links that name the page they are on, in the three forms WHATWG parsing reads that way. */
const selfLinks = '<a href="#">top</a> <a href="?">this page</a> <a href="">this page again</a>';
/**
 * An a[name] with literal `%` and `<`; a link to it (the URL parser writes `#:_%%%3C`, matched once
 * percent-decoded leniently); and one whose decoding is `:_%<`, which names nothing.
 */
const percentFragment =
  '<a name=":_&#37;&#37;&lt;">percent</a> <a href="#:_%%<">to percent</a> <a href="#:_%%3C">one percent sign short</a>';
/** Not a URL (a space in the host): Invalid Format, one unique broken link however often. */
const invalidLink = '<a href="http://exa mple.com/">invalid</a>';

export const sites = [
  {
    name: 'sphinx-requests',
    generator: 'Sphinx 5.3 (alabaster theme)',
    package: 'python-requests-doc',
    installed: '/usr/share/doc/python-requests-doc/html',
    start: '/index.html',
    faults: [
      { delete: '/user/install.html' },
      { removeId: '/community/recommended.html', id: 'certifi-ca-bundle' },
      {
        append: '/user/quickstart.html',
        html: `<img src="../_static/missing-diagram.png" alt=""> ${selfLinks} ${invalidLink}`,
      },
      { append: '/user/advanced.html', html: invalidLink },
    ],
  },
  {
    name: 'sphinx-python',
    generator: 'Sphinx 5.3 (Python docs theme)',
    package: 'python3.11-doc',
    installed: '/usr/share/doc/python3.11/html',
    start: '/library/index.html',
    faults: [
      { delete: '/library/constants.html' },
      { removeId: '/bugs.html', id: 'documentation-bugs' },
      { append: '/library/unicodedata.html', html: `${percentFragment} ${invalidLink}` },
      { append: '/about.html', html: invalidLink },
    ],
  },
  {
    name: 'mkdocs',
    generator: 'MkDocs 1.4 (mkdocs theme)',
    package: 'mkdocs-doc',
    installed: '/usr/share/doc/mkdocs/html',
    start: '/index.html',
    faults: [
      { delete: '/user-guide/cli.html' },
      { removeId: '/getting-started.html', id: 'adding-pages' },
      {
        append: '/user-guide/writing-your-docs.html',
        html: `<img src="img/missing.png" alt=""> ${selfLinks}`,
      },
    ],
  },
  {
    name: 'doxygen',
    generator: 'Doxygen 1.9.4',
    package: 'doxygen-doc',
    installed: '/usr/share/doc/doxygen/html',
    start: '/index.html',
    faults: [
      { delete: '/lists.html' },
      { removeId: '/docblocks.html', id: 'specialblock' },
      { append: '/starting.html', html: `<img src="missing-graph.png" alt=""> ${percentFragment}` },
    ],
  },
  {
    name: 'texinfo-diffutils',
    generator: 'GNU Texinfo 6.8 (makeinfo --html)',
    package: 'diffutils-doc',
    installed: '/usr/share/doc/diffutils',
    start: '/index.html',
    faults: [
      { delete: '/Comparing-Three-Files.html' },
      { removeId: '/Adjusting-Output.html', id: 'Tabs' },
      { append: '/Overview.html', html: `${selfLinks} ${invalidLink}` },
      { append: '/Comparison.html', html: invalidLink },
    ],
  },
  {
    name: 'javadoc-jsoup',
    generator: 'javadoc (OpenJDK 17)',
    package: 'libjsoup-java-doc',
    installed: '/usr/share/doc/libjsoup-java/api',
    start: '/index.html',
    faults: [
      { delete: '/org/jsoup/safety/package-summary.html' },
      { removeId: '/org/jsoup/Jsoup.html', id: 'method.summary' },
      { append: '/org/jsoup/Jsoup.html', html: `<img src="missing.png" alt=""> ${selfLinks}` },
    ],
  },
  {
    name: 'docbook-xsl',
    generator: 'DocBook XSL 1.79 (chunked HTML, ISO-8859-1)',
    package: 'docbook-xsl-doc-html',
    installed: '/usr/share/doc/docbook-xsl-doc-html/doc',
    start: '/index.html',
    faults: [
      { delete: '/warranty.html' },
      { removeId: '/index.html', id: 'about' },
      {
        append: '/copyright.html',
        html: `<a href="index.html#about">to a removed a[name]</a> <a href="pi/pi-man.html#partintro">to an a[name]</a> ${selfLinks}`,
      },
    ],
  },
];

export function siteNamed(name) {
  const site = sites.find((candidate) => candidate.name === name);
  if (!site) throw new Error(`no corpus site named ${name}`);
  return site;
}

/** The checked-in slice of a site. */
export function sliceRoot(site) {
  return path.join(import.meta.dirname, 'sites', site.name, 'site');
}

/** A site's files (the slice, or another root such as the installed site) with its faults. */
export function filesWithFaults(site, root = sliceRoot(site)) {
  const files = new SiteFiles(root);
  for (const fault of site.faults) {
    if (fault.delete) files.delete(fault.delete);
    else if (fault.removeId) {
      const quoted = fault.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      files.edit(fault.removeId, (text) =>
        text.replace(new RegExp(`\\s(?:id|name)=(["']?)${quoted}\\1(?=[\\s>/])`, 'g'), ''),
      );
    } else if (fault.append) {
      files.edit(fault.append, (text) => {
        const at = text.search(/<\/body>/i);
        return at === -1 ? text + fault.html : text.slice(0, at) + fault.html + text.slice(at);
      });
    }
  }
  return files;
}

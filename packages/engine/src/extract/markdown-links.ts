import GithubSlugger from 'github-slugger';
import { Parser } from 'htmlparser2';
import type { Html, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import type { ExtractedPage, FoundLink, PageAnchor } from './found-link.js';
import { PageLinkCap } from './page-link-cap.js';

/**
 * The links and anchors of a Markdown page (issue 38), as GitHub renders it: CommonMark with
 * GFM (tables, autolink literals, footnotes) by micromark, each link, image and reference
 * definition at its line and column in the Markdown; anchors are the headings' ids by GitHub's
 * rules (github-slugger: lower-cased, punctuation dropped, spaces to hyphens, repeats -1, -2…)
 * and the `id`s and `<a name>`s of inline HTML. Same interface as HtmlLinkExtractor; the text
 * is kept until `end()` (a Markdown parser needs the whole document), bounded by the page limit.
 */
export class MarkdownLinkExtractor {
  private readonly chunks: string[] = [];
  private readonly cap: PageLinkCap;

  constructor(maxLinks = Number.POSITIVE_INFINITY) {
    this.cap = new PageLinkCap(maxLinks);
  }

  write(chunk: string): void {
    this.chunks.push(chunk);
  }

  end(): ExtractedPage {
    const tree = fromMarkdown(this.chunks.join(''), {
      extensions: [gfm()],
      mdastExtensions: [gfmFromMarkdown()],
    });
    this.chunks.length = 0;
    const page: ExtractedPage = { links: [], anchors: [], robotsMeta: [] };
    const imageLabels = new Set<string>();
    visit(tree, (node) => {
      if (node.type === 'imageReference') imageLabels.add(node.identifier);
    });
    const slugger = new GithubSlugger();
    visit(tree, (node) => {
      switch (node.type) {
        case 'link':
          this.add(node.url, 'a', 'href', 'page', node);
          break;
        case 'image':
          this.add(node.url, 'img', 'src', 'image', node);
          break;
        case 'definition':
          if (imageLabels.has(node.identifier)) this.add(node.url, 'img', 'src', 'image', node);
          else this.add(node.url, 'a', 'href', 'page', node);
          break;
        case 'heading': {
          const text = toString(node, { includeImageAlt: false, includeHtml: false });
          if (node.depth === 1 && page.title === undefined) page.title = text;
          page.anchors.push({ name: slugger.slug(text), ...start(node) });
          break;
        }
        case 'html':
          this.readHtml(node, page.anchors);
          break;
      }
    });
    page.links = this.cap.finish();
    // `<a name="usage"></a>` above "## Usage" is how READMEs keep a link stable: the same name
    // twice on purpose, pointing at one place. An author cannot rename a heading's id, so a
    // repeat in Markdown is no warning to act on: only the first of each name is kept.
    const seen = new Set<string>();
    page.anchors = page.anchors.filter(({ name }) => !seen.has(name) && seen.add(name));
    return page;
  }

  private add(
    raw: string,
    element: string,
    attribute: string,
    kind: FoundLink['kind'],
    node: Nodes,
  ): void {
    this.cap.add({ raw, element, attribute, kind, ...start(node) });
  }

  /** Inline HTML: its links (`a href`, `img src`) and anchors (`id`, `a name`), placed exactly. */
  private readHtml(node: Html, anchors: PageAnchor[]): void {
    const origin = start(node);
    const text = node.value;
    const at = (index: number) => {
      const before = text.slice(0, index);
      const newline = before.lastIndexOf('\n');
      const line = origin.line + (before.match(/\n/g)?.length ?? 0);
      return { line, column: newline === -1 ? origin.column + index : index - newline };
    };
    const parser: Parser = new Parser({
      onopentag: (name, attributes) => {
        const position = at(parser.startIndex);
        if (attributes.id) anchors.push({ name: attributes.id, ...position });
        if (name === 'a' && attributes.name) anchors.push({ name: attributes.name, ...position });
        if (name === 'a' && attributes.href !== undefined)
          this.cap.add({
            raw: attributes.href,
            element: 'a',
            attribute: 'href',
            kind: 'page',
            ...position,
          });
        if (name === 'img')
          this.cap.add({
            raw: attributes.src ?? '',
            element: 'img',
            attribute: 'src',
            kind: 'image',
            ...position,
            ...(attributes.src ? {} : { missing: true }),
          });
      },
    });
    parser.end(text);
  }
}

function start(node: Nodes): { line: number; column: number } {
  return { line: node.position?.start.line ?? 0, column: node.position?.start.column ?? 0 };
}

/** Every node of the tree in document order. */
function visit(node: Nodes, each: (node: Nodes) => void): void {
  each(node);
  if ('children' in node) for (const child of node.children) visit(child, each);
}

import type { LinkKind } from '../events.js';
import { cssKind, extractCssUrls } from './css-urls.js';
import type { ExtractedPage, FoundLink, PageAnchor } from './found-link.js';
import { LineIndex } from './line-index.js';
import { PageLinkCap } from './page-link-cap.js';
import { parseSrcset } from './srcset.js';
import { AttributeSet, TagReader, type AttributeValues as Attributes } from './tag-reader.js';

/** The attributes the extractor reads (the tag reader copies no others), by their index. */
const enum Attribute {
  Href,
  Src,
  Srcset,
  Srcdoc,
  Poster,
  Data,
  Id,
  Name,
  Style,
  Rel,
  Type,
  Content,
  HttpEquiv,
}
/** Their names, in the order of the enum. */
const attributeNames = [
  'href',
  'src',
  'srcset',
  'srcdoc',
  'poster',
  'data',
  'id',
  'name',
  'style',
  'rel',
  'type',
  'content',
  'http-equiv',
];
const linkAttributes = new AttributeSet(attributeNames);

const ignoredLinkRelations = new Set(['preconnect', 'dns-prefetch']);
const iconRelations = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
]);
const pageRelations = new Set(['canonical', 'alternate', 'prev', 'next', 'amphtml']);

/**
 * Finds every link of an HTML document while it streams in: write chunks, then `end()`. Only
 * the links and a few small facts are kept, never the text, so memory does not grow with the
 * page. Positions are those of each element's `<` (1-based line and column).
 */
export class HtmlLinkExtractor {
  private readonly lines = new LineIndex();
  private readonly reader: TagReader;
  private readonly links: PageLinkCap;
  private readonly anchors: PageAnchor[] = [];
  private readonly robotsMeta: string[] = [];
  private canonicalHref: string | undefined;
  private baseHref: string | undefined;
  private title: string | undefined;
  private titleText: string | undefined;
  private styleText: string | undefined;
  private styleStart = 0;
  private readonly open = { picture: 0, video: 0, audio: 0, svg: 0, template: 0 };
  /** The open tag being read: its name, offset, and its position once worked out. */
  private tagName = '';
  private tagStart = 0;
  /** The open tag's line and column, once worked out (-1: not yet). */
  private tagLine = -1;
  private tagColumn = 0;

  constructor(maxLinks = Number.POSITIVE_INFINITY) {
    this.links = new PageLinkCap(maxLinks);
    this.reader = new TagReader(linkAttributes, this);
  }

  write(chunk: string): void {
    this.lines.add(chunk);
    this.reader.write(chunk);
  }

  end(): ExtractedPage {
    this.reader.end();
    return {
      links: this.links.finish(),
      anchors: this.anchors,
      robotsMeta: this.robotsMeta,
      ...(this.canonicalHref !== undefined ? { canonicalHref: this.canonicalHref } : {}),
      ...(this.baseHref !== undefined ? { baseHref: this.baseHref } : {}),
      ...(this.title !== undefined ? { title: this.title } : {}),
    };
  }

  openTag(name: string, start: number, attributes: Attributes): void {
    this.tagName = name;
    this.tagStart = start;
    this.tagLine = -1;
    this.collectAnchor(name, attributes);
    this.collectIndexingHints(name, attributes);
    this.elementLinks(name, attributes);
    if (attributes[Attribute.Style]) {
      for (const css of extractCssUrls(attributes[Attribute.Style]))
        this.add('style', css.url, cssKind(css.url, css.isImport));
    }
    if (name in this.open) this.open[name as keyof typeof this.open]++;
    if (name === 'title' && this.title === undefined && this.open.svg === 0) this.titleText = '';
    if (name === 'style') {
      this.styleText = '';
      this.styleStart = -1;
    }
  }

  /**
   * Where the open tag starts. Worked out on first use: most tags (div, p, span…) hold no link
   * and no anchor, and this runs for every tag of every page.
   */
  private locateTag(): void {
    if (this.tagLine !== -1) return;
    const at = this.lines.position(this.tagStart);
    this.tagLine = at.line;
    this.tagColumn = at.column;
  }

  /** One link of the current tag. (Methods, not closures per tag: no allocation for plain tags.) */
  private add(attribute: string, raw: string, kind: LinkKind, missing = false): void {
    this.locateTag();
    const link: FoundLink = {
      raw,
      element: this.tagName,
      attribute,
      kind,
      line: this.tagLine,
      column: this.tagColumn,
    };
    if (missing) link.missing = true;
    this.links.add(link);
  }

  /** The attribute is a link the element needs: missing or empty, it is reported as such. */
  private required(attributes: Attributes, attribute: Attribute, kind: LinkKind): void {
    const raw = valueOf(attributes, attribute);
    this.add(attributeNames[attribute]!, raw, kind, raw === '');
  }

  /** The attribute is a link when present (an `<a>` without href is a placeholder). */
  private optional(attributes: Attributes, attribute: Attribute, kind: LinkKind): void {
    if (attributes[attribute] !== undefined) this.required(attributes, attribute, kind);
  }

  private elementLinks(name: string, attributes: Attributes): void {
    switch (name) {
      case 'a':
      case 'area':
        // An empty href is a link to the page itself (URL parsing of '' against the page), not
        // a missing one: sites use it as a placeholder, and browsers reload the page.
        if (attributes[Attribute.Href] !== undefined)
          this.add('href', valueOf(attributes, Attribute.Href), 'page');
        break;
      case 'link':
        this.linkElement(attributes);
        break;
      case 'script':
        this.optional(attributes, Attribute.Src, 'script');
        break;
      case 'img':
        this.imageSources(attributes);
        break;
      case 'input':
        if (valueOf(attributes, Attribute.Type).toLowerCase() === 'image')
          this.optional(attributes, Attribute.Src, 'image');
        break;
      case 'source':
        if (this.open.picture > 0 && attributes[Attribute.Src] === undefined) {
          if (!this.srcset(attributes)) this.required(attributes, Attribute.Srcset, 'image');
        } else {
          this.required(attributes, Attribute.Src, this.open.picture > 0 ? 'image' : 'media');
        }
        break;
      case 'track':
        this.required(attributes, Attribute.Src, 'media');
        break;
      case 'iframe':
      case 'frame':
        if (attributes[Attribute.Src] !== undefined || attributes[Attribute.Srcdoc] === undefined)
          this.required(attributes, Attribute.Src, 'iframe');
        break;
      case 'video':
      case 'audio':
        this.optional(attributes, Attribute.Src, 'media');
        this.optional(attributes, Attribute.Poster, 'image');
        break;
      case 'object':
        this.optional(attributes, Attribute.Data, 'object');
        break;
      case 'embed':
        this.required(attributes, Attribute.Src, 'object');
        break;
      case 'meta':
        this.metaRefresh(attributes);
        break;
      case 'base':
        if (this.baseHref === undefined && attributes[Attribute.Href] !== undefined)
          this.baseHref = valueOf(attributes, Attribute.Href);
        break;
    }
  }

  private linkElement(attributes: Attributes): void {
    const relations = (attributes[Attribute.Rel] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (relations.length > 0 && relations.every((relation) => ignoredLinkRelations.has(relation)))
      return;
    let kind: LinkKind = 'other';
    if (relations.includes('stylesheet')) kind = 'stylesheet';
    else if (relations.some((relation) => iconRelations.has(relation))) kind = 'icon';
    else if (relations.some((relation) => pageRelations.has(relation))) kind = 'page';
    this.required(attributes, Attribute.Href, kind);
  }

  private imageSources(attributes: Attributes): void {
    const hasSrc = valueOf(attributes, Attribute.Src) !== '';
    const hasSrcset = this.srcset(attributes);
    if (hasSrc || !hasSrcset) this.required(attributes, Attribute.Src, 'image');
  }

  /** Adds each srcset candidate; true when there was at least one. */
  private srcset(attributes: Attributes): boolean {
    const candidates = parseSrcset(attributes[Attribute.Srcset] ?? '');
    for (const candidate of candidates) this.add('srcset', candidate.url, 'image');
    return candidates.length > 0;
  }

  private metaRefresh(attributes: Attributes): void {
    if ((attributes[Attribute.HttpEquiv] ?? '').toLowerCase() !== 'refresh') return;
    const match = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$/i.exec(
      attributes[Attribute.Content] ?? '',
    );
    const target = match?.[2]?.trim();
    if (target) this.add('content', target, 'page');
  }

  private anchor(name: string): void {
    this.locateTag();
    this.anchors.push({ name, line: this.tagLine, column: this.tagColumn });
  }

  /**
   * A template's content is not part of the document (a fragment cannot scroll to it), so ids and
   * names inside one are no anchors; the template element's own id is.
   */
  private collectAnchor(name: string, attributes: Attributes): void {
    if (this.open.template > 0) return;
    if (attributes[Attribute.Id]) this.anchor(attributes[Attribute.Id]);
    if (
      name === 'a' &&
      attributes[Attribute.Name] &&
      attributes[Attribute.Name] !== attributes[Attribute.Id]
    ) {
      this.anchor(attributes[Attribute.Name]);
    }
  }

  /** What decides whether search engines may index the page (page inclusion). */
  private collectIndexingHints(name: string, attributes: Attributes): void {
    if (name === 'meta') {
      const metaName = (attributes[Attribute.Name] ?? '').toLowerCase();
      if (metaName === 'robots' || metaName === 'googlebot') {
        this.robotsMeta.push((attributes[Attribute.Content] ?? '').toLowerCase());
      }
    } else if (name === 'link' && this.canonicalHref === undefined) {
      const relations = (attributes[Attribute.Rel] ?? '').toLowerCase().split(/\s+/);
      if (relations.includes('canonical') && attributes[Attribute.Href])
        this.canonicalHref = attributes[Attribute.Href].trim();
    }
  }

  closeTag(name: string): void {
    if (name in this.open) {
      const key = name as keyof typeof this.open;
      this.open[key] = Math.max(0, this.open[key] - 1);
    }
    if (name === 'title' && this.titleText !== undefined) {
      this.title = this.titleText.replace(/\s+/g, ' ').trim();
      this.titleText = undefined;
    }
    if (name === 'style' && this.styleText !== undefined) {
      this.styleUrls(this.styleText, this.styleStart);
      this.styleText = undefined;
    }
  }

  wantsText(): boolean {
    return this.titleText !== undefined || this.styleText !== undefined;
  }

  text(text: string, start: number): void {
    if (this.titleText !== undefined && this.titleText.length < 1000) this.titleText += text;
    if (this.styleText !== undefined) {
      if (this.styleStart < 0) this.styleStart = start;
      this.styleText += text;
    }
  }

  /** url() and @import in a <style> block, each at its own position. */
  private styleUrls(css: string, start: number): void {
    for (const found of extractCssUrls(css)) {
      const at = this.lines.position(start + found.offset);
      this.links.add({
        raw: found.url,
        element: 'style',
        attribute: 'css',
        kind: cssKind(found.url, found.isImport),
        line: at.line,
        column: at.column,
      });
    }
  }
}

/** An attribute's value without surrounding white space; '' when it is absent. */
function valueOf(attributes: Attributes, attribute: Attribute): string {
  return (attributes[attribute] ?? '').trim();
}

import { Parser } from 'htmlparser2';
import type { LinkKind } from '../events.js';
import { extractCssUrls } from './css-urls.js';
import type { ExtractedPage, FoundLink, PageAnchor } from './found-link.js';
import { LineIndex } from './line-index.js';
import { parseSrcset } from './srcset.js';

type Attributes = Record<string, string>;

const ignoredLinkRelations = new Set(['preconnect', 'dns-prefetch']);
const iconRelations = new Set([
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
]);
const pageRelations = new Set(['canonical', 'alternate', 'prev', 'next', 'amphtml']);
const imageExtension = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?)(?:[?#]|$)/i;

/**
 * Finds every link of an HTML document while it streams in: write chunks, then `end()`. Only
 * the links and a few small facts are kept, never the text, so memory does not grow with the
 * page. Positions are those of each element's `<` (1-based line and column).
 */
export class HtmlLinkExtractor {
  private readonly lines = new LineIndex();
  private readonly parser: Parser;
  private readonly links: FoundLink[] = [];
  private readonly anchors: PageAnchor[] = [];
  private readonly robotsMeta: string[] = [];
  private canonicalHref: string | undefined;
  private baseHref: string | undefined;
  private title: string | undefined;
  private titleText: string | undefined;
  private styleText: string | undefined;
  private styleStart = 0;
  private readonly open = { picture: 0, video: 0, audio: 0, svg: 0 };
  /** The open tag being read, and its position once worked out. */
  private tagName = '';
  private tagPosition: { line: number; column: number } | undefined;

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attributes) => this.openTag(name, attributes),
        onclosetag: (name) => this.closeTag(name),
        ontext: (text) => this.text(text),
      },
      { decodeEntities: true },
    );
  }

  write(chunk: string): void {
    this.lines.add(chunk);
    this.parser.write(chunk);
  }

  end(): ExtractedPage {
    this.parser.end();
    return {
      links: this.links,
      anchors: this.anchors,
      robotsMeta: this.robotsMeta,
      ...(this.canonicalHref !== undefined ? { canonicalHref: this.canonicalHref } : {}),
      ...(this.baseHref !== undefined ? { baseHref: this.baseHref } : {}),
      ...(this.title !== undefined ? { title: this.title } : {}),
    };
  }

  private openTag(name: string, attributes: Attributes): void {
    this.tagName = name;
    this.tagPosition = undefined;
    this.collectAnchor(name, attributes);
    this.collectIndexingHints(name, attributes);
    this.elementLinks(name, attributes);
    if (attributes.style) {
      for (const css of extractCssUrls(attributes.style))
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
  private here(): { line: number; column: number } {
    return (this.tagPosition ??= this.lines.position(this.parser.startIndex));
  }

  /** One link of the current tag. (Methods, not closures per tag: no allocation for plain tags.) */
  private add(attribute: string, raw: string, kind: LinkKind, missing = false): void {
    const at = this.here();
    const link: FoundLink = {
      raw,
      element: this.tagName,
      attribute,
      kind,
      line: at.line,
      column: at.column,
    };
    if (missing) link.missing = true;
    this.links.push(link);
  }

  /** The attribute is a link the element needs: missing or empty, it is reported as such. */
  private required(attributes: Attributes, attribute: string, kind: LinkKind): void {
    const raw = valueOf(attributes, attribute);
    this.add(attribute, raw, kind, raw === '');
  }

  /** The attribute is a link when present (an `<a>` without href is a placeholder). */
  private optional(attributes: Attributes, attribute: string, kind: LinkKind): void {
    if (attributes[attribute] !== undefined) this.required(attributes, attribute, kind);
  }

  private elementLinks(name: string, attributes: Attributes): void {
    switch (name) {
      case 'a':
      case 'area':
        this.optional(attributes, 'href', 'page');
        break;
      case 'link':
        this.linkElement(attributes);
        break;
      case 'script':
        this.optional(attributes, 'src', 'script');
        break;
      case 'img':
        this.imageSources(attributes);
        break;
      case 'input':
        if (valueOf(attributes, 'type').toLowerCase() === 'image')
          this.optional(attributes, 'src', 'image');
        break;
      case 'source':
        if (this.open.picture > 0 && attributes.src === undefined) {
          if (!this.srcset(attributes)) this.required(attributes, 'srcset', 'image');
        } else {
          this.required(attributes, 'src', this.open.picture > 0 ? 'image' : 'media');
        }
        break;
      case 'track':
        this.required(attributes, 'src', 'media');
        break;
      case 'iframe':
      case 'frame':
        if (attributes.src !== undefined || attributes.srcdoc === undefined)
          this.required(attributes, 'src', 'iframe');
        break;
      case 'video':
      case 'audio':
        this.optional(attributes, 'src', 'media');
        this.optional(attributes, 'poster', 'image');
        break;
      case 'object':
        this.optional(attributes, 'data', 'object');
        break;
      case 'embed':
        this.required(attributes, 'src', 'object');
        break;
      case 'meta':
        this.metaRefresh(attributes);
        break;
      case 'base':
        if (this.baseHref === undefined && attributes.href !== undefined)
          this.baseHref = valueOf(attributes, 'href');
        break;
    }
  }

  private linkElement(attributes: Attributes): void {
    const relations = (attributes.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (relations.length > 0 && relations.every((relation) => ignoredLinkRelations.has(relation)))
      return;
    let kind: LinkKind = 'other';
    if (relations.includes('stylesheet')) kind = 'stylesheet';
    else if (relations.some((relation) => iconRelations.has(relation))) kind = 'icon';
    else if (relations.some((relation) => pageRelations.has(relation))) kind = 'page';
    this.required(attributes, 'href', kind);
  }

  private imageSources(attributes: Attributes): void {
    const hasSrc = valueOf(attributes, 'src') !== '';
    const hasSrcset = this.srcset(attributes);
    if (hasSrc || !hasSrcset) this.required(attributes, 'src', 'image');
  }

  /** Adds each srcset candidate; true when there was at least one. */
  private srcset(attributes: Attributes): boolean {
    const candidates = parseSrcset(attributes.srcset ?? '');
    for (const candidate of candidates) this.add('srcset', candidate.url, 'image');
    return candidates.length > 0;
  }

  private metaRefresh(attributes: Attributes): void {
    if ((attributes['http-equiv'] ?? '').toLowerCase() !== 'refresh') return;
    const match = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$/i.exec(
      attributes.content ?? '',
    );
    const target = match?.[2]?.trim();
    if (target) this.add('content', target, 'page');
  }

  private collectAnchor(name: string, attributes: Attributes): void {
    if (attributes.id) this.anchors.push({ name: attributes.id, ...this.here() });
    if (name === 'a' && attributes.name && attributes.name !== attributes.id) {
      this.anchors.push({ name: attributes.name, ...this.here() });
    }
  }

  /** What decides whether search engines may index the page (page inclusion). */
  private collectIndexingHints(name: string, attributes: Attributes): void {
    if (name === 'meta') {
      const metaName = (attributes.name ?? '').toLowerCase();
      if (metaName === 'robots' || metaName === 'googlebot') {
        this.robotsMeta.push((attributes.content ?? '').toLowerCase());
      }
    } else if (name === 'link' && this.canonicalHref === undefined) {
      const relations = (attributes.rel ?? '').toLowerCase().split(/\s+/);
      if (relations.includes('canonical') && attributes.href)
        this.canonicalHref = attributes.href.trim();
    }
  }

  private closeTag(name: string): void {
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

  private text(text: string): void {
    if (this.titleText !== undefined && this.titleText.length < 1000) this.titleText += text;
    if (this.styleText !== undefined) {
      if (this.styleStart < 0) this.styleStart = this.parser.startIndex;
      this.styleText += text;
    }
  }

  /** url() and @import in a <style> block, each at its own position. */
  private styleUrls(css: string, start: number): void {
    for (const found of extractCssUrls(css)) {
      const at = this.lines.position(start + found.offset);
      this.links.push({
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
function valueOf(attributes: Attributes, attribute: string): string {
  return (attributes[attribute] ?? '').trim();
}

function cssKind(url: string, isImport: boolean): LinkKind {
  if (isImport) return 'stylesheet';
  return imageExtension.test(url) ? 'image' : 'other';
}

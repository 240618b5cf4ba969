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
    const at = this.lines.position(this.parser.startIndex);
    const add = (attribute: string, raw: string, kind: LinkKind, missing = false): void => {
      this.links.push({
        raw,
        element: name,
        attribute,
        kind,
        line: at.line,
        column: at.column,
        ...(missing ? { missing } : {}),
      });
    };
    this.collectAnchor(name, attributes, at);
    this.collectIndexingHints(name, attributes);
    this.elementLinks(name, attributes, add);
    if (attributes.style) {
      for (const css of extractCssUrls(attributes.style))
        add('style', css.url, cssKind(css.url, css.isImport));
    }
    if (name in this.open) this.open[name as keyof typeof this.open]++;
    if (name === 'title' && this.title === undefined && this.open.svg === 0) this.titleText = '';
    if (name === 'style') {
      this.styleText = '';
      this.styleStart = -1;
    }
  }

  private elementLinks(
    name: string,
    attributes: Attributes,
    add: (attribute: string, raw: string, kind: LinkKind, missing?: boolean) => void,
  ): void {
    const present = (attribute: string) => attributes[attribute] !== undefined;
    const value = (attribute: string) => (attributes[attribute] ?? '').trim();
    const required = (attribute: string, kind: LinkKind) =>
      add(attribute, value(attribute), kind, value(attribute) === '');
    const optional = (attribute: string, kind: LinkKind) => {
      if (present(attribute)) required(attribute, kind);
    };

    switch (name) {
      case 'a':
      case 'area':
        optional('href', 'page'); // an <a> without href is a placeholder, not a link
        break;
      case 'link':
        this.linkElement(attributes, required);
        break;
      case 'script':
        optional('src', 'script');
        break;
      case 'img':
        this.imageSources(attributes, add, required);
        break;
      case 'input':
        if (value('type').toLowerCase() === 'image') optional('src', 'image');
        break;
      case 'source':
        if (this.open.picture > 0 && !present('src')) {
          if (!this.srcset(attributes, add)) required('srcset', 'image');
        } else {
          required('src', this.open.picture > 0 ? 'image' : 'media');
        }
        break;
      case 'track':
        required('src', 'media');
        break;
      case 'iframe':
      case 'frame':
        if (present('src') || !present('srcdoc')) required('src', 'iframe');
        break;
      case 'video':
      case 'audio':
        optional('src', 'media');
        optional('poster', 'image');
        break;
      case 'object':
        optional('data', 'object');
        break;
      case 'embed':
        required('src', 'object');
        break;
      case 'meta':
        this.metaRefresh(attributes, add);
        break;
      case 'base':
        if (this.baseHref === undefined && present('href')) this.baseHref = value('href');
        break;
    }
  }

  private linkElement(
    attributes: Attributes,
    required: (attribute: string, kind: LinkKind) => void,
  ): void {
    const relations = (attributes.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (relations.length > 0 && relations.every((relation) => ignoredLinkRelations.has(relation)))
      return;
    let kind: LinkKind = 'other';
    if (relations.includes('stylesheet')) kind = 'stylesheet';
    else if (relations.some((relation) => iconRelations.has(relation))) kind = 'icon';
    else if (relations.some((relation) => pageRelations.has(relation))) kind = 'page';
    required('href', kind);
  }

  private imageSources(
    attributes: Attributes,
    add: (attribute: string, raw: string, kind: LinkKind, missing?: boolean) => void,
    required: (attribute: string, kind: LinkKind) => void,
  ): void {
    const hasSrc = (attributes.src ?? '').trim() !== '';
    const hasSrcset = this.srcset(attributes, add);
    if (hasSrc || !hasSrcset) required('src', 'image');
  }

  /** Adds each srcset candidate; true when there was at least one. */
  private srcset(
    attributes: Attributes,
    add: (attribute: string, raw: string, kind: LinkKind) => void,
  ): boolean {
    const candidates = parseSrcset(attributes.srcset ?? '');
    for (const candidate of candidates) add('srcset', candidate.url, 'image');
    return candidates.length > 0;
  }

  private metaRefresh(
    attributes: Attributes,
    add: (attribute: string, raw: string, kind: LinkKind) => void,
  ): void {
    if ((attributes['http-equiv'] ?? '').toLowerCase() !== 'refresh') return;
    const match = /^\s*\d*(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$/i.exec(
      attributes.content ?? '',
    );
    const target = match?.[2]?.trim();
    if (target) add('content', target, 'page');
  }

  private collectAnchor(
    name: string,
    attributes: Attributes,
    at: { line: number; column: number },
  ): void {
    if (attributes.id) this.anchors.push({ name: attributes.id, ...at });
    if (name === 'a' && attributes.name && attributes.name !== attributes.id) {
      this.anchors.push({ name: attributes.name, ...at });
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

function cssKind(url: string, isImport: boolean): LinkKind {
  if (isImport) return 'stylesheet';
  return imageExtension.test(url) ? 'image' : 'other';
}

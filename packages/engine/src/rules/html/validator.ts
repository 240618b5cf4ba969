import type { ConfigData, HtmlValidate, ResolvedConfig } from 'html-validate';
import type { PageElement } from '../page-dom.js';
import { requireHtmlValidate } from './html-validate-module.js';
import { foldSkeleton } from './fold.js';
import { buildSkeleton, type Skeleton, type SkeletonSource } from './skeleton.js';

/**
 * html-validate's `standard` preset: what the HTML standard requires, no style preferences
 * (quote style, case, trailing white space). Plus a missing doctype and `<div/>`, which does not
 * close the div. Accessibility checks are left to our UX rules, and the config's own
 * housekeeping (unused disable directives, deprecated rule names) says nothing about a page.
 */
export const htmlValidateConfig: ConfigData = {
  root: true,
  extends: ['html-validate:standard'],
  elements: ['html5'],
  rules: {
    'missing-doctype': 'error',
    'no-self-closing': 'error',
    'no-unused-disable': 'off',
    'deprecated-rule': 'off',
  },
};

/**
 * html-validate is required on first use (about 40 ms, without its schema checks: see
 * html-validate-module.ts): a scan without Valid HTML rules, and every CLI start, never pays
 * for it.
 */
function createHtmlValidate(): HtmlValidate {
  const module = requireHtmlValidate();

  /**
   * StaticConfigLoader resolves the configuration again for every document, rebuilding the
   * whole element metadata table: five times the cost of validating a page. Loaders may cache
   * the resolved configuration (html-validate's ConfigLoader contract), and ours never changes.
   */
  class ResolvedOnceConfigLoader extends module.StaticConfigLoader {
    private resolved: ResolvedConfig | Promise<ResolvedConfig> | undefined;

    override getConfigFor(
      handle: string,
      configOverride?: ConfigData,
    ): ResolvedConfig | Promise<ResolvedConfig> {
      if (configOverride) return super.getConfigFor(handle, configOverride);
      return (this.resolved ??= super.getConfigFor(handle));
    }
  }

  return new module.HtmlValidate(new ResolvedOnceConfigLoader(htmlValidateConfig));
}

/** What validating reads of a parsed page (a ParsedPage is one): its skeleton, depth and memo. */
export interface ValidatedPage extends SkeletonSource {
  readonly elements: readonly PageElement[];
  readonly unclosed: number;
  /** Computes a per-page analysis once, however many rules ask for it. */
  memo<T>(key: symbol, compute: () => T): T;
}

/** One html-validate message located in the page. */
export interface HtmlMessage {
  ruleId: string;
  message: string;
  /** Page offset of the element or text the message is about. */
  offset: number;
  size: number;
}

type SkeletonMessage = Pick<HtmlMessage, 'ruleId' | 'message' | 'offset' | 'size'>;

// Enough for the templates of a large site; the oldest skeleton is forgotten first.
const cacheEntries = 512;
const cacheChars = 8_000_000; // 16 MB of UTF-16 at most
// html-validate takes about a second per megabyte, and its time grows with the square of the
// nesting depth (20,000 nested elements: 10 s). Such pages are reported, not validated.
// Unclosed elements nest ever deeper in html-validate's tree (20,000 unclosed links: 12 s).
const maxValidatedChars = 1_000_000;
const maxValidatedDepth = 1000;
const maxUnclosed = 1000;
const messagesKey = Symbol('html-validate messages');

/** A validated skeleton, kept under its hash. */
interface CacheEntry {
  source: string;
  messages: readonly SkeletonMessage[];
}

/** html-validate for one scan, validating each page skeleton once (see skeleton.ts). */
export class HtmlValidator {
  private readonly engine = createHtmlValidate();
  // Keyed by the skeleton's hash, so a page of a known template is found without building
  // its skeleton as a string; the entry's source confirms the match.
  private readonly cache = new Map<number, CacheEntry>();
  private cachedChars = 0;

  /** The messages for a page, computed once per page whichever rule asks first. */
  messages(page: ValidatedPage): readonly HtmlMessage[] {
    return page.memo(messagesKey, () => this.validate(page));
  }

  private validate(page: ValidatedPage): HtmlMessage[] {
    const depth = page.elements.reduce((deepest, element) => Math.max(deepest, element.depth), 0);
    if (depth > maxValidatedDepth) {
      return [notValidated(`elements nested ${depth} levels deep (limit ${maxValidatedDepth})`)];
    }
    if (page.unclosed > maxUnclosed) {
      return [notValidated(`${page.unclosed} elements are never closed (limit ${maxUnclosed})`)];
    }
    const skeleton = buildSkeleton(page);
    if (skeleton.length > maxValidatedChars) {
      const size = `${skeleton.length} characters of markup (limit ${maxValidatedChars})`;
      return [notValidated(size)];
    }
    const found = this.cached(skeleton) ?? this.run(skeleton, page);
    return found.map((message) => {
      const offset = tagStart(page.html, skeleton.toPage(message.offset));
      return { ...message, offset };
    });
  }

  /** The messages of an already validated skeleton, now the most recently used. */
  private cached(skeleton: Skeleton): readonly SkeletonMessage[] | undefined {
    const entry = this.cache.get(skeleton.hash);
    if (!entry || !skeleton.equals(entry.source)) return undefined;
    this.cache.delete(skeleton.hash);
    this.cache.set(skeleton.hash, entry);
    return entry.messages;
  }

  private run(skeleton: Skeleton, page: ValidatedPage): readonly SkeletonMessage[] {
    const source = skeleton.source;
    const messages = this.validateSkeleton(skeleton, page);
    this.forget(skeleton.hash); // another skeleton with the same hash, if any
    this.cache.set(skeleton.hash, { source, messages });
    this.cachedChars += source.length;
    while (this.cache.size > cacheEntries || this.cachedChars > cacheChars) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
    return messages;
  }

  /** The skeleton's messages: html-validate reads its repeated inline markup once (fold.ts). */
  private validateSkeleton(skeleton: Skeleton, page: ValidatedPage): SkeletonMessage[] {
    const folded = foldSkeleton(page, skeleton);
    if (folded) {
      const messages = this.lint(folded.source);
      // Where html-validate cannot lex the page it stops, and copies after that point it would
      // never have reached: such a page is validated whole.
      if (!messages.some((message) => message.ruleId === 'parser-error'))
        return folded.expand(messages);
    }
    return this.lint(skeleton.source);
  }

  private forget(hash: number): void {
    const entry = this.cache.get(hash);
    if (!entry) return;
    this.cache.delete(hash);
    this.cachedChars -= entry.source.length;
  }

  private lint(source: string): SkeletonMessage[] {
    try {
      const report = this.engine.validateStringSync(source);
      return report.results.flatMap((result) =>
        result.messages.map(({ ruleId, message, offset, size }) => ({
          ruleId,
          message,
          offset,
          size,
        })),
      );
    } catch (error) {
      // html-validate throws on input it cannot lex at all; that is an HTML error too.
      return [{ ruleId: 'parser-error', message: (error as Error).message, offset: 0, size: 1 }];
    }
  }
}

/** Reported under Other HTML error, so a page too large to validate is never silently "valid". */
function notValidated(reason: string): HtmlMessage {
  return {
    ruleId: 'linkaudit-not-validated',
    message: `Not validated: ${reason}`,
    offset: 0,
    size: 1,
  };
}

/** html-validate points at a tag's name; our rules point at its `<` (or `</`). */
function tagStart(html: string, offset: number): number {
  if (html[offset - 1] === '<') return offset - 1;
  if (html[offset - 1] === '/' && html[offset - 2] === '<') return offset - 2;
  return offset;
}

import type { LinkCheck, LinkKind } from '../events.js';

/** A unique URL to fetch (the seen index holds one per key). */
export interface Target {
  id: number;
  /** The URL fetched: absolute, without fragment. */
  url: string;
  host: string;
  internal: boolean;
  /** The shallowest depth it was found at (the start page is 1). */
  depth: number;
  /** Fetched with GET and parsed when HTML; otherwise only checked. */
  crawl: boolean;
  /** Not crawled, but fetched with GET and read for anchors (checkAnchors on a navigational link). */
  readAnchors: boolean;
  /** Referenced as a resource (image, CSS, script…): its size matters for page weights. */
  resource: boolean;
  /** Linked or imported as an internal stylesheet: fetched with GET and read for its references. */
  stylesheet: boolean;
  /** Stands for a page's final address after a redirect; never fetched itself. */
  alias?: boolean;
  /** Set when it was parsed as a page (or is an alias of one). */
  pageId?: number;
  /** The target whose fetch reads this page (itself, or a redirect that reached it first). */
  claimedBy?: Target;
  /** A redirect whose page is read through this other target. */
  sameAs?: Target;
  /** Settles when the claimed page has been read (its anchors are known). */
  pageRead?: Promise<void> | undefined;
  /** Bytes downloaded when it was parsed as a page. */
  bytes?: number;
  state: 'queued' | 'active' | 'settled';
  /**
   * Queued again to be read as a page: it was only checked (or read for its anchors) when a link
   * a visitor follows made it a page to crawl. Its occurrences wait until that read is done.
   */
  reread?: boolean;
  check?: LinkCheck;
  /** Head of its list of occurrences waiting for the check (-1: none). */
  pendingHead: number;
}

/** How a link was written: element, attribute and kind, interned to a small number. */
export interface LinkShape {
  element: string;
  attribute: string;
  kind: LinkKind;
  rendered?: true;
}

export class LinkShapes {
  private readonly shapes: LinkShape[] = [];
  // Nested maps rather than a joined string key: this runs once per link, so no allocation.
  private readonly codes = new Map<string, Map<string, Map<LinkKind, number>>>();

  intern(element: string, attribute: string, kind: LinkKind, rendered = false): number {
    // (Links only rendering found are few: their shapes are kept apart by a marked element name.)
    if (rendered) return this.internRendered(element, attribute, kind);
    let byAttribute = this.codes.get(element);
    if (!byAttribute)
      this.codes.set(element, (byAttribute = new Map<string, Map<LinkKind, number>>()));
    let byKind = byAttribute.get(attribute);
    if (!byKind) byAttribute.set(attribute, (byKind = new Map<LinkKind, number>()));
    let code = byKind.get(kind);
    if (code === undefined) {
      code = this.shapes.push({ element, attribute, kind }) - 1;
      byKind.set(kind, code);
    }
    return code;
  }

  private internRendered(element: string, attribute: string, kind: LinkKind): number {
    const code = this.intern(`\u0000${element}`, attribute, kind);
    const shape = this.shapes[code]!;
    if (!shape.rendered) this.shapes[code] = { element, attribute, kind, rendered: true };
    return code;
  }

  get(code: number): LinkShape {
    const shape = this.shapes[code];
    if (!shape) throw new Error(`unknown link shape ${code}`);
    return shape;
  }
}

/** Receives one waiting occurrence, field by field (no object per occurrence). */
export type OccurrenceVisitor = (
  sourceId: number,
  line: number,
  column: number,
  shape: number,
  fragment: string,
) => void;

/** The fields of one waiting occurrence, side by side in PendingOccurrences' records. */
const sourceField = 0;
const lineField = 1;
const columnField = 2;
const shapeField = 3;
const nextField = 4;
const recordSize = 5;

/**
 * Occurrences of links whose target is not checked yet, kept as numbers in one typed array (20
 * bytes each, no strings that could pin page text) and handed back when the check lands. Each
 * occurrence's fields lie side by side: slots are reused in any order, and one record is one
 * cache line rather than five arrays to touch (this runs for most links of a large site).
 */
export class PendingOccurrences {
  private capacity = 4096;
  private records = new Int32Array(this.capacity * recordSize);
  private readonly fragments = new Map<number, string>();
  private used = 0;
  private freeHead = -1;

  add(
    target: Target,
    sourceId: number,
    line: number,
    column: number,
    shape: number,
    fragment: string,
  ): void {
    const slot = this.allocate();
    const at = slot * recordSize;
    this.records[at + sourceField] = sourceId;
    this.records[at + lineField] = line;
    this.records[at + columnField] = column;
    this.records[at + shapeField] = shape;
    this.records[at + nextField] = target.pendingHead;
    if (fragment) this.fragments.set(slot, fragment);
    target.pendingHead = slot;
  }

  /** Removes a target's waiting occurrences, handing each to `visit`, oldest first. */
  drain(target: Target, visit: OccurrenceVisitor): void {
    // The list is newest first; turning it around in place gives the order they were found in.
    let slot = this.reverse(target.pendingHead);
    target.pendingHead = -1;
    while (slot !== -1) {
      const at = slot * recordSize;
      const following = this.nextOf(slot);
      const fragment = this.fragments.size > 0 ? (this.fragments.get(slot) ?? '') : '';
      visit(
        this.records[at + sourceField] ?? 0,
        this.records[at + lineField] ?? 0,
        this.records[at + columnField] ?? 0,
        this.records[at + shapeField] ?? 0,
        fragment,
      );
      this.release(slot);
      slot = following;
    }
  }

  /** Reverses the list starting at `head`; returns its new head. */
  private reverse(head: number): number {
    let previous = -1;
    let slot = head;
    while (slot !== -1) {
      const following = this.nextOf(slot);
      this.records[slot * recordSize + nextField] = previous;
      previous = slot;
      slot = following;
    }
    return previous;
  }

  private nextOf(slot: number): number {
    return this.records[slot * recordSize + nextField] ?? -1;
  }

  private release(slot: number): void {
    if (this.fragments.size > 0) this.fragments.delete(slot);
    this.records[slot * recordSize + nextField] = this.freeHead;
    this.freeHead = slot;
  }

  private allocate(): number {
    if (this.freeHead !== -1) {
      const slot = this.freeHead;
      this.freeHead = this.nextOf(slot);
      return slot;
    }
    if (this.used === this.capacity) this.grow();
    return this.used++;
  }

  private grow(): void {
    this.capacity *= 2;
    const grown = new Int32Array(this.capacity * recordSize);
    grown.set(this.records);
    this.records = grown;
  }
}

/** The page a target stands for: its own, or that of the target its redirect reached. */
export function pageIdOf(target: Target | undefined): number | undefined {
  return target?.pageId ?? target?.sameAs?.pageId;
}

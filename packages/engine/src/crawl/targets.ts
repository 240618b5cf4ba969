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
  /** Stands for a page's final address after a redirect; never fetched itself. */
  alias?: boolean;
  /** Set when it was parsed as a page (or is an alias of one). */
  pageId?: number;
  /** The target whose fetch reads this page (itself, or a redirect that reached it first). */
  claimedBy?: Target;
  /** A redirect whose page is read through this other target. */
  sameAs?: Target;
  /** Settles when the claimed page has been read (its anchors are known). */
  pageRead?: Promise<void>;
  /** Bytes downloaded when it was parsed as a page. */
  bytes?: number;
  state: 'queued' | 'active' | 'settled';
  check?: LinkCheck;
  /** Head of its list of occurrences waiting for the check (-1: none). */
  pendingHead: number;
}

/** How a link was written: element, attribute and kind, interned to a small number. */
export interface LinkShape {
  element: string;
  attribute: string;
  kind: LinkKind;
}

export class LinkShapes {
  private readonly shapes: LinkShape[] = [];
  // Nested maps rather than a joined string key: this runs once per link, so no allocation.
  private readonly codes = new Map<string, Map<string, Map<LinkKind, number>>>();

  intern(element: string, attribute: string, kind: LinkKind): number {
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

  get(code: number): LinkShape {
    const shape = this.shapes[code];
    if (!shape) throw new Error(`unknown link shape ${code}`);
    return shape;
  }
}

/** An occurrence waiting for its target's check, unpacked. */
export interface PendingOccurrence {
  sourceId: number;
  line: number;
  column: number;
  shape: number;
  fragment: string;
}

/**
 * Occurrences of links whose target is not checked yet, kept as numbers in typed arrays (about
 * 20 bytes each, no strings that could pin page text) and handed back when the check lands.
 */
export class PendingOccurrences {
  private capacity = 4096;
  private source = new Int32Array(this.capacity);
  private line = new Int32Array(this.capacity);
  private column = new Int32Array(this.capacity);
  private shape = new Int32Array(this.capacity);
  private next = new Int32Array(this.capacity);
  private readonly fragments = new Map<number, string>();
  private used = 0;
  private freeHead = -1;

  add(target: Target, occurrence: PendingOccurrence): void {
    const slot = this.allocate();
    this.source[slot] = occurrence.sourceId;
    this.line[slot] = occurrence.line;
    this.column[slot] = occurrence.column;
    this.shape[slot] = occurrence.shape;
    if (occurrence.fragment) this.fragments.set(slot, occurrence.fragment);
    this.next[slot] = target.pendingHead;
    target.pendingHead = slot;
  }

  /** Removes a target's waiting occurrences, handing each to `visit`, oldest first. */
  drain(target: Target, visit: (occurrence: PendingOccurrence) => void): void {
    const slots = this.slotsOf(target);
    for (let index = slots.length - 1; index >= 0; index--) {
      const slot = slots[index] ?? 0;
      visit({
        sourceId: this.source[slot] ?? 0,
        line: this.line[slot] ?? 0,
        column: this.column[slot] ?? 0,
        shape: this.shape[slot] ?? 0,
        fragment: this.fragments.get(slot) ?? '',
      });
      this.release(slot);
    }
    target.pendingHead = -1;
  }

  private slotsOf(target: Target): number[] {
    const slots: number[] = [];
    for (let slot = target.pendingHead; slot !== -1; slot = this.next[slot] ?? -1) slots.push(slot);
    return slots;
  }

  private release(slot: number): void {
    if (this.fragments.size > 0) this.fragments.delete(slot);
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
  }

  private allocate(): number {
    if (this.freeHead !== -1) {
      const slot = this.freeHead;
      this.freeHead = this.next[slot] ?? -1;
      return slot;
    }
    if (this.used === this.capacity) this.grow();
    return this.used++;
  }

  private grow(): void {
    this.capacity *= 2;
    const grow = (array: Int32Array) => {
      const grown = new Int32Array(this.capacity);
      grown.set(array);
      return grown;
    };
    this.source = grow(this.source);
    this.line = grow(this.line);
    this.column = grow(this.column);
    this.shape = grow(this.shape);
    this.next = grow(this.next);
  }
}

/** The page a target stands for: its own, or that of the target its redirect reached. */
export function pageIdOf(target: Target | undefined): number | undefined {
  return target?.pageId ?? target?.sameAs?.pageId;
}

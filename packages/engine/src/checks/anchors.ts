import type { AnchorCheck, SourcePosition } from '../events.js';
import type { PageAnchor } from '../extract/found-link.js';

/** FNV-1a: anchors are kept as 32-bit hashes, 4 bytes each, for every page of the scan. */
export function anchorHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * The names a fragment can match, as the HTML standard tries them ("the indicated part of the
 * document"): as written, then percent-decoded leniently and read as UTF-8.
 */
function fragmentCandidates(fragment: string): string[] {
  const raw = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const decoded = percentDecode(raw);
  return decoded === raw ? [raw] : [raw, decoded];
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The URL standard's percent-decoding, then UTF-8 decoding with replacement: a `%` not followed
 * by two hex digits stays as it is (decodeURIComponent throws there, so `#50%%20off` and Vim's
 * `#:_%%<` could not match), and bytes that are not UTF-8 become U+FFFD.
 */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  const bytes = Buffer.from(text, 'utf8');
  let length = 0;
  for (let index = 0; index < bytes.length; index++) {
    const high = hexValue(bytes[index + 1]);
    const low = hexValue(bytes[index + 2]);
    if (bytes[index] === 0x25 /* % */ && high !== -1 && low !== -1) {
      bytes[length++] = high * 16 + low;
      index += 2;
    } else {
      bytes[length++] = bytes[index]!;
    }
  }
  return utf8.decode(bytes.subarray(0, length));
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const letter = byte | 0x20;
  return letter >= 0x61 && letter <= 0x66 ? letter - 0x61 + 10 : -1;
}

/** `#`, `#top` (any case) and text fragments (`#:~:text=`) always work in browsers. */
export function isTrivialFragment(fragment: string): boolean {
  const names = fragmentCandidates(fragment);
  const name = names[names.length - 1] ?? '';
  return name === '' || name.toLowerCase() === 'top' || name.startsWith(':~:');
}

/**
 * GitHub renders a README's heading "Usage" with id "user-content-usage" and its page script
 * scrolls `#usage` there: a link to github.com/…#usage works in every browser (issue 38).
 */
function namesOf(name: string): string[] {
  return name.startsWith('user-content-') ? [name, name.slice('user-content-'.length)] : [name];
}

/** The anchors of every page read so far, by target id. */
export class AnchorIndex {
  private readonly pages = new Map<number, Int32Array>();
  private readonly aliases = new Map<number, number>();

  record(targetId: number, anchors: PageAnchor[]): void {
    this.pages.set(
      targetId,
      Int32Array.from(new Set(anchors.flatMap(({ name }) => namesOf(name)).map(anchorHash))).sort(),
    );
  }

  /** Anchors kept from an earlier run (crawl/result-cache.ts), as `hashesOf` gave them. */
  recordHashes(targetId: number, hashes: readonly number[]): void {
    this.pages.set(targetId, Int32Array.from(hashes).sort());
  }

  /** The anchors read of a page, as hashes, or undefined when it was not read for them. */
  hashesOf(targetId: number): number[] | undefined {
    const hashes = this.pages.get(targetId);
    return hashes ? Array.from(hashes) : undefined;
  }

  /** A redirect has the anchors of the page it reached (which may still be being read). */
  alias(aliasId: number, targetId: number): void {
    if (aliasId !== targetId) this.aliases.set(aliasId, targetId);
  }

  check(targetId: number, fragment: string): AnchorCheck {
    let id = targetId;
    for (let hops = 0; hops < 8 && !this.pages.has(id) && this.aliases.has(id); hops++)
      id = this.aliases.get(id) ?? id;
    const hashes = this.pages.get(id);
    if (!hashes) return { fragment, state: 'unverifiable' };
    const found = fragmentCandidates(fragment).some((name) =>
      binarySearch(hashes, anchorHash(name)),
    );
    return { fragment, state: found ? 'found' : 'missing' };
  }
}

function binarySearch(sorted: Int32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const item = sorted[middle] ?? 0;
    if (item === value) return true;
    if (item < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Each repeat of an id or a[name] on one page, with the first occurrence's position. */
export function findDuplicateAnchors(
  anchors: PageAnchor[],
): Array<{ name: string; first: SourcePosition; duplicate: SourcePosition }> {
  const first = new Map<string, SourcePosition>();
  const duplicates: Array<{ name: string; first: SourcePosition; duplicate: SourcePosition }> = [];
  for (const anchor of anchors) {
    const position = { line: anchor.line, column: anchor.column };
    const earlier = first.get(anchor.name);
    if (earlier) duplicates.push({ name: anchor.name, first: earlier, duplicate: position });
    else first.set(anchor.name, position);
  }
  return duplicates;
}

/**
 * A fixed set of lower-case ASCII names (tag or attribute names), looked up case-insensitively
 * straight from the document's text: no string is made for a name just to look it up, and that
 * happens for every tag and every attribute of every page.
 */
export class NameTable<Value> {
  private readonly buckets: ({ name: string; value: Value }[] | undefined)[] = [];

  constructor(entries: Iterable<readonly [string, Value]>) {
    for (const [name, value] of entries) {
      if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not a lower-case ASCII name: ${name}`);
      (this.buckets[bucketOf(name, 0, name.length)] ??= []).push({ name, value });
    }
  }

  /** The value of the name written from `start` to `end` of `text`, in any case. */
  find(text: string, start: number, end: number): Value | undefined {
    const bucket = this.buckets[bucketOf(text, start, end)];
    if (bucket === undefined) return undefined;
    const length = end - start;
    for (const entry of bucket) {
      if (entry.name.length === length && sameName(entry.name, text, start)) return entry.value;
    }
    return undefined;
  }
}

function sameName(name: string, text: string, start: number): boolean {
  for (let index = 0; index < name.length; index++) {
    if (lowerAscii(text.charCodeAt(start + index)) !== name.charCodeAt(index)) return false;
  }
  return true;
}

/** Buckets by length, first and last character: names of a set rarely share all three. */
function bucketOf(text: string, start: number, end: number): number {
  const first = lowerAscii(text.charCodeAt(start));
  const last = lowerAscii(text.charCodeAt(end - 1));
  return ((end - start) * 31 + first * 7 + last) & 255;
}

function lowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

import { describe, expect, it } from 'vitest';
import { jsonPieces, streamed, StreamedArray } from './json-pieces.js';

/** The value with every StreamedArray made a plain array, for JSON.stringify to compare with. */
function whole(value: unknown): unknown {
  if (value instanceof StreamedArray)
    return [...value.items].map((item) => whole(value.toJson(item)));
  if (Array.isArray(value)) return value.map(whole);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, whole(entry)]));
  }
  return value;
}

const text = (value: unknown) => [...jsonPieces(value)].join('');

describe('jsonPieces', () => {
  it.each([
    ['an empty streamed array', () => streamed([], (item) => item)],
    ['an object holding only an empty streamed array', () => ({ list: streamed([], (x) => x) })],
    [
      'undefined and function values, left out of objects and null in arrays',
      () => ({
        a: undefined,
        b: () => 1,
        c: streamed([1, undefined, () => 2, 'x'], (item) => item),
        d: [undefined, streamed([{ e: undefined }], (item) => item)],
      }),
    ],
    [
      'nested streamed arrays in objects in arrays, and keys that need escaping',
      () => ({
        '"key"\n': [
          1,
          { inner: streamed(['a', 'b'], (item) => ({ item, list: streamed([item], (x) => [x]) })) },
        ],
        empty: {},
        plain: { deep: [[], {}, [{ x: 1 }]] },
        after: null,
      }),
    ],
    [
      'a streamed array of objects made as they are read',
      () => streamed([1, 2, 3], (n) => ({ n, odd: n % 2 === 1 })),
    ],
  ])('writes %s as JSON.stringify(value, null, 2) does', (_name, make) => {
    expect(text(make())).toBe(JSON.stringify(whole(make()), null, 2));
  });

  it('reads a streamed array only once, as it writes it', () => {
    let reads = 0;
    function* items() {
      for (let index = 0; index < 3; index++) {
        reads += 1;
        yield index;
      }
    }
    const pieces = jsonPieces({ list: streamed(items(), (item) => item) });
    expect(pieces.next().value).toBe('{');
    expect(reads).toBe(0);
    expect([...pieces].join('')).toBe('\n  "list": [\n    0,\n    1,\n    2\n  ]\n}');
    expect(reads).toBe(3);
  });
});

/**
 * An array that `jsonPieces` writes one item at a time: the items are made into JSON values by
 * `toJson` only as they are written, so neither the array of JSON values nor its text is ever
 * whole in memory. `items` is read once.
 */
export class StreamedArray<T = unknown> {
  constructor(
    readonly items: Iterable<T>,
    readonly toJson: (item: T) => unknown = (item) => item,
  ) {}
}

/** An array of JSON values made one by one from `items` as they are written. */
export function streamed<T>(items: Iterable<T>, toJson: (item: T) => unknown): StreamedArray<T> {
  return new StreamedArray(items, toJson);
}

/**
 * `JSON.stringify(value, null, 2)` in pieces. A StreamedArray, and every plain object or array
 * that holds one, is written part by part, with the indentation and separators JSON.stringify
 * would use; every other value is one JSON.stringify, indented to its place. (Values are plain
 * data: no toJSON, no cycles; an object's undefined and function values are left out and in
 * arrays they are null, as JSON.stringify does.)
 */
export function* jsonPieces(value: unknown, indent = ''): Generator<string> {
  if (value instanceof StreamedArray) {
    yield* arrayPieces(value.items, value.toJson, indent);
  } else if (Array.isArray(value) && holdsStreamed(value)) {
    yield* arrayPieces(value, (item) => item, indent);
  } else if (isPlainObject(value) && holdsStreamed(value)) {
    yield* objectPieces(value, indent);
  } else {
    const json = JSON.stringify(value, null, 2) ?? 'null';
    yield indent === '' || !json.includes('\n') ? json : json.replaceAll('\n', `\n${indent}`);
  }
}

function* arrayPieces<T>(
  items: Iterable<T>,
  toJson: (item: T) => unknown,
  indent: string,
): Generator<string> {
  const inner = `${indent}  `;
  let empty = true;
  yield '[';
  for (const item of items) {
    yield `${empty ? '\n' : ',\n'}${inner}`;
    empty = false;
    yield* jsonPieces(toJson(item), inner);
  }
  yield empty ? ']' : `\n${indent}]`;
}

function* objectPieces(value: Record<string, unknown>, indent: string): Generator<string> {
  const inner = `${indent}  `;
  let empty = true;
  yield '{';
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue;
    yield `${empty ? '\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
    empty = false;
    yield* jsonPieces(entry, inner);
  }
  yield empty ? '}' : `\n${indent}}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether a StreamedArray is anywhere inside: only then is a value written part by part. */
function holdsStreamed(value: unknown): boolean {
  if (value instanceof StreamedArray) return true;
  if (Array.isArray(value)) return value.some(holdsStreamed);
  return isPlainObject(value) && Object.values(value).some(holdsStreamed);
}

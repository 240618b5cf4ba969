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
    yield wholeJson(value, indent);
  }
}

/** Consecutive items without a streamed part are stringified this many at a time. */
const batchLength = 32;
/** How long the text of whole items grows before it is handed on as one piece. */
const pieceLength = 8 * 1024;

function* arrayPieces<T>(
  items: Iterable<T>,
  toJson: (item: T) => unknown,
  indent: string,
): Generator<string> {
  const inner = `${indent}  `;
  // Most items have no streamed part (a source, a violation): they are stringified a batch at a
  // time and handed on in pieces of ~8 KB. One JSON.stringify per item, and one piece per item
  // handed up through every enclosing generator, cost several times the one-string report.
  let text = '[';
  let written = 0;
  let batch: unknown[] = [];
  const flush = (): void => {
    if (batch.length === 0) return;
    // "[\n  a,\n  b\n]" without its brackets is the items at one level: indent them to this one.
    const body = JSON.stringify(batch, null, 2).slice(2, -2);
    text += `${written === 0 ? '\n' : ',\n'}${indent}${indent === '' ? body : body.replaceAll('\n', `\n${indent}`)}`;
    written += batch.length;
    batch = [];
  };
  for (const item of items) {
    const value = toJson(item);
    if (!holdsStreamed(value)) {
      batch.push(value);
      if (batch.length === batchLength) flush();
      if (text.length >= pieceLength) {
        yield text;
        text = '';
      }
      continue;
    }
    flush();
    yield `${text}${written === 0 ? '\n' : ',\n'}${inner}`;
    text = '';
    written += 1;
    yield* jsonPieces(value, inner);
  }
  flush();
  yield `${text}${written === 0 ? ']' : `\n${indent}]`}`;
}

/** One JSON.stringify, indented to its place (null where JSON.stringify gives nothing: in arrays). */
function wholeJson(value: unknown, indent: string): string {
  const json = JSON.stringify(value, null, 2) ?? 'null';
  return indent === '' || !json.includes('\n') ? json : json.replaceAll('\n', `\n${indent}`);
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
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof StreamedArray) return true;
  if (Array.isArray(value)) return value.some(holdsStreamed);
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && holdsStreamed(value[key])) return true;
  }
  return false;
}

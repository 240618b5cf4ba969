import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import { closeBody } from './http-client.js';

/** Decompresses a body by its Content-Encoding; unknown encodings pass through unchanged. */
export function decompress(body: Readable, contentEncoding: string | undefined): Readable {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  // Flush on truncation so a page cut short still yields what arrived.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = zlib.createGunzip(flush);
  else if (encoding === 'deflate') decoder = zlib.createInflate(flush);
  else if (encoding === 'br') {
    decoder = zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  }
  if (!decoder) return body;
  body.on('error', (error) => decoder.destroy(error));
  return body.pipe(decoder);
}

const metaCharsetPattern = /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i;

/** The charset named in a Content-Type header, if any. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*"?([\w:.-]+)/i.exec(contentType ?? '')?.[1];
}

/** The charset a page declares in its first 1024 bytes (HTML's prescan, simplified). */
export function sniffMetaCharset(head: Uint8Array): string | undefined {
  return metaCharsetPattern.exec(Buffer.from(head.subarray(0, 1024)).toString('latin1'))?.[1];
}

/** A streaming decoder for the charset, falling back to UTF-8 for labels we do not know. */
export function createTextDecoder(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** TextDecoder's option for every chunk but the last (one object, not one per chunk). */
const streaming = { stream: true } as const;

/** How reading an HTML body ended: the bytes read, and the error that cut it short if any. */
export interface HtmlRead {
  bytes: number;
  error?: unknown;
}

/**
 * Reads an HTML body as text, handing each decoded piece to `onText`: decompressed, charset
 * from the header, else from a `<meta>` in the first bytes, else UTF-8. Reading stops at
 * `maxBytes` of decompressed data. It never rejects: a body cut short yields what arrived.
 * (Stream events, not `for await`: async iteration made promises and listeners for every chunk
 * of every page.)
 */
export function readHtml(
  body: Readable,
  headers: { contentType?: string; contentEncoding?: string },
  maxBytes: number,
  onText: (text: string) => void,
): Promise<HtmlRead> {
  const stream = decompress(body, headers.contentEncoding);
  let decoder: TextDecoder | undefined;
  let bytes = 0;
  return new Promise((resolve) => {
    let finished = false;
    const finish = (error?: unknown) => {
      if (finished) return;
      finished = true;
      stream.off('data', onData);
      let failure = error;
      try {
        const rest = decoder?.decode();
        if (rest) onText(rest);
      } catch (late) {
        failure ??= late;
      }
      closeBody(stream);
      if (stream !== body) closeBody(body);
      resolve(failure === undefined ? { bytes } : { bytes, error: failure });
    };
    const onData = (raw: Buffer) => {
      let chunk = raw;
      if (bytes + chunk.length > maxBytes) chunk = chunk.subarray(0, maxBytes - bytes);
      bytes += chunk.length;
      decoder ??= createTextDecoder(
        charsetFromContentType(headers.contentType) ?? sniffMetaCharset(chunk),
      );
      try {
        const text = decoder.decode(chunk, streaming);
        if (text) onText(text);
      } catch (error) {
        finish(error);
        return;
      }
      if (bytes >= maxBytes) finish();
    };
    stream.on('data', onData);
    stream.once('end', () => finish());
    stream.once('error', (error) => finish(error));
    stream.once('close', () => finish());
  });
}

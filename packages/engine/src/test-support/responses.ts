import { once } from 'node:events';
import { answerRoute } from './test-site.js';
import type { Route, RouteHandler, RouteResponse } from './test-site.js';

/** A small HTML document around a body. */
export function htmlPage(body: string, head = ''): string {
  return `<!doctype html>\n<html><head>${head}</head><body>\n${body}\n</body></html>\n`;
}

/** An HTML page made of links, one per line. */
export function linksPage(hrefs: readonly string[]): string {
  return htmlPage(hrefs.map((href) => `<a href="${href}">${href}</a>`).join('\n'));
}

/** A redirect to `location` (absolute or relative, sent as written). */
export function redirect(location: string, status = 301): RouteResponse {
  return { status, headers: { location, 'content-type': 'text/plain' }, body: '' };
}

/** An answer with only a status (and a short plain-text body). */
export function statusOnly(status: number, headers: RouteResponse['headers'] = {}): RouteResponse {
  return { status, headers: { 'content-type': 'text/plain', ...headers }, body: `${status}` };
}

/** Drops the connection without answering. */
export const connectionReset: RouteResponse = { reset: true };

/** The first request gets the first answer, the second the second…; the last one repeats. */
export function sequence(...answers: Route[]): RouteResponse {
  return {
    handler: (request, response, context) => {
      const route = answers[Math.min(context.hit, answers.length) - 1] ?? '';
      return answerRoute(route, request, response, context);
    },
  };
}

/** Answers by request method; methods not listed get `otherwise`. */
export function byMethod(methods: Record<string, Route>, otherwise: Route): RouteResponse {
  return {
    handler: (request, response, context) =>
      answerRoute(methods[request.method ?? 'GET'] ?? otherwise, request, response, context),
  };
}

/** A resource whose server refuses HEAD with `status` (405 by default) but serves GET. */
export function headRefused(route: Route, status = 405): RouteResponse {
  return byMethod({ HEAD: statusOnly(status) }, route);
}

/** A resource whose server drops the connection on HEAD but serves GET. */
export function headDropped(route: Route): RouteResponse {
  return byMethod({ HEAD: connectionReset }, route);
}

/** Bot protection as Cloudflare answers it: 403 with `cf-mitigated: challenge`. */
export const cloudflareChallenge: RouteResponse = {
  status: 403,
  headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' },
  body: '<html><title>Just a moment...</title></html>',
};

export interface HugePage {
  route: RouteResponse;
  /** Bytes the server managed to write for the last request (stops when the client leaves). */
  bytesSent(): number;
}

/**
 * A page of `totalBytes` streamed in 64 KiB chunks (with back-pressure, never held in memory):
 * `head`, then filler paragraphs, then `tail`.
 */
export function hugePage(head: string, tail: string, totalBytes: number): HugePage {
  let sent = 0;
  const chunk = Buffer.from(
    '<p>lorem ipsum dolor sit amet, filler text of a very long page.</p>\n'.repeat(1000),
  );
  const handler: RouteHandler = async (request, response, context) => {
    sent = 0;
    const headBytes = Buffer.from(head);
    const tailBytes = Buffer.from(tail);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': totalBytes,
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const write = async (bytes: Buffer): Promise<void> => {
      sent += bytes.byteLength;
      if (!response.write(bytes)) await once(response, 'drain', { signal: context.signal });
    };
    await write(headBytes);
    let remaining = totalBytes - headBytes.byteLength - tailBytes.byteLength;
    while (remaining > 0 && !context.signal.aborted) {
      const piece = remaining >= chunk.byteLength ? chunk : chunk.subarray(0, remaining);
      remaining -= piece.byteLength;
      await write(piece);
    }
    await write(tailBytes);
    response.end();
  };
  return { route: { handler }, bytesSent: () => sent };
}

/** The bytes of `text` in windows-1252 (Latin-1 letters only: enough for accented test words). */
export function windows1252(text: string): Buffer {
  const bytes = [...text].map((character) => {
    const code = character.codePointAt(0) ?? 0x3f;
    if (code > 0xff || (code >= 0x80 && code < 0xa0))
      throw new Error(`not in the test encoder: ${character}`);
    return code;
  });
  return Buffer.from(bytes);
}

/** A file of exactly `size` bytes, sent with Content-Length (no Content-Type when none is given). */
export function sizedFile(size: number, contentType?: string): RouteResponse {
  return {
    headers: contentType ? { 'content-type': contentType } : {},
    body: Buffer.alloc(size, 0x61),
  };
}

/**
 * A file of exactly `size` bytes sent with chunked transfer encoding: neither GET nor HEAD says
 * how long it is, so whoever wants its size has to download it.
 */
export function chunkedFile(size: number, contentType: string): RouteResponse {
  return {
    handler: (request, response) => {
      response.writeHead(200, { 'content-type': contentType, 'transfer-encoding': 'chunked' });
      if (request.method === 'HEAD') {
        response.end();
        return;
      }
      const half = Math.floor(size / 2);
      response.write(Buffer.alloc(half, 0x62));
      response.end(Buffer.alloc(size - half, 0x62));
    },
  };
}

import { decompress } from '../fetch/decode.js';
import { closeBody, type HttpClient } from '../fetch/http-client.js';

/** Enough of a page for a suggestion (its ids, its title, one link's text). */
const maxBytes = 2 * 1024 * 1024;
/** A suggestion never holds a scan's end for long: one slow server is dropped, not waited for. */
const fetchTimeoutMs = 5_000;

/**
 * A page's final address and its text (UTF-8), or undefined when it did not answer 2xx in time
 * or `signal` (the suggestion pass's deadline) was aborted first. The request itself is left to
 * run out: the scan's end destroys its connection pool right after the pass.
 */
export async function fetchText(
  client: HttpClient,
  url: string,
  signal?: AbortSignal,
): Promise<{ finalUrl: string; text: string } | undefined> {
  if (signal?.aborted) return undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), fetchTimeoutMs);
    onAbort = () => resolve(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([read(client, url), timeout]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

async function read(
  client: HttpClient,
  url: string,
): Promise<{ finalUrl: string; text: string } | undefined> {
  const result = await client.follow(url, 'GET');
  if (!result.ok) return undefined;
  const { response } = result;
  if (response.statusCode < 200 || response.statusCode >= 300) {
    closeBody(response.body);
    return undefined;
  }
  const encoding = response.headers['content-encoding'];
  const body = decompress(response.body, typeof encoding === 'string' ? encoding : undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) {
      closeBody(response.body);
      break;
    }
  }
  return { finalUrl: response.url, text: Buffer.concat(chunks).toString('utf8') };
}

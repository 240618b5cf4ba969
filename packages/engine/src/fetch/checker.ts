import { STATUS_CODES } from 'node:http';
import {
  FailureReason,
  failureReasonForNetworkError,
  failureReasonForStatus,
} from '@linkaudit/core';
import type { LinkCheck, RedirectHop } from '../events.js';
import { HostRefusedError, ScanStoppedError, errorCode, errorMessage } from './errors.js';
import {
  closeBody,
  discard,
  type FollowResult,
  type HttpClient,
  type HttpResponse,
} from './http-client.js';
import {
  mayBeChallenge,
  redirectWarning,
  sniffBody,
  unverifiedCauseOf,
  unverifiedMessage,
} from './open-web-verdicts.js';
import { rejectsHead, type AttemptBudget, type RetryPause } from './retry-policy.js';

/**
 * A page fetched for crawling (or a stylesheet for its references): its check, and the open
 * response when it is of the type to read (HTML; CSS for a stylesheet).
 */
export interface PageFetch {
  check: LinkCheck;
  html?: { response: HttpResponse; finalUrl: string; contentType: string };
}

const htmlTypes = /^(?:text\/html|application\/xhtml\+xml)\b/i;
/** Markdown is read as a page too (issue 38), by its own extractor (extract/markdown-links.ts). */
const markdownTypes = /^text\/(?:x-)?markdown\b/i;

/** Whether an answer of this Content-Type is a Markdown document. */
export function isMarkdownType(contentType: string): boolean {
  return markdownTypes.test(contentType);
}
/** Browsers apply a stylesheet only when it is served as text/css (or with no type at all). */
const cssTypes = /^text\/css\b/i;

/** Whether an answer of this Content-Type is a page to read (none at all is read as HTML). */
export function isHtmlType(contentType: string): boolean {
  return contentType === '' || htmlTypes.test(contentType) || markdownTypes.test(contentType);
}

/** Whether an answer of this Content-Type is a stylesheet a browser would apply. */
export function isCssType(contentType: string): boolean {
  return contentType === '' || cssTypes.test(contentType);
}

export interface CheckOptions {
  /** Download a resource whose answer does not state its size, to count it. */
  measure?: boolean;
  /** Told when the URL waits for a retry (see retry-policy.ts). */
  pause?: RetryPause | undefined;
}

/**
 * Turns HTTP into link outcomes: HEAD first for targets we only check (GET when a server
 * rejects HEAD, remembered per host), GET for pages we crawl; every URL within one attempt
 * budget (retry-policy.ts).
 */
export class LinkChecker {
  private readonly hostsWithoutHead = new Set<string>();

  constructor(private readonly client: HttpClient) {}

  /**
   * HEAD first, GET when the server rejects HEAD. With `measure`, a resource whose size the
   * answer did not state is downloaded (and counted) so page weights stay true.
   */
  async check(url: string, options: CheckOptions = {}): Promise<LinkCheck> {
    const host = new URL(url).host;
    const budget = this.client.budget(options.pause);
    let check: LinkCheck;
    if (this.hostsWithoutHead.has(host)) {
      check = (await this.attempt(url, 'GET', budget, options.measure)).check;
    } else {
      const head = await this.attempt(url, 'HEAD', budget);
      check = head.check;
      if (head.rejected) {
        budget.take(); // (asked even when the budget is spent: it is another question)
        check = (await this.attempt(url, 'GET', budget, options.measure)).check;
        if (check.state === 'ok') this.hostsWithoutHead.add(host);
      }
    }
    if (
      options.measure &&
      check.state === 'ok' &&
      check.size === undefined &&
      check.statusCode !== 204
    ) {
      const { check: measured } = await this.attempt(
        url,
        'GET',
        this.client.budget(options.pause),
        true,
      );
      if (measured.state === 'ok')
        return { ...check, ...(measured.size !== undefined ? { size: measured.size } : {}) };
    }
    return check;
  }

  /** GET, and the open response when it is HTML (a page to read). */
  fetchPage(url: string, pause?: RetryPause): Promise<PageFetch> {
    return this.fetchReadable(url, isHtmlType, pause);
  }

  /** GET, and the open response when it is a stylesheet (CSS to read for its references). */
  fetchStylesheet(url: string, pause?: RetryPause): Promise<PageFetch> {
    return this.fetchReadable(url, isCssType, pause);
  }

  private async fetchReadable(
    url: string,
    readable: (contentType: string) => boolean,
    pause?: RetryPause,
  ): Promise<PageFetch> {
    let result: FollowResult;
    try {
      result = await this.client.follow(url, 'GET', this.client.budget(pause));
    } catch (error) {
      return { check: failedRequest(error) };
    }
    const classified = classify(result);
    const check = classified instanceof Promise ? await classified : classified;
    if (!result.ok) return { check };
    const contentType = headerValue(result.response.headers['content-type']) ?? '';
    if (check.state !== 'ok' || !readable(contentType)) {
      discard(result.response.body);
      return { check };
    }
    return {
      check,
      html: { response: result.response, finalUrl: result.response.url, contentType },
    };
  }

  /** One followed request; `rejected` when it was a HEAD the server said it does not handle. */
  private async attempt(
    url: string,
    method: 'GET' | 'HEAD',
    budget: AttemptBudget,
    measure = false,
  ): Promise<{ check: LinkCheck; rejected: boolean }> {
    try {
      const result = await this.client.follow(url, method, budget);
      const classified = classify(result);
      const check = classified instanceof Promise ? await classified : classified;
      if (!result.ok) return { check, rejected: false };
      const rejected =
        result.response.method === 'HEAD' &&
        (check.state === 'unverified' || rejectsHead(result.response.statusCode));
      if (!measure || check.state !== 'ok' || check.size !== undefined) {
        discard(result.response.body);
        return { check, rejected };
      }
      return { check: { ...check, size: await countBytes(result.response.body) }, rejected };
    } catch (error) {
      return { check: failedRequest(error), rejected: false };
    }
  }
}

/** Downloads a body only to learn its size (resources without Content-Length), up to 200 MB. */
async function countBytes(body: HttpResponse['body']): Promise<number> {
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > 200 * 1024 * 1024) break;
  }
  closeBody(body);
  return size;
}

function failedRequest(error: unknown): LinkCheck {
  if (error instanceof ScanStoppedError) throw error;
  if (error instanceof HostRefusedError) {
    return {
      state: 'unverified',
      cause: error.unverifiedCause,
      message: error.message,
      redirects: [],
    };
  }
  const code = errorCode(error);
  return {
    state: 'broken',
    reason: failureReasonForNetworkError(code),
    message: errorMessage(error),
    redirects: [],
    ...(code ? { errorCode: code } : {}),
  };
}

/**
 * A page whose body was cut off by the request deadline: broken with Time Out, whatever its
 * status said (a page that never finishes is not a page a visitor can read).
 */
export function bodyTimedOut(error: unknown, check: LinkCheck): LinkCheck {
  const failed = failedRequest(error);
  if (failed.state !== 'broken' || check.state !== 'ok') return failed;
  return { ...failed, statusCode: check.statusCode, redirects: check.redirects };
}

/**
 * The outcome of a followed request, reading the first KiB of a 403/429/503 answer to GET to
 * tell a challenge page (Unverified) from a real refusal. A body read is closed.
 */
export function classify(result: FollowResult): LinkCheck | Promise<LinkCheck> {
  if (!result.ok || !mayBeChallenge(result.response)) return outcome(result);
  return sniffBody(result.response.body).then((text) => outcome(result, text));
}

/** The outcome of a followed request, from its final answer (and its sniffed body, if read). */
export function outcome(result: FollowResult, bodyText?: string): LinkCheck {
  if (!result.ok) return redirectProblem(result);
  const { response, redirects } = result;
  const status = response.statusCode;
  const cause = unverifiedCauseOf(response, bodyText);
  if (cause) {
    return {
      state: 'unverified',
      cause,
      statusCode: status,
      message: unverifiedMessage(cause, status),
      redirects,
    };
  }
  if (status >= 400) {
    return {
      state: 'broken',
      reason: failureReasonForStatus(status),
      statusCode: status,
      message: `${status} ${STATUS_CODES[status] ?? 'Error'}`,
      redirects,
    };
  }
  const contentType = headerValue(response.headers['content-type']);
  const length = Number(headerValue(response.headers['content-length']));
  const warning = redirectWarning(redirects[0]?.url ?? response.url, response.url, redirects);
  return {
    state: 'ok',
    statusCode: status,
    finalUrl: response.url,
    redirects,
    ...(contentType ? { contentType } : {}),
    ...(Number.isFinite(length) && headerValue(response.headers['content-length'])
      ? { size: length }
      : {}),
    ...(warning ? { warning } : {}),
  };
}

function redirectProblem(result: Extract<FollowResult, { ok: false }>): LinkCheck {
  const chain = (hops: RedirectHop[]) => hops.map((hop) => hop.url).join(' → ');
  const messages = {
    loop: `Redirect loop: ${chain(result.redirects)}`,
    'too-many': `Too many redirects (${result.redirects.length}): ${chain(result.redirects)}`,
    'no-location': `Redirect (${result.statusCode}) without a Location header`,
    'bad-location': `Redirect (${result.statusCode}) to an address that is not http(s)`,
  };
  return {
    state: 'broken',
    reason:
      result.problem === 'bad-location' ? FailureReason.InvalidFormat : FailureReason.BadRequest,
    statusCode: result.statusCode,
    message: messages[result.problem],
    redirects: result.redirects,
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

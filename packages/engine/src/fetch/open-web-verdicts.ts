import type { Readable } from 'node:stream';
import { unverifiedDetails } from '@linkaudit/core';
import type { OkWarning, RedirectHop, UnverifiedCause } from '../events.js';
import type { HttpResponse } from './http-client.js';

/**
 * What an answer of the open web says about a link beyond its status (issue 35): bot protection
 * and sign-in walls make a link Unverified, not Broken; soft 404s and login walls make an OK link
 * a warning. The rules are kept here, apart from the HTTP mechanics.
 */

/** Statuses whose body is read (a few KiB) to tell a challenge page from a real refusal. */
const challengeStatuses: ReadonlySet<number> = new Set([403, 429, 503]);
/** How much of such a body is read. */
const sniffBytes = 32 * 1024;

/** Words of pages that ask a visitor to prove they are human (Cloudflare, Akamai, DataDome…). */
const challengeWords =
  /captcha|automated (?:access|queries|requests|traffic)|are you (?:a )?(?:human|robot)|unusual traffic|verify(?:ing)? you are (?:a )?human|checking your browser|enable javascript and cookies|just a moment|cf-browser-verification|_cf_chl|ddos-guard|perimeterx|px-captcha|datadome|incapsula|bot (?:protection|detection)/i;

/** Whether a status is one whose body may show a challenge. */
export function mayBeChallenge(response: HttpResponse): boolean {
  return response.method === 'GET' && challengeStatuses.has(response.statusCode);
}

/** The first few KiB of a body as text; the rest is not read (the body is closed). */
export async function sniffBody(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= sniffBytes) break;
    }
  } catch {
    // A body cut short says no more than what arrived.
  }
  body.on('error', () => undefined);
  body.destroy();
  return Buffer.concat(chunks).subarray(0, sniffBytes).toString('latin1');
}

/**
 * The reason an answer leaves the link Unverified, or undefined when its status speaks for the
 * link. `bodyText` is the sniffed body of a 403/429/503 answer to GET.
 */
export function unverifiedCauseOf(
  response: HttpResponse,
  bodyText = '',
): UnverifiedCause | undefined {
  const status = response.statusCode;
  if (status === 999) return 'bot-protection';
  if (headerValue(response.headers['cf-mitigated'])?.toLowerCase() === 'challenge')
    return 'bot-protection';
  if (challengeStatuses.has(status) && challengeWords.test(bodyText)) return 'bot-protection';
  if (status === 429) return 'rate-limited';
  // (A 503 still there after the waits it asked for is broken: Service Unavailable.)
  if (status === 503 && response.pastPatience) return 'rate-limited';
  if (status === 401) return 'needs-sign-in';
  return undefined;
}

/** The sentence of an Unverified answer (core's request-failures.ts patterns read it back). */
export function unverifiedMessage(cause: UnverifiedCause, status: number): string {
  switch (cause) {
    case 'bot-protection':
      return `Answered by bot protection (${status}); open it in a browser to verify`;
    case 'rate-limited':
      return unverifiedDetails.rateLimited(status);
    case 'needs-sign-in':
      return unverifiedDetails.needsSignIn(status);
    case 'host-too-slow':
      // (Never an answer's: a host past its budget is sent nothing; see HttpClient.)
      return unverifiedDetails.rateLimited(status);
  }
}

/** Paths of sign-in pages. */
const loginPath =
  /(?:^|\/)(?:log-?in|sign-?in|sign_in|signon|auth|sso|session\/new|sessions\/new|oauth2?\/authorize|accounts?\/login)(?:[/.?]|$)/i;

/**
 * What an OK answer reached through redirects may hide: a redirect to a sign-in page (a login
 * wall), or a deep link redirected to the home page (a soft 404: the page is gone).
 */
export function redirectWarning(
  url: string,
  finalUrl: string,
  redirects: readonly RedirectHop[],
): OkWarning | undefined {
  if (redirects.length === 0) return undefined;
  const from = new URL(url);
  const to = new URL(finalUrl);
  if (loginPath.test(to.pathname) && !loginPath.test(from.pathname)) return 'login-wall';
  const deep = from.pathname.replace(/\/(?:index\.[a-z]+)?$/i, '') !== '';
  const home = to.pathname === '/' && to.search === '';
  return deep && home ? 'soft-404' : undefined;
}

/** A page title that says the page is not there (a soft 404 answered 200). */
const notFoundTitle =
  /\b(?:404|page not found|not found|page (?:does not|doesn't) exist|no longer (?:exists|available))\b/i;

/** Whether a page read with status 200 is a "not found" page (by its title). */
export function isNotFoundTitle(title: string | undefined): boolean {
  return title !== undefined && notFoundTitle.test(title);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

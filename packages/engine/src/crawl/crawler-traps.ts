import type { LinkCheck } from '../events.js';

/**
 * Crawler traps: sites that make new URLs without end, so a crawl never runs out of pages
 * (relative links that stack a folder on itself, pages that append to their own query string,
 * calendars with a "next month" forever). A link to a URL of such a shape is not followed, and
 * its link says why (a skipped link, cause 'crawler-trap'), so the trap ends at its first step past the
 * rule, the rest of the site is still crawled, and the report names the trap.
 *
 * Rules read the URL alone (no state per site), modelled on Heritrix's defaults
 * (PathologicalPathDecideRule, TooManyPathSegmentsDecideRule); docs/decisions.md says why each
 * bound leaves real sites alone.
 */
export const trapRules = {
  /** A segment, or a run of up to 3 segments, repeated this many times in a row: /a/b/a/b/a/b/. */
  repeats: 3,
  /** Longest run of segments looked for by `repeats`. */
  longestRun: 3,
  /** More path segments than this. */
  maxSegments: 32,
  /** The same query parameter this many times: ?p=1&p=2&p=3. */
  parameterRepeats: 3,
  /** A longer query string (characters). */
  maxQueryLength: 1024,
  /** A calendar date more years ahead than this. */
  maxYearsAhead: 10,
} as const;

/**
 * Why a URL (its path and query, as the ledger keys it) looks like a crawler trap, or
 * undefined. Run once per new URL a crawl would follow.
 */
export function crawlerTrap(pathAndQuery: string, now = new Date()): string | undefined {
  const queryAt = pathAndQuery.indexOf('?');
  const path = queryAt === -1 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  const query = queryAt === -1 ? '' : pathAndQuery.slice(queryAt + 1);
  return pathTrap(path) ?? queryTrap(query) ?? calendarTrap(pathAndQuery, now.getUTCFullYear());
}

/** The skipped outcome of a link into a trap. */
export function crawlerTrapCheck(why: string): LinkCheck {
  return {
    state: 'skipped',
    cause: 'crawler-trap',
    message: `Not followed: a crawler trap (${why})`,
  };
}

function pathTrap(path: string): string | undefined {
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length > trapRules.maxSegments)
    return `the path has ${segments.length} segments, more than ${trapRules.maxSegments}`;
  const run = repeatedRun(segments);
  return run === undefined
    ? undefined
    : `the path repeats "${run}/" ${trapRules.repeats} times in a row`;
}

/** The first run of 1 to 3 segments that follows itself `repeats` times, joined with '/'. */
function repeatedRun(segments: readonly string[]): string | undefined {
  const { repeats, longestRun } = trapRules;
  for (let length = 1; length <= longestRun; length++) {
    for (let start = 0; start + length * repeats <= segments.length; start++) {
      let copies = 1;
      while (copies < repeats && sameRun(segments, start, start + copies * length, length))
        copies++;
      if (copies === repeats) return segments.slice(start, start + length).join('/');
    }
  }
  return undefined;
}

function sameRun(segments: readonly string[], a: number, b: number, length: number): boolean {
  for (let offset = 0; offset < length; offset++)
    if (segments[a + offset] !== segments[b + offset]) return false;
  return true;
}

function queryTrap(query: string): string | undefined {
  if (query === '') return undefined;
  if (query.length > trapRules.maxQueryLength)
    return `the query string is ${query.length} characters long, more than ${trapRules.maxQueryLength}`;
  const counts = new Map<string, number>();
  for (const pair of query.split('&')) {
    const name = pair.split('=', 1)[0]!;
    if (name === '') continue;
    const count = (counts.get(name) ?? 0) + 1;
    if (count >= trapRules.parameterRepeats)
      return `the query repeats the parameter "${name}" ${count} times`;
    counts.set(name, count);
  }
  return undefined;
}

/**
 * A year and month (2041/03, 2041-03) or a year parameter (year=2041) far in the future: a
 * calendar's "next" link followed for years. (Past dates are left alone: archives go back
 * decades, and a 4-digit number followed by 1-12 is often an id.)
 */
const datePattern = /(?:^|[/?&=_-])((?:1\d|2\d)\d\d)[/-](0?[1-9]|1[0-2])(?![0-9])/g;
const yearParameterPattern = /[?&](?:year|yr|y)=(\d{4})(?![0-9])/gi;

function calendarTrap(pathAndQuery: string, thisYear: number): string | undefined {
  const latest = thisYear + trapRules.maxYearsAhead;
  for (const pattern of [datePattern, yearParameterPattern]) {
    for (const match of pathAndQuery.matchAll(pattern)) {
      const year = Number(match[1]);
      if (year > latest)
        return `a calendar date in ${year}, more than ${trapRules.maxYearsAhead} years ahead`;
    }
  }
  return undefined;
}

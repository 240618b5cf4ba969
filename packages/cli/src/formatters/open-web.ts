import type { OkWarning, UnverifiedCause } from '@linkaudit/engine';

/**
 * The words every output format uses for the open web's verdicts (issue 35): why a link could
 * not be verified, and what a working link may hide.
 */
export const unverifiedCauseWords: Record<UnverifiedCause, string> = {
  'bot-protection': 'bot protection',
  'rate-limited': 'rate limited past our patience',
  'needs-sign-in': 'sign-in needed',
  'host-too-slow': 'host too slow',
};

const unverifiedDescriptions: Record<UnverifiedCause, string> = {
  'bot-protection':
    'The server refuses automated requests (bot protection), so the link could not be checked; check it in a browser.',
  'rate-limited':
    'The host rate-limited the checks and asked to wait longer than the scan waits (or answered 429 to the end); check it in a browser or later.',
  'needs-sign-in':
    'The target asks for a sign-in (401), so the link could not be checked; check it in a browser where you are signed in.',
  'host-too-slow':
    'The host used up its time budget (it answered too slowly), so the link was not checked; check it in a browser.',
};

export const okWarningWords: Record<OkWarning, string> = {
  'soft-404': 'soft 404',
  'login-wall': 'login wall',
};

const okWarningDescriptions: Record<OkWarning, string> = {
  'soft-404':
    'The link works, but the page says it is not there (a "not found" page answered 200) or the deep link is sent to the home page: the page it meant is probably gone.',
  'login-wall':
    'The link works, but it redirects to a sign-in page: visitors who are not signed in do not see what it points to.',
};

/** The SARIF rule id of an unverified link (bot protection's is the oldest). */
export function unverifiedRuleId(cause: UnverifiedCause): string {
  return `unverified-link/${cause}`;
}

export function okWarningRuleId(warning: OkWarning): string {
  return `link-warning/${warning}`;
}

const ruleName = (words: string) =>
  words.replace(/(?:^|[\s-])(\w)/g, (_match, letter: string) => letter.toUpperCase());

/** SARIF rules of the causes after bot protection, and of the warnings (added at the end). */
export const openWebRules = [
  ...(['rate-limited', 'needs-sign-in', 'host-too-slow'] as const).map((cause) => ({
    id: unverifiedRuleId(cause),
    name: `Unverified${ruleName(unverifiedCauseWords[cause])}`,
    shortDescription: { text: `Link could not be verified: ${unverifiedCauseWords[cause]}` },
    fullDescription: { text: unverifiedDescriptions[cause] },
    defaultConfiguration: { level: 'warning' },
  })),
  ...(['soft-404', 'login-wall'] as const).map((warning) => ({
    id: okWarningRuleId(warning),
    name: ruleName(okWarningWords[warning]),
    shortDescription: { text: `Working link: ${okWarningWords[warning]}` },
    fullDescription: { text: okWarningDescriptions[warning] },
    defaultConfiguration: { level: 'warning' },
  })),
];

/** Why a link could not be verified, as a clause ("Could not verify the link to X: …"). */
export const unverifiedReasons: Record<UnverifiedCause, string> = {
  'bot-protection': 'the server refuses automated requests',
  'rate-limited': 'the host rate-limited the checks past our patience',
  'needs-sign-in': 'it needs a sign-in',
  'host-too-slow': 'the host was too slow',
};

/** A warned link's answer as a sentence: what it looks like and where it ends. */
export function okWarningMessage(check: { warning: OkWarning; finalUrl: string }): string {
  return `Looks like a ${okWarningWords[check.warning]}: it ends at ${check.finalUrl}`;
}

/** A warned link as the problem rows of the formats read it (status and message). */
export function asWarnedProblem<
  Item extends { check: { warning: OkWarning; finalUrl: string; statusCode: number } },
>(item: Item): Omit<Item, 'check'> & { check: { statusCode: number; message: string } } {
  return {
    ...item,
    check: { statusCode: item.check.statusCode, message: okWarningMessage(item.check) },
  };
}

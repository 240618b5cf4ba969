import type { TFunction } from 'i18next';
import {
  accountMessages,
  adminMessages,
  biMessages,
  requestMessages,
  scanMessages,
  scheduleMessages,
  triageMessages,
  botProtectionDetailPattern,
  hostTooSlowDetailPattern,
  needsSignInDetailPattern,
  pausedHostDetailPattern,
  rateLimitedDetailPattern,
  httpStatusDetailPattern,
  invalidScanUrlMessage,
  requestFailureTexts,
  scanFailureMessages,
  scanFailurePatterns,
  startPageFailurePattern,
  websiteLimitPattern,
} from '@linkaudit/core';
import { ApiError } from './api-client';

/** The English texts of the shared contract, by key: the locales translate them under `messages.`. */
const messageKeys = new Map<string, string>([
  ...Object.entries(accountMessages).map(([key, text]): [string, string] => [text, key]),
  ...Object.entries(requestMessages).map(([key, text]): [string, string] => [
    text,
    `request.${key}`,
  ]),
  ...Object.entries(biMessages).map(([key, text]): [string, string] => [text, `bi.${key}`]),
  ...Object.entries(adminMessages).map(([key, text]): [string, string] => [text, `admin.${key}`]),
  ...Object.entries(triageMessages).map(([key, text]): [string, string] => [text, `triage.${key}`]),
  ...Object.entries(requestFailureTexts).map(([code, text]): [string, string] => [
    text,
    `requestFailure.${code}`,
  ]),
  [scanFailureMessages.resultsNotSaved, 'scanFailure.resultsNotSaved'],
  [scanMessages.paymentFailed, 'scan.paymentFailed'],
  ...Object.entries(scheduleMessages).flatMap(([key, text]): Array<[string, string]> =>
    typeof text === 'string' ? [[text, `schedule.${key}`]] : [],
  ),
]);
const allowancePattern =
  /^Your plan allows (\d+) scheduled scans\. Delete one or upgrade your plan to add another\.$/;
const signInWaitPattern =
  /^Too many failed sign-ins for this account\. Try again in (\d+) seconds\.$/;
const unknownHostPattern = /^The site (.+) could not be found\. Check the address\.$/;
const privateAddressPattern = /^The address (.+) is on a private network and may not be scanned$/;
const privateLinkPattern =
  /^Not checked: (.+) is on a private network \((.+)\), which this server scans only for allow-listed hosts and ports$/;
const onlyLoginPattern =
  /^Cannot remove (.+) login\. Because it's the only login for your account$/;
const currentLoginPattern =
  /^You are logged in with (.+) account\. Please sign in with another account to remove it$/;

/**
 * A text of the contract (validation or server refusal) in the interface language; a text we do
 * not know is shown as the server wrote it.
 */
export function translateMessage(text: string, t: TFunction): string {
  const key = messageKeys.get(text);
  if (key) return t(`messages.${key}`);
  if (text === invalidScanUrlMessage) return t('home.invalidUrl');
  const onlyLogin = onlyLoginPattern.exec(text);
  if (onlyLogin) return t('messages.onlyLogin', { provider: onlyLogin[1] });
  const currentLogin = currentLoginPattern.exec(text);
  if (currentLogin) return t('messages.currentLogin', { provider: currentLogin[1] });
  const signInWait = signInWaitPattern.exec(text);
  if (signInWait) return t('messages.signInWait', { count: Number(signInWait[1]) });
  const unknownHost = unknownHostPattern.exec(text);
  if (unknownHost) return t('messages.scan.unknownHost', { host: unknownHost[1] });
  const privateAddress = privateAddressPattern.exec(text);
  if (privateAddress) return t('messages.scan.privateAddress', { address: privateAddress[1] });
  const privateLink = privateLinkPattern.exec(text);
  if (privateLink)
    return t('messages.scan.privateLink', { target: privateLink[1], address: privateLink[2] });
  const allowance = allowancePattern.exec(text);
  if (allowance) return t('messages.schedule.allowance', { count: Number(allowance[1]) });
  // The engine's status details (the scanned server's own words are not among these).
  const httpStatus = httpStatusDetailPattern.exec(text);
  if (httpStatus)
    return t('messages.requestFailure.httpStatus', { status: httpStatus[1], text: httpStatus[2] });
  const startPage = startPageFailurePattern.exec(text);
  if (startPage) {
    return t('messages.requestFailure.startPage', {
      reason: translateMessage(startPage[1] ?? '', t),
    });
  }
  const scanFailure = scanFailureText(text, t);
  if (scanFailure !== undefined) return scanFailure;
  const botProtection = botProtectionDetailPattern.exec(text);
  if (botProtection)
    return t('messages.requestFailure.botProtection', { status: botProtection[1] });
  const unverified = translateUnverifiedDetail(text, t);
  if (unverified !== undefined) return unverified;
  const websiteLimit = websiteLimitPattern.exec(text);
  if (websiteLimit) return t('messages.scan.websiteLimit', { count: Number(websiteLimit[1]) });
  return text;
}

/** The engine's details of links it could not verify (issue 35), in the interface language. */
function translateUnverifiedDetail(text: string, t: TFunction): string | undefined {
  const rateLimited = rateLimitedDetailPattern.exec(text);
  if (rateLimited) return t('messages.requestFailure.rateLimited', { status: rateLimited[1] });
  const paused = pausedHostDetailPattern.exec(text);
  if (paused)
    return t('messages.requestFailure.pausedHost', { wait: paused[1], patience: paused[2] });
  const tooSlow = hostTooSlowDetailPattern.exec(text);
  if (tooSlow) return t('messages.requestFailure.hostTooSlow', { budget: tooSlow[1] });
  const signIn = needsSignInDetailPattern.exec(text);
  if (signIn) return t('messages.requestFailure.needsSignIn', { status: signIn[1] });
  return undefined;
}

/** Why a scan failed (core's scan-failures.ts), when `text` is one of those sentences. */
function scanFailureText(text: string, t: TFunction): string | undefined {
  const patterns = scanFailurePatterns;
  const values: Array<
    [keyof typeof patterns, (match: RegExpExecArray) => Record<string, unknown>]
  > = [
    ['engineError', (match) => ({ message: match[1] })],
    ['workerLost', (match) => ({ count: Number(match[1]) })],
    ['invalidStart', (match) => ({ url: match[1] })],
    ['memoryLimit', (match) => ({ megabytes: match[1] })],
    ['processEnded', (match) => ({ how: match[1] })],
    ['processNotStarted', (match) => ({ reason: match[1] })],
  ];
  for (const [key, options] of values) {
    const match = patterns[key].exec(text);
    if (match) return t(`messages.scanFailure.${key}`, options(match));
  }
  return undefined;
}

/** A refusal a bigger plan lifts (the plan's websites): the form offers the way to /pricing. */
export function isPlanLimitRefusal(error: unknown): boolean {
  return errorMessages(error).some((text) => websiteLimitPattern.test(text));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The messages the server wrote in an error answer (SPEC §8): `modelState` (every field's
 * messages), `exceptionMessage`, `error_description` and `message`; the generic 'The request is
 * invalid.' is left out when field messages say more. None for a dropped network or a bare status.
 */
export function serverMessages(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const body = error.body;
  const found: string[] = [];
  if (isRecord(body)) {
    if (isRecord(body.modelState)) {
      for (const messages of Object.values(body.modelState)) {
        if (Array.isArray(messages)) found.push(...messages.filter((m) => typeof m === 'string'));
        else if (typeof messages === 'string') found.push(messages);
      }
    }
    for (const field of ['exceptionMessage', 'error_description'] as const) {
      if (typeof body[field] === 'string') found.push(body[field]);
    }
    if (found.length === 0 && typeof body.message === 'string') found.push(body.message);
  }
  return [...new Set(found)];
}

/**
 * The messages of a failed check against the shared contract (a zod error): its issues' own
 * texts, never the error's message, which is its issues as JSON (issue 37: a 5,000-character
 * address showed that JSON).
 */
function contractMessages(error: unknown): string[] {
  if (!(error instanceof Error) || error.name !== 'ZodError') return [];
  const issues = (error as Error & { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return [];
  const texts = issues.map((issue) => (issue as { message?: unknown }).message);
  return [...new Set(texts.filter((text): text is string => typeof text === 'string'))];
}

/** SPEC §8: the one place that reads an error answer; without server text, the error's own. */
export function errorMessages(error: unknown): string[] {
  const found = serverMessages(error);
  if (found.length > 0) return found;
  const contract = contractMessages(error);
  if (contract.length > 0) return contract;
  return [error instanceof Error && error.message ? error.message : String(error)];
}

/**
 * What a failed action (cancel, delete, rerun, pause…) tells the user: the server's messages in
 * the interface language, or SPEC §8's 'Error occured. Please try again' when the server said
 * nothing (the network dropped, a bare 5xx).
 */
export function actionErrorTexts(error: unknown, t: TFunction): string[] {
  const found = serverMessages(error);
  if (found.length === 0) return [t('messages.tryAgain')];
  return found.map((text) => translateMessage(text, t));
}

/**
 * The {status} of SPEC §8's 'Failed to get scans. Http response is {status}': the HTTP status
 * number alone; 0 when no answer came (the XHR convention for a dropped network).
 */
export function responseStatus(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}

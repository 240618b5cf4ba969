import { requestFailureTexts } from '@linkaudit/core';
/** Thrown when the scan stops (cancel, timeout, limit) while a request is under way. */
export class ScanStoppedError extends Error {
  constructor() {
    super('scan stopped');
  }
}

/**
 * A request not sent because its host said to wait longer than we do (a Retry-After past our
 * patience), or because the host used up its time budget (host-pacing.ts): the link is
 * Unverified with this cause, not Broken.
 */
export class HostRefusedError extends Error {
  constructor(
    readonly unverifiedCause: 'rate-limited' | 'host-too-slow',
    message: string,
  ) {
    super(message);
  }
}

/** The code of a request cut off by its overall deadline (reported as Time Out). */
export const requestDeadlineCode = 'ERR_REQUEST_DEADLINE';

/**
 * A request (connecting, headers and body together) that took longer than its overall
 * deadline: a server trickling its answer a byte at a time never trips the idle timeout.
 */
export class RequestDeadlineError extends Error {
  readonly code = requestDeadlineCode;

  constructor(deadlineMs: number) {
    super(
      `The server did not finish its answer within ${formatSeconds(deadlineMs)} (the request deadline)`,
    );
  }
}

/** Whether a body read ended because its request ran out of time. */
export function isDeadlineError(error: unknown): boolean {
  return errorCode(error) === requestDeadlineCode;
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/**
 * The most telling error code of a failed request. undici wraps socket errors, and happy-eyeballs
 * connects raise an AggregateError holding one error per address tried.
 */
export function errorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const candidate = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof candidate.code === 'string' && candidate.code !== 'UND_ERR_CONNECT') {
      return candidate.code;
    }
    current = candidate.cause ?? candidate.errors?.[0];
  }
  return undefined;
}

/** The error (itself or one it wraps) that carries `code`. */
function erredWith(error: unknown, code: string): Error | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const candidate = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (candidate.code === code && current instanceof Error) return current;
    current = candidate.cause ?? candidate.errors?.[0];
  }
  return undefined;
}

/** A short human sentence for a failed request. */
export function errorMessage(error: unknown): string {
  const code = errorCode(error);
  // The address policy's refusal says which host, port and address, and why: keep its words.
  if (code === 'EADDRBLOCKED') return erredWith(error, code)?.message ?? 'request refused';
  const message = error instanceof Error ? error.message : String(error);
  const described = code ? (describedCodes[code] ?? message) : message;
  return described || code || 'request failed';
}

const describedCodes: Record<string, string> = requestFailureTexts;

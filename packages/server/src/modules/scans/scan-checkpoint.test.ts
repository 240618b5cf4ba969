import { describe, expect, it } from 'vitest';
import { FailureReason } from '@linkaudit/core';
import type { LinkCheck } from '@linkaudit/engine';
import { checkDetailJson, checkOfTarget, type CheckedTargetRow } from './scan-checkpoint.js';
import { targetReasonOf } from './scan-results.js';

/** A target row as ScanResultWriter writes it for this check. */
function rowOf(url: string, check: LinkCheck): CheckedTargetRow {
  return {
    url,
    state: check.state,
    reason: targetReasonOf(check),
    status_code: 'statusCode' in check ? (check.statusCode ?? null) : null,
    message: 'message' in check ? check.message : null,
    content_type: check.state === 'ok' ? (check.contentType ?? null) : null,
    size: check.state === 'ok' ? (check.size ?? null) : null,
    check_detail_json: checkDetailJson(url, check),
  };
}

const url = 'https://example.com/a.png';

describe('a target row as a checkpoint', () => {
  it('gives back the very check it was written from', () => {
    const checks: LinkCheck[] = [
      {
        state: 'ok',
        statusCode: 200,
        finalUrl: url,
        redirects: [],
        contentType: 'image/png',
        size: 3,
      },
      {
        state: 'ok',
        statusCode: 200,
        finalUrl: 'https://example.com/b.png',
        redirects: [{ url, statusCode: 301 }],
      },
      {
        state: 'broken',
        reason: FailureReason.NotFound,
        statusCode: 404,
        message: '404 Not Found',
        redirects: [],
      },
      {
        state: 'broken',
        reason: FailureReason.InvalidRemoteName,
        message: 'The host name could not be resolved',
        redirects: [],
        errorCode: 'ENOTFOUND',
      },
      {
        state: 'unverified',
        cause: 'bot-protection',
        statusCode: 403,
        message: 'Bot protection',
        redirects: [],
      },
      // Issue 35: every cause of an unverified link, and a working link's warning.
      {
        state: 'unverified',
        cause: 'rate-limited',
        statusCode: 429,
        message: 'Rate limited by the host (429); open it in a browser to verify',
        redirects: [],
      },
      {
        state: 'unverified',
        cause: 'host-too-slow',
        message: 'Not checked: the host used up its time budget (300 s)',
        redirects: [],
      },
      {
        state: 'ok',
        statusCode: 200,
        finalUrl: 'https://example.com/login',
        redirects: [{ url, statusCode: 302 }],
        warning: 'login-wall',
      },
    ];
    for (const check of checks) expect(checkOfTarget(rowOf(url, check))).toEqual(check);
    // Most checks need no detail beyond the row's columns.
    expect(checkDetailJson(url, checks[0]!)).toBeNull();
  });

  it('gives no check for what the earlier run did not check, or failed at itself', () => {
    expect(checkOfTarget(rowOf(url, { state: 'skipped', cause: 'limit', message: 'x' }))).toBe(
      undefined,
    );
    const engineFault: LinkCheck = {
      state: 'broken',
      reason: FailureReason.EngineException,
      message: 'Engine Exception',
      redirects: [],
    };
    expect(checkOfTarget(rowOf(url, engineFault))).toBeUndefined();
  });
});

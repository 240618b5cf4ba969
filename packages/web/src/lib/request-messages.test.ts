import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  requestFailureTexts,
  scanRequestSchema,
  requestMessages,
  scanMessages,
  signInWaitMessage,
  startPageFailure,
  unverifiedDetails,
} from '@linkaudit/core';
import { errorMessages, translateMessage } from './errors';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../public/locales',
);

async function translatorFor(language: string) {
  const file = path.join(localesDir, language, 'translation.json');
  const translation = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation } } });
  return instance.t;
}

/** Issue 21's new server texts: bad input, an unknown start address, the sign-in backoff. */
const texts = [
  ...Object.values(requestMessages),
  scanMessages.unknownHost('nowhere.example'),
  scanMessages.privateAddress('10.0.0.8'),
  scanMessages.privateLink('127.0.0.1:6379', '127.0.0.1'),
  signInWaitMessage(16),
  // Issue 36: a past-due account's refused scan.
  scanMessages.paymentFailed,
];

describe('the bad-input refusals of the contract', () => {
  it('read the same in English', async () => {
    const t = await translatorFor('en');
    for (const text of texts) expect(translateMessage(text, t)).toBe(text);
  });

  it('are translated into Chinese, keeping the host and the seconds', async () => {
    const t = await translatorFor('zh-CN');
    for (const text of texts) expect(translateMessage(text, t)).not.toBe(text);
    expect(translateMessage(scanMessages.unknownHost('nowhere.example'), t)).toContain(
      'nowhere.example',
    );
    expect(translateMessage(signInWaitMessage(16), t)).toContain('16');
    const refusedLink = translateMessage(scanMessages.privateLink('127.0.0.1:6379', '10.0.0.1'), t);
    expect(refusedLink).toContain('127.0.0.1:6379');
    expect(refusedLink).toContain('10.0.0.1');
  });
});

/** Issue 26: the scanner's own status details read in Chinese; English stays as written. */
describe('scanner status details', () => {
  const details = [
    ...Object.values(requestFailureTexts),
    '404 Not Found',
    'Answered by bot protection (403); open it in a browser to verify',
    startPageFailure(requestFailureTexts.ECONNREFUSED),
    // Issue 35: links that could not be verified.
    unverifiedDetails.rateLimited(429),
    unverifiedDetails.pausedHost(3600, 60),
    unverifiedDetails.hostTooSlow(300),
    unverifiedDetails.needsSignIn(401),
  ];
  it('are translated into Chinese, with no English sentence left', async () => {
    const t = await translatorFor('zh-CN');
    for (const text of details) {
      const shown = translateMessage(text, t);
      expect(shown).not.toBe(text);
      expect(shown).not.toMatch(/[A-Za-z]{3,}(?<!HTTP|DNS)\b/);
    }
  });
  it('read in English exactly as the engine wrote them', async () => {
    const t = await translatorFor('en');
    for (const text of details) expect(translateMessage(text, t)).toBe(text);
  });
});

/** Issue 37: a request the contract refuses before it is sent shows the contract's message. */
describe('a request the shared contract refuses', () => {
  it('shows the schema\u2019s message, translated, never the issues as JSON', async () => {
    const refused = scanRequestSchema.safeParse({ url: `https://example.com/${'a'.repeat(5000)}` });
    expect(refused.success).toBe(false);
    const texts = errorMessages(refused.error);
    expect(texts).toEqual(['The URL entered is invalid']);
    const t = await translatorFor('zh-CN');
    expect(texts.map((text) => translateMessage(text, t))).toEqual(['输入的网址无效']);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { scheduleMessages } from '@linkaudit/core';
import { translateMessage } from '../../../lib/errors';

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../public/locales',
);

async function translatorFor(language: string) {
  const file = path.join(localesDir, language, 'translation.json');
  const translation = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation } } });
  return instance.t;
}

const texts = Object.values(scheduleMessages).filter((text) => typeof text === 'string');

describe('the schedule refusals of the contract', () => {
  it('read the same in English', async () => {
    const t = await translatorFor('en');
    for (const text of texts) expect(translateMessage(text, t)).toBe(text);
    expect(translateMessage(scheduleMessages.allowance(5), t)).toBe(scheduleMessages.allowance(5));
  });

  it('are translated into Chinese, the allowance with its number', async () => {
    const t = await translatorFor('zh-CN');
    for (const text of texts) expect(translateMessage(text, t)).toMatch(/[\u4e00-\u9fff]/);
    expect(translateMessage(scheduleMessages.allowance(5), t)).toBe(
      '您的套餐最多允许 5 个定时扫描。请删除一个或升级套餐后再添加。',
    );
  });
});

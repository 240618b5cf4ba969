// Chinese typography of the interface texts (issue 37): plan names sit in the sentence without
// spaces ("您的基础版套餐已开始。", not "您的 基础版 套餐已开始。"), and colons are full-width.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const file = new URL('../../public/locales/zh-CN/translation.json', import.meta.url);
const texts: string[] = [];
(function collect(node: unknown): void {
  if (typeof node === 'string') texts.push(node);
  else if (node && typeof node === 'object') Object.values(node).forEach(collect);
})(JSON.parse(readFileSync(file, 'utf8')));

const han = '[\\u4e00-\\u9fff\\u3000-\\u303f\\uff00-\\uffef“”]';

describe('Simplified Chinese texts', () => {
  it('put no space between Chinese and a plan name', () => {
    const spaced = new RegExp(`${han} \\{\\{(plan|from)\\}\\}|\\{\\{(plan|from)\\}\\} ${han}`);
    expect(texts.filter((text) => text.includes('{{plan}}') && spaced.test(text))).toEqual([]);
  });

  it('write colons full-width', () => {
    expect(texts.filter((text) => new RegExp(`${han}\\s?:`).test(text))).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8')).punctuation).toEqual({
      colon: '：',
      labelValue: '{{label}}：{{value}}',
    });
  });
});

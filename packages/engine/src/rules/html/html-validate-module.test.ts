import { HtmlValidate, StaticConfigLoader, type ConfigData } from 'html-validate';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { requireHtmlValidate } from './html-validate-module.js';
import { htmlValidateConfig } from './validator.js';

const page =
  '<!doctype html><html lang="en"><head><title>T</title></head><body><div/></body></html>';

/** html-validate as every other program loads it: its schema checks done by the real Ajv. */
const checkedValidate = (config: ConfigData) =>
  new HtmlValidate(new StaticConfigLoader(config)).validateStringSync(page);

// The scan's html-validate trusts its configuration, element metadata and rule options without
// checking them; these tests are where they are checked.
describe('what a scan gives html-validate', () => {
  it('passes the schema checks of html-validate with the real Ajv', () => {
    // Resolving the configuration checks it, the html5 element metadata and each rule's options.
    const report = checkedValidate(htmlValidateConfig);
    expect(report.results[0]?.messages.map((message) => message.ruleId)).toEqual([
      'no-self-closing',
    ]);
  });

  it('would be refused there if it were wrong', () => {
    const badOption = {
      ...htmlValidateConfig,
      rules: {
        ...htmlValidateConfig.rules,
        'no-self-closing': ['error', { ignoreForeign: 'yes' }],
      },
    } as ConfigData;
    expect(() => checkedValidate(badOption)).toThrow(/Rule configuration error/);
    const badKey = { ...htmlValidateConfig, rulez: {} } as ConfigData;
    expect(() => checkedValidate(badKey)).toThrow(/Invalid configuration/);
  });
});

describe('html-validate loaded for a scan', () => {
  it('validates pages without checking its schemas', () => {
    const module = requireHtmlValidate();
    const trusting = new module.HtmlValidate(
      new module.StaticConfigLoader({ ...htmlValidateConfig, rulez: {} } as ConfigData),
    );
    // The unknown key goes unchecked; the page is still validated.
    const messages = trusting.validateStringSync(page).results[0]?.messages ?? [];
    expect(messages.map((message) => message.ruleId)).toEqual(['no-self-closing']);
  });

  it('leaves the real Ajv to everything else', () => {
    requireHtmlValidate();
    const fromHtmlValidate = createRequire(createRequire(import.meta.url).resolve('html-validate'));
    const { default: Ajv } = fromHtmlValidate('ajv') as {
      default: new () => { compile(schema: object): (data: unknown) => boolean };
    };
    const isString = new Ajv().compile({ type: 'string' });
    expect(isString('text')).toBe(true);
    expect(isString(42)).toBe(false);
  });
});

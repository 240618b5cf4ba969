// Loading html-validate for a scan without its schema checks.
//
// html-validate checks its configuration, its element metadata and each rule's options against
// JSON schemas with Ajv, which first compiles every schema into JavaScript: two thirds of
// html-validate's start-up (about 150 ms of each scan's rule worker, and Ajv's generated code
// then warms up the JIT). What it checks never changes here: our configuration (validator.ts),
// html-validate's own html5 metadata and its rules' options. html-validate-schemas.test.ts checks
// all of them with the real Ajv, so a scan loads html-validate with an Ajv that trusts them.
import type * as HtmlValidateModule from 'html-validate';
import Module, { createRequire } from 'node:module';

/**
 * What html-validate uses of Ajv, validating nothing: every compiled schema accepts its data.
 * A method html-validate might call beyond these fails at load, in the tests.
 */
class TrustingAjv {
  addMetaSchema(): this {
    return this;
  }

  addKeyword(): this {
    return this;
  }

  getSchema(): undefined {
    return undefined; // nothing compiled is kept: html-validate then compiles, cheaply
  }

  compile(): (data: unknown) => boolean {
    return accept;
  }
}

const accept = (): boolean => true;

/**
 * html-validate's module, loaded with TrustingAjv in place of its `ajv` dependency. The stand-in
 * sits in the module cache only while html-validate loads (it keeps the class it was given), so
 * anything else that requires Ajv gets the real one. If html-validate was loaded before, with
 * the real Ajv, that one is returned: slower to start, same answers.
 */
export function requireHtmlValidate(): typeof HtmlValidateModule {
  const require = createRequire(import.meta.url);
  const ajvPath = createRequire(require.resolve('html-validate/browser')).resolve('ajv');
  const cache = require.cache;
  const previous = cache[ajvPath];
  const standIn = new Module(ajvPath);
  standIn.filename = ajvPath;
  standIn.loaded = true;
  // As a compiled ES module exports its default: html-validate reads `require('ajv').default`.
  standIn.exports = { __esModule: true, default: TrustingAjv };
  cache[ajvPath] = standIn;
  try {
    return require('html-validate/browser') as typeof HtmlValidateModule;
  } finally {
    if (previous) cache[ajvPath] = previous;
    else delete cache[ajvPath];
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accountLanguages, accountMessages } from '@linkaudit/core';

/**
 * STYLE 14: English and Chinese have the same keys, and every key the source uses exists.
 * Keys are found as `t('…')`, `i18nKey`/`labelKey: '…'` literals; a key built from a template
 * (`features.items.${id}.title`) must match at least one key of the locales.
 */
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// English first: every other interface language is compared with it.
const locales = accountLanguages;

function flatten(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    flatten(child, prefix ? `${prefix}.${key}` : key),
  );
}

function localeKeys(language: string): string[] {
  const file = path.join(webDir, 'public/locales', language, 'translation.json');
  return flatten(JSON.parse(readFileSync(file, 'utf8'))).sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [file] : [];
  });
}

function usedKeys(): { literal: Set<string>; templates: Set<string> } {
  const literal = new Set<string>();
  const templates = new Set<string>();
  for (const file of sourceFiles(path.join(webDir, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'([^']+)'/g)) literal.add(match[1] ?? '');
    for (const match of text.matchAll(/\b(?:labelKey|i18nKey):\s*'([^']+)'/g)) {
      literal.add(match[1] ?? '');
    }
    for (const match of text.matchAll(/\bt\(\s*`([^`]+)`/g)) templates.add(match[1] ?? '');
  }
  return { literal, templates };
}

describe('translations', () => {
  const english = localeKeys('en');

  it.each(locales.slice(1))('%s has exactly the English keys', (language) => {
    expect(localeKeys(language)).toEqual(english);
  });

  it.each(locales)('%s has no empty text', (language) => {
    const file = path.join(webDir, 'public/locales', language, 'translation.json');
    expect(readFileSync(file, 'utf8')).not.toMatch(/:\s*""/);
  });

  it('has every key the source uses', () => {
    const { literal, templates } = usedKeys();
    expect(literal.size).toBeGreaterThan(50);
    expect([...literal].filter((key) => !english.includes(key))).toEqual([]);
    const unmatched = [...templates].filter((template) => {
      const pattern = new RegExp(
        `^${template.replace(/\./g, '\\.').replace(/\$\{[^}]+\}/g, '[^.]+')}$`,
      );
      return !english.some((key) => pattern.test(key));
    });
    expect(unmatched).toEqual([]);
  });

  it('translates every message of the account contract', () => {
    const missing = Object.keys(accountMessages).filter(
      (key) => !english.includes(`messages.${key}`),
    );
    expect(missing).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { checkScanUrl, isValidScanUrl, normalizeScanUrl } from './url.js';

describe('scan URL validation (SPEC §5, DESIGN §6)', () => {
  it.each([
    'example.com',
    'www.example.com',
    'http://example.com',
    'https://example.com/',
    'HTTPS://Example.COM/Docs/Index.html',
    'example.co.uk/path/to/page?x=1',
    'sub.domain.example.org/folder/',
    'example.museum',
    'example.photography',
    'xn--bcher-kva.example',
    'bücher.de',
    'example.com:8080/app',
    'example.com/#section',
  ])('accepts %s', (input) => {
    expect(isValidScanUrl(input)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['http://', 'empty'],
    ['https://', 'empty'],
    ['exa mple.com', 'inner-space'],
    ['http://example.com/a b', 'inner-space'],
    [`https://example.com/${'a'.repeat(5000)}`, 'too-long'],
    ['ftp://example.com', 'unsupported-scheme'],
    ['javascript://alert(1)', 'unsupported-scheme'],
    ['http:/example.com', 'malformed'],
    ['http://user:secret@example.com', 'credentials'],
    ['example', 'invalid-host'],
    ['example.c', 'invalid-host'],
    ['example.123', 'malformed'],
    ['-bad.example.com', 'invalid-host'],
    ['exa_mple.com', 'invalid-host'],
    ['localhost:3000', 'private-host'],
    ['127.0.0.1', 'private-host'],
    ['http://[::1]/', 'private-host'],
  ])('refuses %j as %s', (input, problem) => {
    expect(checkScanUrl(input)).toEqual({ ok: false, problem });
  });

  it('allows localhost and IP literals only where private targets are allowed', () => {
    expect(isValidScanUrl('localhost:3000', { allowPrivate: true })).toBe(true);
    expect(isValidScanUrl('http://127.0.0.1:8080/x', { allowPrivate: true })).toBe(true);
    expect(isValidScanUrl('http://[::1]:8080/', { allowPrivate: true })).toBe(true);
  });
});

describe('scan URL normalisation', () => {
  it.each([
    ['example.com', 'http://example.com/'],
    ['Example.COM', 'http://example.com/'],
    ['HTTPS://WWW.Example.com', 'https://www.example.com/'],
    ['example.com/Docs/Page.html', 'http://example.com/Docs/Page.html'],
    ['  example.com/folder/  ', 'http://example.com/folder/'],
    ['example.com?q=1', 'http://example.com/?q=1'],
    ['example.com/#top', 'http://example.com/'],
    ['bücher.de', 'http://xn--bcher-kva.de/'],
  ])('%s becomes %s', (input, expected) => {
    expect(normalizeScanUrl(input)).toBe(expected);
  });

  it('throws with the problem named for an invalid address', () => {
    expect(() => normalizeScanUrl('not a url')).toThrow(/inner-space/);
  });
});

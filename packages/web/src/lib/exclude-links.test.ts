import { describe, expect, it } from 'vitest';
import { excludeLinkProblem, excludeListProblems, newExcludeLink } from './exclude-links';

describe('exclusion list rules (SPEC §5)', () => {
  it('refuses empty entries and bare schemes', () => {
    expect(excludeLinkProblem('', [])).toBe('empty');
    expect(excludeLinkProblem('https://', [])).toBe('empty');
  });
  it('needs http or https', () => {
    expect(excludeLinkProblem('example.com/a', [])).toBe('scheme');
    expect(excludeLinkProblem('ftp://example.com/', [])).toBe('scheme');
  });
  it('refuses an entry equal to another or under another as a prefix', () => {
    expect(excludeLinkProblem('http://a.com/x', ['http://a.com/x'])).toBe('duplicate');
    expect(excludeLinkProblem('http://A.com/x/y', ['http://a.com/x'])).toBe('duplicate');
    expect(excludeLinkProblem('http://a.com/x', ['http://a.com/xyz'])).toBeUndefined();
  });
  it('starts new entries at the scanned host', () => {
    expect(newExcludeLink('https://www.Example.com/docs/')).toBe('https://www.example.com/');
    expect(newExcludeLink('example.com')).toBe('http://example.com/');
  });
  it('refuses an entry left at the site root, which would exclude the whole scan (issue 37)', () => {
    const scanned = 'https://www.example.com/docs/';
    const fresh = newExcludeLink(scanned);
    expect(excludeLinkProblem(fresh, [], false, scanned)).toBe('wholeSite');
    expect(excludeLinkProblem('https://www.example.com/do', [], false, scanned)).toBe('wholeSite');
    expect(
      excludeLinkProblem('https://www.example.com/docs/old/', [], false, scanned),
    ).toBeUndefined();
    expect(excludeListProblems([fresh], false, scanned)).toEqual(['wholeSite']);
  });
  it('answers no problems for a clean list', () => {
    expect(excludeListProblems(['http://a.com/x', 'http://a.com/y'])).toEqual([]);
    expect(excludeListProblems(['http://a.com/x', 'http://a.com/x/1'])).toEqual([
      undefined,
      'duplicate',
    ]);
  });
});

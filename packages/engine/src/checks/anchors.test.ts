import { describe, expect, it } from 'vitest';
import { AnchorIndex, findDuplicateAnchors, isTrivialFragment } from './anchors.js';

const at = (name: string, line = 1, column = 1) => ({ name, line, column });

describe('anchors', () => {
  const index = new AnchorIndex();
  index.record(7, [
    at('intro'),
    at('Section 2'),
    at('über'),
    at('end'),
    at(':_%%<'),
    at('50% off'),
    at('x%'),
  ]);

  it.each([
    ['#intro', 'found'],
    ['#Intro', 'missing'],
    ['#Section%202', 'found'],
    ['#%C3%BCber', 'found'],
    ['#nowhere', 'missing'],
    // A `%` not followed by two hex digits stays as it is (lenient decoding, as browsers do).
    ['#:_%%<', 'found'],
    ['#:_%%%3C', 'found'],
    ['#50%%20off', 'found'],
    ['#50%25%20off', 'found'],
    ['#x%', 'found'],
    ['#x%25', 'found'],
    // Bytes that are not UTF-8 decode to U+FFFD: no match, and no exception.
    ['#%FF', 'missing'],
    ['#%C3', 'missing'],
  ])('%s is %s on the page', (fragment, state) => {
    expect(index.check(7, fragment)).toEqual({ fragment, state });
  });

  it("finds a GitHub README's heading by the id GitHub's page script answers", () => {
    const github = new AnchorIndex();
    github.record(1, [at('user-content-usage')]);
    expect(github.check(1, '#usage').state).toBe('found');
    expect(github.check(1, '#user-content-usage').state).toBe('found');
    expect(github.check(1, '#content-usage').state).toBe('missing');
  });

  it('cannot verify fragments of pages it has not read', () => {
    expect(index.check(8, '#intro')).toEqual({ fragment: '#intro', state: 'unverifiable' });
  });

  it.each(['#', '#top', '#TOP', '#:~:text=hello', ''])('%j always works', (fragment) => {
    expect(isTrivialFragment(fragment)).toBe(true);
  });

  it('reports every repeat of a name with both positions', () => {
    expect(
      findDuplicateAnchors([at('a', 1, 1), at('b', 2, 1), at('a', 3, 5), at('a', 4, 2)]),
    ).toEqual([
      { name: 'a', first: { line: 1, column: 1 }, duplicate: { line: 3, column: 5 } },
      { name: 'a', first: { line: 1, column: 1 }, duplicate: { line: 4, column: 2 } },
    ]);
  });
});

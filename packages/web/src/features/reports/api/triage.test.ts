import { describe, expect, it } from 'vitest';
import { brokenAnchorReason, type LinkRow } from '@linkaudit/core';
import { linkTriageTarget, ruleTriageTarget, triageTargetQuery } from './triage';

const row = (fields: Partial<LinkRow>): LinkRow => ({
  targetUri: 'http://a.example/gone.html',
  sourceUri: 'http://a.example/',
  statusDetail: '',
  statusCode: 404,
  failureReason: 'Not Found',
  errorMessage: null,
  referenceCount: 1,
  element: 'a',
  line: 1,
  column: 1,
  anchor: null,
  suggestion: null,
  triage: null,
  ...fields,
});

describe('what a triage mark names', () => {
  it('names a broken link by its URL and a broken anchor by the link with its fragment', () => {
    expect(linkTriageTarget(row({}))).toEqual({
      kind: 'link',
      target: 'http://a.example/gone.html',
    });
    expect(
      linkTriageTarget(
        row({
          targetUri: 'http://a.example/guide.html#instalation',
          failureReason: brokenAnchorReason,
          statusCode: 200,
          anchor: '#instalation',
        }),
      ),
    ).toEqual({ kind: 'anchor', target: 'http://a.example/guide.html#instalation' });
  });

  it('offers no mark on a working link', () => {
    expect(linkTriageTarget(row({ failureReason: null, statusCode: 200 }))).toBeUndefined();
  });

  it('names a rule finding by its page and rule, and clears it with the same names', () => {
    const target = ruleTriageTarget({ uri: 'http://a.example/a b.html', ruleId: '3007' });
    expect(target).toEqual({ kind: 'rule', target: 'http://a.example/a b.html', ruleId: '3007' });
    const query = new URLSearchParams(triageTargetQuery(target));
    expect([...query.entries()]).toEqual([
      ['kind', 'rule'],
      ['target', 'http://a.example/a b.html'],
      ['ruleId', '3007'],
    ]);
    expect(triageTargetQuery({ kind: 'link', target: 'http://a.example/x?y=1&z' })).toBe(
      'kind=link&target=http%3A%2F%2Fa.example%2Fx%3Fy%3D1%26z',
    );
  });
});

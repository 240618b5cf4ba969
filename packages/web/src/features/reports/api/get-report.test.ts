import { describe, expect, it } from 'vitest';
import { defaultTabView, tabQuery } from './get-report';

describe('the query of a report tab', () => {
  it('asks the link tab for broken links unless another status is chosen', () => {
    expect(tabQuery('link', defaultTabView)).toBe('page=1&pageSize=50&groupBy=none');
    expect(tabQuery('link', { ...defaultTabView, status: 'broken' })).not.toContain('status');
    expect(tabQuery('link', { ...defaultTabView, status: 'all', page: 3 })).toBe(
      'page=3&pageSize=50&groupBy=none&status=all',
    );
    expect(tabQuery('link', { ...defaultTabView, status: 'anchor' })).toContain('status=anchor');
  });

  it('keeps the status when a group is expanded, and filters the link tab by reason', () => {
    const group = { ...defaultTabView, status: 'all' as const, source: 'http://a.example/' };
    const query = new URLSearchParams(tabQuery('link', { ...group, category: 'Not Found' }));
    expect(query.get('status')).toBe('all');
    expect(query.get('source')).toBe('http://a.example/');
    expect(query.get('reason')).toBe('Not Found');
  });

  it('asks for unverified links by their status and for soft 404s and login walls as working links with that reason', () => {
    expect(tabQuery('link', { ...defaultTabView, status: 'unverified' })).toContain(
      'status=unverified',
    );
    const soft = new URLSearchParams(tabQuery('link', { ...defaultTabView, status: 'soft-404' }));
    expect([soft.get('status'), soft.get('reason')]).toEqual(['ok', 'soft-404']);
    const wall = new URLSearchParams(tabQuery('link', { ...defaultTabView, status: 'login-wall' }));
    expect([wall.get('status'), wall.get('reason')]).toEqual(['ok', 'login-wall']);
  });

  it('sends no link status to the other tabs', () => {
    expect(tabQuery('page', { ...defaultTabView, status: 'all' })).toBe('page=1&pageSize=50');
    expect(tabQuery('ruleResult', { ...defaultTabView, category: '4' }, 'csv')).toBe(
      'page=1&pageSize=50&category=4&format=csv',
    );
  });

  it('asks the rule tab for one group of identical findings, an empty key included', () => {
    const rows = new URLSearchParams(
      tabQuery('ruleResult', { ...defaultTabView, ruleId: '3007', group: '<font> is deprecated' }),
    );
    expect(rows.get('ruleId')).toBe('3007');
    expect(rows.get('group')).toBe('<font> is deprecated');
    expect(tabQuery('ruleResult', { ...defaultTabView, ruleId: '5', group: '' })).toContain(
      'group=',
    );
    expect(tabQuery('page', { ...defaultTabView, ruleId: '5' })).not.toContain('ruleId');
  });

  it('asks the link and rule tabs for rows by triage mark, leaving the default to the server', () => {
    expect(tabQuery('link', { ...defaultTabView, triage: 'open' })).not.toContain('triage');
    expect(
      new URLSearchParams(tabQuery('link', { ...defaultTabView, triage: 'ignored' })).get('triage'),
    ).toBe('ignored');
    const rules = tabQuery(
      'ruleResult',
      { ...defaultTabView, triage: 'willFix', ruleId: '7', group: '' },
      'csv',
    );
    expect(new URLSearchParams(rules).get('triage')).toBe('willFix');
    expect(new URLSearchParams(rules).get('format')).toBe('csv');
    expect(tabQuery('page', { ...defaultTabView, triage: 'all' })).not.toContain('triage');
  });
});

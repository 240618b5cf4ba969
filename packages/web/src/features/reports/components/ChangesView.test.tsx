// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScanChanges } from '@linkaudit/core';
import {
  answerApi,
  renderScreen,
  useLanguage,
  useViewport,
} from '../../../test-support/render-screen';
import { defaultChangesView } from '../api/get-changes';
import { ChangesView } from './ChangesView';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const longAddress = `https://site.test/${'very-long-path-segment/'.repeat(6)}page.html`;
const changes: ScanChanges = {
  previousScanId: 'p1',
  counts: { new: 1, still: 0, fixed: 1, removed: 1 },
  ignored: 0,
  total: 3,
  rows: [
    {
      kind: 'link',
      target: longAddress,
      detail: null,
      state: 'new',
      firstSeen: '2026-11-28T09:00:00.000Z',
      triage: null,
      ruleId: null,
    },
    {
      kind: 'rule',
      target: 'https://site.test/',
      detail: 'Title missing',
      state: 'fixed',
      firstSeen: null,
      triage: null,
      ruleId: '4001',
    },
    {
      kind: 'link',
      target: 'https://site.test/old',
      detail: null,
      state: 'removed',
      firstSeen: null,
      triage: null,
      ruleId: null,
    },
  ],
};

function showChanges() {
  answerApi({ '/api/report/changes/': changes });
  renderScreen(<ChangesView scanId="s1" view={defaultChangesView} onView={() => undefined} />);
}

describe('the Changes tab (issue 37)', () => {
  it('shows whole addresses, a finding’s rule under its page, and removed apart from fixed', async () => {
    useViewport(1366, 768);
    await useLanguage('en');
    showChanges();
    const table = await screen.findByRole('table');
    expect(await within(table).findByText(longAddress)).toBeTruthy();
    // No column that only rule findings fill.
    expect(within(table).queryByRole('columnheader', { name: 'Rule' })).toBeNull();
    expect(within(table).getByText('Rule: Title missing')).toBeTruthy();
    expect(within(table).getByText('Removed')).toBeTruthy();
    expect(screen.getByText(/1 fixed, 1 removed/)).toBeTruthy();
    // Addresses wrap rather than being cut with an ellipsis.
    expect(table.querySelector('.ant-table-cell-ellipsis')).toBeNull();
  });

  it('shows each change as a card on a phone, in Chinese', async () => {
    useViewport(390, 844);
    await useLanguage('zh-CN');
    showChanges();
    const card = await screen.findByRole('group', { name: 'https://site.test/old' });
    expect(within(card).getByText('已移除')).toBeTruthy();
    expect(within(card).getByText('地址')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByRole('group')).toHaveLength(3);
  });
});

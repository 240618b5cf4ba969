// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScanStatus, type LinkRow, type ReportSummary } from '@linkaudit/core';
import { renderScreen, useLanguage } from '../../../test-support/render-screen';
import { SummaryView } from './SummaryView';

// The charts draw on a canvas; here each shows the data it was given.
vi.mock('../../../components/charts/EChart', () => ({
  EChart: ({ option, label }: { option: { series: Array<{ data: unknown }> }; label: string }) => (
    <figure aria-label={label} data-series={JSON.stringify(option.series[0]?.data)} />
  ),
}));

afterEach(cleanup);

const link = (target: string, reason: string): LinkRow => ({
  targetUri: target,
  sourceUri: 'https://site.test/',
  statusDetail: '',
  statusCode: reason === 'Broken Anchor' ? 200 : 404,
  failureReason: reason,
  errorMessage: null,
  referenceCount: 1,
  element: 'a',
  line: 1,
  column: 1,
  anchor: null,
  suggestion: null,
});

/** 15 links Not Found (10 sampled) and 2 to missing anchors (1 sampled), as the server counts. */
const summary: ReportSummary = {
  scanId: 's1',
  url: 'https://site.test/',
  status: ScanStatus.Complete,
  logMessage: null,
  numPages: 4,
  totalLinks: 40,
  uniqueLinks: 30,
  badLinks: 15,
  uniqueBadLinks: 5,
  brokenAnchors: 2,
  duplicateAnchors: 0,
  fattestPages: 0,
  certificateProblems: 0,
  duration: 1000,
  scanSettingsJson: JSON.stringify({ url: 'https://site.test/', checkAnchors: true }),
  reasons: [
    { failureReason: 'Not Found', numberOfReferences: 15 },
    { failureReason: 'Broken Anchor', numberOfReferences: 2 },
  ],
  pageSizeBuckets: [{ label: '< 1 MB', pages: 4 }],
  contentTypeSizes: [],
  ruleCategories: [],
  brokenSamples: [
    {
      failureReason: 'Not Found',
      links: Array.from({ length: 10 }, (_, i) => link(`https://site.test/${i}`, 'Not Found')),
    },
    { failureReason: 'Broken Anchor', links: [link('https://site.test/a#x', 'Broken Anchor')] },
  ],
  ruleSamples: [],
};

describe('the summary reads one count of broken links (issue 37)', () => {
  it('shows the same counts in the figures, the pie and the list', async () => {
    await useLanguage('en');
    renderScreen(<SummaryView summary={summary} expanded={[]} />);
    const pie = screen.getByRole('figure', { name: 'Failure reasons' });
    expect(JSON.parse(pie.dataset.series ?? '[]')).toEqual([
      { name: 'Not Found', value: 15 },
      { name: 'Broken Anchor', value: 2 },
    ]);
    // The list says how many, not how many samples it holds.
    expect(screen.getByText('Not Found (15)')).toBeTruthy();
    expect(screen.getByText('Broken Anchor (2)')).toBeTruthy();
    const anchors = document.querySelector<HTMLElement>('.report-stat-broken-anchors');
    expect(within(anchors!).getByText('Broken anchors')).toBeTruthy();
    expect(anchors?.textContent).toContain('2');
  });

  it('says why a failed scan failed, in Chinese too', async () => {
    await useLanguage('zh-CN');
    const failed = {
      ...summary,
      status: ScanStatus.Failed,
      logMessage: 'The start page could not be fetched: The server refused the connection',
    };
    renderScreen(<SummaryView summary={failed} expanded={[]} />);
    expect(screen.getByText('扫描失败的原因')).toBeTruthy();
    expect(screen.getByText('无法读取起始页：服务器拒绝了连接')).toBeTruthy();
  });
});

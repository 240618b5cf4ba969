// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  requestFailureTexts,
  ScanStatus,
  startPageFailure,
  type BrokenLinksSummary,
} from '@linkaudit/core';
import { answerApi, renderScreen, useLanguage } from '../../../test-support/render-screen';
import { LiveReport } from './LiveReport';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A scan of a host name that does not resolve, as the server answers its live summary. */
const failed: BrokenLinksSummary = {
  status: ScanStatus.Failed,
  logMessage: startPageFailure(requestFailureTexts.ENOTFOUND),
  badLinks: 0,
  uniqueBadLinks: 0,
  totalLinks: 0,
  uniqueLinks: 0,
  reasons: [],
  links: [],
};

describe('the expanded row of a failed scan (issue 37)', () => {
  it('says why it failed, not that no broken link was found', async () => {
    await useLanguage('en');
    answerApi({ '/reports/BrokenLinksSummary/': failed });
    renderScreen(<LiveReport scanId="s1" status={ScanStatus.Failed} />);
    expect(await screen.findByText('Why the scan failed')).toBeTruthy();
    expect(
      screen.getByText(
        'The start page could not be fetched: The host name could not be resolved (DNS)',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('No broken link found.')).toBeNull();
  });

  it('says it in Chinese', async () => {
    await useLanguage('zh-CN');
    answerApi({ '/reports/BrokenLinksSummary/': failed });
    renderScreen(<LiveReport scanId="s1" status={ScanStatus.Failed} />);
    expect(await screen.findByText('扫描失败的原因')).toBeTruthy();
    expect(screen.getByText(/^无法读取起始页：/).textContent).toMatch(/DNS/);
  });

  it('says a failed scan failed when no reason was recorded', async () => {
    await useLanguage('en');
    answerApi({ '/reports/BrokenLinksSummary/': { ...failed, logMessage: null } });
    renderScreen(<LiveReport scanId="s1" status={ScanStatus.Failed} />);
    expect(await screen.findByText('The scan failed; no reason was recorded.')).toBeTruthy();
  });
});

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  fileTypeReportSchema,
  linkReportSchema,
  pageReportSchema,
  reportSummarySchema,
  ruleReportSchema,
  type FileTypeRow,
  type LinkRow,
  type PageRow,
  type ReportData,
  type ReportQuery,
  type RuleRow,
} from '@linkaudit/core';
import { ApiError, getJson, type Parser } from '../../../lib/api-client';
import { getSessionToken } from '../../../lib/session';

/** The report tabs the server pages, filters, groups and exports (SPEC §7 Reports). */
export type ReportTab = 'link' | 'page' | 'ruleResult' | 'fileType';

/** Which links the Link tab lists: the broken ones (default), every link, or broken anchors. */
export type LinkStatus = Extract<ReportQuery['status'], 'broken' | 'all' | 'anchor'>;
export const linkStatuses: readonly LinkStatus[] = ['broken', 'all', 'anchor'];

/** What a tab shows: its page, grouping and category filter; all applied on the server. */
export interface TabView {
  page: number;
  pageSize: number;
  groupBy: 'none' | 'target' | 'source' | 'reason';
  category?: string;
  /** Link tab: which links; broken when not given. */
  status?: LinkStatus;
  /** Link tab: rows of one group when it is expanded. */
  target?: string;
  source?: string;
  reason?: string;
}

export const defaultTabView: TabView = { page: 1, pageSize: 50, groupBy: 'none' };

const schemas = {
  link: linkReportSchema,
  page: pageReportSchema,
  ruleResult: ruleReportSchema,
  fileType: fileTypeReportSchema,
} as const;

/** The query string of a tab's view; the link tab filters by reason, the others by category. */
export function tabQuery(tab: ReportTab, view: TabView, format?: 'csv'): string {
  const query = new URLSearchParams({ page: String(view.page), pageSize: String(view.pageSize) });
  if (tab === 'link') {
    query.set('groupBy', view.groupBy);
    if (view.status && view.status !== 'broken') query.set('status', view.status);
    const reason = view.reason ?? view.category;
    if (reason) query.set('reason', reason);
    if (view.target) query.set('target', view.target);
    if (view.source) query.set('source', view.source);
  } else if (view.category) {
    query.set('category', view.category);
  }
  if (format) query.set('format', format);
  return query.toString();
}

export const getReportSummary = (scanId: string) =>
  getJson(`/api/report/summary/${encodeURIComponent(scanId)}`, reportSummarySchema);

export const useReportSummary = (scanId: string) =>
  useQuery({
    queryKey: ['report', scanId, 'summary'],
    queryFn: () => getReportSummary(scanId),
    meta: { silent: true },
    retry: false,
  });

/** The rows of each tab, as the shared contract types them. */
export interface TabRows {
  link: LinkRow;
  page: PageRow;
  ruleResult: RuleRow;
  fileType: FileTypeRow;
}

export function getReportTab<T extends ReportTab>(
  tab: T,
  scanId: string,
  view: TabView,
): Promise<ReportData<TabRows[T]>> {
  const schema = schemas[tab] as unknown as Parser<ReportData<TabRows[T]>>;
  return getJson(`/api/report/${tab}/${encodeURIComponent(scanId)}?${tabQuery(tab, view)}`, schema);
}

/**
 * One page of a tab; the previous page stays on screen while the next one loads. `enabled`
 * false defers the read (an expanded group not yet scrolled into view).
 */
export const useReportTab = <T extends ReportTab>(
  tab: T,
  scanId: string,
  view: TabView,
  enabled = true,
) =>
  useQuery({
    queryKey: ['report', scanId, tab, view],
    queryFn: () => getReportTab(tab, scanId, view),
    placeholderData: keepPreviousData,
    enabled,
  });

/** Downloads the tab as CSV through the server's export (all rows matching the view's filter). */
export async function downloadTabCsv(tab: ReportTab, scanId: string, view: TabView): Promise<void> {
  const token = getSessionToken();
  const response = await fetch(
    `/api/report/${tab}/${encodeURIComponent(scanId)}?${tabQuery(tab, { ...view, page: 1 }, 'csv')}`,
    { headers: token ? { authorization: `Bearer ${token}` } : {} },
  );
  if (!response.ok)
    throw new ApiError(response.status, await response.json().catch(() => undefined));
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `${tab}-${scanId}.csv`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

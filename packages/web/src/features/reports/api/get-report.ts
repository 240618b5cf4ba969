import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  duplicateAnchorReportSchema,
  fileTypeReportSchema,
  linkReportSchema,
  pageInclusionReportSchema,
  pageReportSchema,
  reportSummarySchema,
  ruleReportSchema,
  type DuplicateAnchorRow,
  type FileTypeRow,
  type LinkRow,
  type PageInclusionRow,
  type PageRow,
  type ReportData,
  type ReportQuery,
  type ReportTab,
  type RuleRow,
  type TriageFilter,
} from '@linkaudit/core';
import { ApiError, getJson, type Parser } from '../../../lib/api-client';
import { getSessionToken } from '../../../lib/session';

/**
 * Which links the Link tab lists: the broken ones (default), every link, broken anchors, the
 * links that could not be verified, or working links with a warning (issue 35: a soft 404 or a
 * login wall, asked of the server as `status=ok` with the warning as `reason`).
 */
export type LinkStatus =
  Extract<ReportQuery['status'], 'broken' | 'all' | 'anchor' | 'unverified'> | OkWarning;
export type OkWarning = 'soft-404' | 'login-wall';
export const linkStatuses: readonly LinkStatus[] = [
  'broken',
  'all',
  'anchor',
  'unverified',
  'soft-404',
  'login-wall',
];
const okWarnings: readonly LinkStatus[] = ['soft-404', 'login-wall'];

/**
 * What a tab shows: its page, grouping and category filter, all applied on the server; these are
 * fields of core's report query. The Link tab also picks which links (broken when not given) and,
 * when a group is expanded, the rows of one target, source or reason. The link and rule tabs
 * show rows by their triage mark (issue 27; `open` when not given: ignored rows hidden).
 */
export type TabView = Pick<
  ReportQuery,
  'page' | 'pageSize' | 'groupBy' | 'category' | 'target' | 'source' | 'reason' | 'ruleId' | 'group'
> & { status?: LinkStatus; triage?: TriageFilter };

/** The tabs whose rows carry triage marks. */
const triagedTabs: readonly ReportTab[] = ['link', 'ruleResult'];

export const defaultTabView: TabView = { page: 1, pageSize: 50, groupBy: 'none' };

/**
 * The query string of a tab's view: the report query's fields the view sets (the server fills
 * the defaults); the link tab filters by reason, the others by category.
 */
export function tabQuery(tab: ReportTab, view: TabView, format?: 'csv'): string {
  const query: Partial<ReportQuery> = { page: view.page, pageSize: view.pageSize };
  if (tab === 'link') {
    query.groupBy = view.groupBy;
    const warning = view.status && okWarnings.includes(view.status) ? view.status : undefined;
    if (warning) query.status = 'ok';
    else if (view.status && view.status !== 'broken')
      query.status = view.status as ReportQuery['status'];
    const reason = warning ?? view.reason ?? view.category;
    if (reason) query.reason = reason;
    if (view.target) query.target = view.target;
    if (view.source) query.source = view.source;
  } else if (view.category) {
    query.category = view.category;
  }
  // The rule tab: the rows of one rule's group of identical findings (the grouped view, expanded).
  if (tab === 'ruleResult' && view.ruleId) {
    query.ruleId = view.ruleId;
    if (view.group !== undefined) query.group = view.group;
  }
  if (triagedTabs.includes(tab) && view.triage && view.triage !== 'open') {
    query.triage = view.triage;
  }
  if (format) query.format = format;
  return new URLSearchParams(
    Object.entries(query).map(([key, value]) => [key, String(value)]),
  ).toString();
}

export const getReportSummary = (scanId: string) =>
  getJson(`/api/report/summary/${encodeURIComponent(scanId)}`, reportSummarySchema);

export const useReportSummary = (scanId: string) =>
  useQuery({
    queryKey: ['report', scanId, 'summary'],
    queryFn: () => getReportSummary(scanId),
    enabled: scanId !== '',
    meta: { silent: true },
    retry: false,
  });

/** The rows of each tab, as the shared contract types them. */
export interface TabRows {
  link: LinkRow;
  page: PageRow;
  ruleResult: RuleRow;
  fileType: FileTypeRow;
  duplicateAnchor: DuplicateAnchorRow;
  pageInclusion: PageInclusionRow;
}

/** Each tab's answer is checked against core's report schema of its rows. */
const tabSchemas: { [Tab in ReportTab]: Parser<ReportData<TabRows[Tab]>> } = {
  link: linkReportSchema,
  page: pageReportSchema,
  ruleResult: ruleReportSchema,
  fileType: fileTypeReportSchema,
  duplicateAnchor: duplicateAnchorReportSchema,
  pageInclusion: pageInclusionReportSchema,
};

export function getReportTab<T extends ReportTab>(
  tab: T,
  scanId: string,
  view: TabView,
): Promise<ReportData<TabRows[T]>> {
  return getJson(
    `/api/report/${tab}/${encodeURIComponent(scanId)}?${tabQuery(tab, view)}`,
    tabSchemas[tab],
  );
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
export function downloadTabCsv(tab: ReportTab, scanId: string, view: TabView): Promise<void> {
  return downloadCsv(
    `/api/report/${tab}/${encodeURIComponent(scanId)}?${tabQuery(tab, { ...view, page: 1 }, 'csv')}`,
    `${tab}-${scanId}.csv`,
  );
}

/** Downloads a CSV export of the API as the file it names (else `fallbackName`). */
export async function downloadCsv(path: string, fallbackName: string): Promise<void> {
  const token = getSessionToken();
  const response = await fetch(path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok)
    throw new ApiError(response.status, await response.json().catch(() => undefined));
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

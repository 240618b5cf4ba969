import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { scanChangesSchema, type ScanChangesQuery } from '@linkaudit/core';
import { getJson } from '../../../lib/api-client';
import { downloadCsv } from './get-report';

/**
 * What the Changes view asks for: a state and a kind filter, a page, and which problems by their
 * triage mark (issue 27; `open`, ignored ones hidden, when not given).
 */
export type ChangesView = Pick<ScanChangesQuery, 'state' | 'kind' | 'page' | 'pageSize'> &
  Partial<Pick<ScanChangesQuery, 'triage'>>;

export const defaultChangesView: ChangesView = { page: 1, pageSize: 50 };

function changesQuery(view: ChangesView): URLSearchParams {
  const query = new URLSearchParams({ page: String(view.page), pageSize: String(view.pageSize) });
  if (view.state) query.set('state', view.state);
  if (view.kind) query.set('kind', view.kind);
  if (view.triage && view.triage !== 'open') query.set('triage', view.triage);
  return query;
}

/** GET /api/report/changes/{id}: the scan's problems against the site's previous scan. */
export function getScanChanges(scanId: string, view: ChangesView) {
  return getJson(
    `/api/report/changes/${encodeURIComponent(scanId)}?${changesQuery(view)}`,
    scanChangesSchema,
  );
}

/** The Changes tab's rows matching its filters (every page), as CSV (issue 37). */
export function downloadChangesCsv(scanId: string, view: ChangesView): Promise<void> {
  const query = changesQuery(view);
  query.delete('page');
  query.delete('pageSize');
  query.set('format', 'csv');
  return downloadCsv(
    `/api/report/changes/${encodeURIComponent(scanId)}?${query}`,
    `changes-${scanId}.csv`,
  );
}

export const useScanChanges = (scanId: string, view: ChangesView = defaultChangesView) =>
  useQuery({
    queryKey: ['report', scanId, 'changes', view],
    queryFn: () => getScanChanges(scanId, view),
    placeholderData: keepPreviousData,
    meta: { silent: true },
    retry: false,
  });

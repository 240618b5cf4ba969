import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  brokenAnchorReason,
  setTriageMarkRequestSchema,
  siteTriageSchema,
  triageMarkSchema,
  type LinkRow,
  type RuleRow,
  type TriageMarkName,
  type TriageTarget,
} from '@linkaudit/core';
import { apiRequest, getJson } from '../../../lib/api-client';
import { scansQueryKey } from '../../../lib/api/get-scans';
import { toastSuccess } from '../../../lib/notify';
import { getSessionToken } from '../../../lib/session';

/**
 * Triage that lasts (issue 27): the owner marks a broken link, a broken anchor or a rule finding
 * `ignored` (with a note) or `willFix`; the mark belongs to the site, so later scans carry it.
 */

const triagePath = (scanId: string) => `/api/report/triage/${encodeURIComponent(scanId)}`;

/**
 * The site's marks; only the scan's owner gets them (a visitor reading the sample, or an admin
 * reading someone else's report, gets none), so an answer is what shows the triage controls.
 */
export const useSiteTriage = (scanId: string) =>
  useQuery({
    queryKey: ['report', scanId, 'triage'],
    // No marks asked for: the answer itself is what tells the owner (marks come with the rows).
    queryFn: () => getJson(`${triagePath(scanId)}?limit=0`, siteTriageSchema),
    enabled: Boolean(getSessionToken()),
    meta: { silent: true },
    retry: false,
  });

/** Whether the reader owns the scan and may mark its problems. */
export const useIsScanOwner = (scanId: string) => useSiteTriage(scanId).data !== undefined;

/**
 * What a mark of a link tab row names: the broken URL, or the link with its #fragment for a
 * broken anchor; undefined for a working link (nothing to triage).
 */
export function linkTriageTarget(row: LinkRow): TriageTarget | undefined {
  // A link without an address, or one too long for a mark, cannot be marked.
  if (!row.failureReason || row.targetUri === '' || row.targetUri.length > 4000) return undefined;
  return {
    kind: row.failureReason === brokenAnchorReason ? 'anchor' : 'link',
    target: row.targetUri,
  };
}

/** A rule finding is marked for its rule on its page (every finding of the rule there). */
export const ruleTriageTarget = (row: Pick<RuleRow, 'uri' | 'ruleId'>): TriageTarget => ({
  kind: 'rule',
  target: row.uri,
  ruleId: row.ruleId,
});

/** The DELETE query naming a mark (kind, target and, for a rule finding, ruleId). */
export function triageTargetQuery(target: TriageTarget): string {
  const query = new URLSearchParams({ kind: target.kind, target: target.target });
  if (target.ruleId) query.set('ruleId', target.ruleId);
  return query.toString();
}

export type TriageChange =
  | { target: TriageTarget; mark: TriageMarkName; note?: string }
  | { target: TriageTarget; mark: null };

/**
 * Marks (PUT) or clears (DELETE) a problem; then every read of the report (tabs, totals,
 * summary, changes) and the scan list's counts are read again, so an ignored row leaves the
 * default view at once.
 */
export function useChangeTriage(scanId: string) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: async (change: TriageChange): Promise<void> => {
      if (change.mark === null) {
        await apiRequest(
          `${triagePath(scanId)}?${triageTargetQuery(change.target)}`,
          { parse: () => undefined },
          { method: 'DELETE' },
        );
        return;
      }
      await apiRequest(triagePath(scanId), triageMarkSchema, {
        method: 'PUT',
        json: setTriageMarkRequestSchema.parse({
          ...change.target,
          mark: change.mark,
          note: change.note ?? '',
        }),
      });
    },
    // Said here, not by the row: an ignored row leaves the view (and unmounts) as the reads end.
    onSuccess: (_, change) => {
      toastSuccess(t(`report.triage.toast.${change.mark ?? 'cleared'}`));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['report', scanId] }),
        queryClient.invalidateQueries({ queryKey: scansQueryKey }),
      ]);
    },
  });
}

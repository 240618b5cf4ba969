import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ignoreWordRequestSchema,
  ruleCountsReportSchema,
  ruleGroupsReportSchema,
  siteWordsSchema,
  type SiteWords,
  type TriageFilter,
} from '@linkaudit/core';
import { apiRequest, getJson } from '../../../lib/api-client';
import { errorMessages } from '../../../lib/errors';
import { toastError } from '../../../lib/notify';
import { getSessionToken } from '../../../lib/session';

/**
 * The rule tab's grouped view (issue 25): counts per rule, a rule's groups of identical findings
 * (paged on the server), and the words to ignore of the scan's site ("ignore this word").
 */

const scanPath = (call: string, scanId: string) =>
  `/api/report/${call}/${encodeURIComponent(scanId)}`;

/** A query string of the rule tab's grouped reads: set fields only, `open` left to the server. */
function groupedQuery(fields: Record<string, string | undefined>, triage: TriageFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value) query.set(key, value);
  if (triage !== 'open') query.set('triage', triage);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const useRuleCounts = (
  scanId: string,
  category: string | undefined,
  triage: TriageFilter = 'open',
) =>
  useQuery({
    queryKey: ['report', scanId, 'ruleCounts', category ?? '', triage],
    queryFn: () =>
      getJson(
        `${scanPath('ruleCounts', scanId)}${groupedQuery({ category }, triage)}`,
        ruleCountsReportSchema,
      ),
    placeholderData: keepPreviousData,
  });

export interface GroupsView {
  page: number;
  pageSize: number;
  /** Which findings by their triage mark (issue 27); `open` when not given. */
  triage?: TriageFilter;
}

export const useRuleGroups = (scanId: string, ruleId: string, view: GroupsView) =>
  useQuery({
    queryKey: ['report', scanId, 'ruleGroups', ruleId, view],
    queryFn: () =>
      getJson(
        `${scanPath('ruleGroups', scanId)}${groupedQuery(
          { ruleId, page: String(view.page), pageSize: String(view.pageSize) },
          view.triage ?? 'open',
        )}`,
        ruleGroupsReportSchema,
      ),
    placeholderData: keepPreviousData,
  });

const wordsKey = (scanId: string) => ['report', scanId, 'ignoredWords'];

/**
 * The site's words to ignore: only the scan's owner has them (a visitor reading the sample, or
 * an admin reading someone's report, gets none and sees no "ignore this word").
 */
export const useIgnoredWords = (scanId: string) =>
  useQuery({
    queryKey: wordsKey(scanId),
    queryFn: () => getJson(scanPath('ignoredWords', scanId), siteWordsSchema),
    enabled: Boolean(getSessionToken()),
    meta: { silent: true },
    retry: false,
  });

/** Adds (ignore) or removes (undo) a word; the answer is the site's list as it now is. */
export function useChangeIgnoredWord(scanId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ word, ignore }: { word: string; ignore: boolean }): Promise<SiteWords> =>
      ignore
        ? apiRequest(scanPath('ignoredWords', scanId), siteWordsSchema, {
            method: 'POST',
            json: ignoreWordRequestSchema.parse({ word }),
          })
        : apiRequest(
            `${scanPath('ignoredWords', scanId)}?word=${encodeURIComponent(word)}`,
            siteWordsSchema,
            { method: 'DELETE' },
          ),
    onSuccess: (words) => queryClient.setQueryData(wordsKey(scanId), words),
    onError: (error) => {
      for (const text of errorMessages(error)) toastError(text);
    },
  });
}

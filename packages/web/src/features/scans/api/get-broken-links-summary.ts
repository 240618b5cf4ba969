import { useQuery } from '@tanstack/react-query';
import { brokenLinksSummarySchema, limits } from '@linkaudit/core';
import { getJson } from '../../../lib/api-client';

/** GET /reports/BrokenLinksSummary/{id}: the live report of an expanded scan row. */
export const getBrokenLinksSummary = (id: string) =>
  getJson(`/reports/BrokenLinksSummary/${encodeURIComponent(id)}`, brokenLinksSummarySchema);

/** Refreshed every 5 s while the scan runs (SPEC §4). */
export const useBrokenLinksSummary = (id: string, running: boolean) =>
  useQuery({
    queryKey: ['broken-links-summary', id],
    queryFn: () => getBrokenLinksSummary(id),
    refetchInterval: running ? limits.pollIntervalMs : false,
    staleTime: 0,
  });

import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  isFinishedStatus,
  limits,
  scheduledScanListSchema,
  type ScheduledScan,
} from '@linkaudit/core';
import { getJson } from '../../../lib/api-client';

/** GET /api/ScanApi/ScheduleScan: the signed-in user's scheduled scans. */
export const getSchedules = () => getJson('/api/ScanApi/ScheduleScan', scheduledScanListSchema);

export const schedulesQueryKey = ['schedules'] as const;

/** A run started (on the clock or with Run now) and not finished yet. */
export const hasRunUnderway = (schedule: ScheduledScan) =>
  schedule.statusCode !== null && !isFinishedStatus(schedule.statusCode);

/**
 * The list is read again every 5 s (SPEC §9 polling) only while one of its runs is under way, so
 * the last-run status, run count and history follow a run to its end.
 */
export const schedulesQueryOptions = () =>
  queryOptions({
    queryKey: schedulesQueryKey,
    queryFn: getSchedules,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.some(hasRunUnderway) ? limits.pollIntervalMs : false,
  });

export const useSchedules = () => useQuery(schedulesQueryOptions());

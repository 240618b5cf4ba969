import { queryOptions, useQuery } from '@tanstack/react-query';
import { scheduledRunListSchema, type ScheduledScan } from '@linkaudit/core';
import { getJson } from '../../../lib/api-client';

/** GET /api/ScanApi/ScheduledRuns/{id}: the last 100 completed runs, oldest first (SPEC §9). */
export const getScheduledRuns = (id: string) =>
  getJson(`/api/ScanApi/ScheduledRuns/${encodeURIComponent(id)}`, scheduledRunListSchema);

/**
 * The history is read again whenever the list shows that the schedule started or finished a run
 * (its run count, last run or last status changed): the list polls while a run is under way, so
 * the history needs no clock of its own.
 */
export const scheduledRunsQueryOptions = (schedule: ScheduledScan) =>
  queryOptions({
    queryKey: [
      'schedules',
      schedule.id,
      'runs',
      { runCount: schedule.runCount, lastRun: schedule.lastRun, status: schedule.statusCode },
    ],
    queryFn: () => getScheduledRuns(schedule.id),
    staleTime: 0,
  });

export const useScheduledRuns = (schedule: ScheduledScan) =>
  useQuery(scheduledRunsQueryOptions(schedule));

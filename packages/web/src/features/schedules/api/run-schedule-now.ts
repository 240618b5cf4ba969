import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createScanResponseSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { scansQueryKey } from '../../../lib/api/get-scans';
import { schedulesQueryKey } from './get-schedules';

/**
 * POST /api/ScanApi/ScheduledRuns/{id}: start a run now. The answer is that of a scan submission
 * (queued with its position, or 12 / 13); a run still going is refused with 409.
 */
export const runScheduleNow = (id: string) =>
  apiRequest(`/api/ScanApi/ScheduledRuns/${encodeURIComponent(id)}`, createScanResponseSchema, {
    method: 'POST',
  });

/** Refusals (409 and others) go to the global error toasts. */
export function useRunScheduleNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runScheduleNow,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: schedulesQueryKey });
      await queryClient.invalidateQueries({ queryKey: scansQueryKey });
    },
  });
}

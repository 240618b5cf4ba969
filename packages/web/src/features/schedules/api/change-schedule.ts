import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  scheduledScanSchema,
  scheduleScanRequestSchema,
  type ScheduledScan,
  type ScheduleScanRequest,
} from '@linkaudit/core';
import i18n from 'i18next';
import { apiRequest, type Parser } from '../../../lib/api-client';
import { serverMessages, translateMessage } from '../../../lib/errors';
import { toastError } from '../../../lib/notify';
import { schedulesQueryKey } from './get-schedules';

/**
 * POST /api/ScanApi/ScheduleScan: create (no id), update, pause, resume or delete. Every action
 * but delete answers the schedule as it now is.
 */
const postSchedule = <T>(request: ScheduleScanRequest, answer: Parser<T>) =>
  apiRequest('/api/ScanApi/ScheduleScan', answer, {
    method: 'POST',
    json: scheduleScanRequestSchema.parse(request),
  });

const anything: Parser<unknown> = { parse: (value) => value };

export type ScheduleChange = Omit<ScheduleScanRequest, 'action' | 'status' | 'isDeleted'>;

/** Create (without id) or update (with id) a schedule from the editor. */
export const saveSchedule = (change: ScheduleChange) =>
  postSchedule(change.id ? { ...change, action: 'update' } : change, scheduledScanSchema);

export const setSchedulePaused = ({ id, paused }: { id: string; paused: boolean }) =>
  postSchedule({ id, action: paused ? 'pause' : 'resume' }, scheduledScanSchema);

export const deleteSchedule = (id: string) => postSchedule({ id, action: 'delete' }, anything);

/** Puts the schedule the server answered into the cached list (a new one at the end). */
function remember(queryClient: QueryClient, schedule: ScheduledScan): void {
  queryClient.setQueryData<ScheduledScan[]>(schedulesQueryKey, (list = []) =>
    list.some((item) => item.id === schedule.id)
      ? list.map((item) => (item.id === schedule.id ? schedule : item))
      : [...list, schedule],
  );
}

/** The editor shows its own failure (under its save button), so no toast. */
export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSchedule,
    meta: { silent: true },
    onSuccess: (schedule) => remember(queryClient, schedule),
  });
}

/**
 * SPEC §8's 'Update failed!!' / 'Delete failed!!' toasts, followed by the server's reason (a
 * schedule deleted in another tab, for one) so the user knows what to do; a dropped network adds
 * nothing (the browser's English "Failed to fetch" is no reason a user can act on).
 */
function toastFailure(failedText: string) {
  return (error: unknown) =>
    toastError(
      [failedText, ...serverMessages(error).map((text) => translateMessage(text, i18n.t))].join(
        ' ',
      ),
    );
}

export function useSetSchedulePaused(failedText: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSchedulePaused,
    meta: { silent: true },
    onError: toastFailure(failedText),
    onSuccess: (schedule) => remember(queryClient, schedule),
  });
}

export function useDeleteSchedule(failedText: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSchedule,
    meta: { silent: true },
    onError: toastFailure(failedText),
    onSuccess: async (_answer, id) => {
      await queryClient.cancelQueries({ queryKey: schedulesQueryKey });
      queryClient.setQueryData<ScheduledScan[]>(schedulesQueryKey, (list) =>
        list?.filter((item) => item.id !== id),
      );
    },
  });
}

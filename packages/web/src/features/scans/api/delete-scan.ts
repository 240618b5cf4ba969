import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Scan } from '@linkaudit/core';
import { apiRequest, type Parser } from '../../../lib/api-client';
import { scansQueryKey } from '../../../lib/api/get-scans';
import { toastError } from '../../../lib/notify';

const anything: Parser<unknown> = { parse: (value) => value };

/** DELETE /api/ScanApi/Trash?id=: the scan leaves the list (a running one is cancelled first). */
export const deleteScan = (id: string) =>
  apiRequest(`/api/ScanApi/Trash?id=${encodeURIComponent(id)}`, anything, { method: 'DELETE' });

export function useDeleteScan(failedText: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScan,
    meta: { silent: true },
    onError: () => toastError(failedText),
    onSuccess: async (_answer, id) => {
      // A list read while the delete was under way may still hold the scan: drop it, read again.
      await queryClient.cancelQueries({ queryKey: scansQueryKey });
      queryClient.setQueryData<Scan[]>(scansQueryKey, (scans) =>
        scans?.filter((scan) => scan.id !== id),
      );
      await queryClient.invalidateQueries({ queryKey: scansQueryKey });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { scanSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';
import { scansQueryKey } from '../../../lib/api/get-scans';

/** DELETE /api/ScanApi/?id=: cancel (queued → 2 at once, running → 8 then 2). */
export const cancelScan = (id: string) =>
  apiRequest(`/api/ScanApi/?id=${encodeURIComponent(id)}`, scanSchema, { method: 'DELETE' });

export function useCancelScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelScan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scansQueryKey }),
  });
}

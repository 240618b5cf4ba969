import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createScanRequestSchema,
  createScanResponseSchema,
  type CreateScanRequest,
} from '@linkaudit/core';
import { apiRequest } from '../api-client';
import { scansQueryKey } from './get-scans';

/** POST /api/ScanApi/: the answer is the queued scan, or only a status (12, 13, 14). */
export const createScan = (body: CreateScanRequest) =>
  apiRequest('/api/ScanApi/', createScanResponseSchema, {
    method: 'POST',
    json: createScanRequestSchema.parse(body),
  });

/** Submit errors are shown on the form itself (SPEC §8: line breaks, red button), not as toasts. */
export function useCreateScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createScan,
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scansQueryKey }),
  });
}

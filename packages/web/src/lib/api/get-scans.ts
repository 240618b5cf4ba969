import { queryOptions, useQuery } from '@tanstack/react-query';
import { scanListSchema } from '@linkaudit/core';
import { getJson } from '../api-client';

/** GET /api/ScanApi/Get: the signed-in user's scans, newest first. */
export const getScans = () => getJson('/api/ScanApi/Get', scanListSchema);

export const scansQueryKey = ['scans'] as const;

export const scansQueryOptions = () =>
  queryOptions({ queryKey: scansQueryKey, queryFn: getScans, staleTime: 0 });

export const useScans = () => useQuery(scansQueryOptions());

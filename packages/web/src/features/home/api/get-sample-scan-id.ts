import { queryOptions, useQuery } from '@tanstack/react-query';
import { sampleSiteScanIdSchema } from '@linkaudit/core';
import { apiRequest } from '../../../lib/api-client';

/** GET api/report/SampleSiteScanId: the scan behind the home page's sample report link. */
export const getSampleScanId = async () =>
  (await apiRequest('/api/report/SampleSiteScanId', sampleSiteScanIdSchema, { token: null }))
    .scanId;

export const sampleScanIdQueryOptions = () =>
  queryOptions({
    queryKey: ['sample-scan-id'],
    queryFn: getSampleScanId,
    staleTime: Infinity,
    retry: false,
    // A server that has not queued the sample scan yet answers 404: the link is simply not shown.
    meta: { silent: true },
  });

export const useSampleScanId = () => useQuery(sampleScanIdQueryOptions());

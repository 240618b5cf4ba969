import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type Parser } from '../../../lib/api-client';

// The answer's contract arrives with the reports module; until then an id, bare or as { scanId }.
const sampleScanId: Parser<string> = {
  parse(value) {
    const id =
      typeof value === 'object' && value !== null && 'scanId' in value ? value.scanId : value;
    if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
    throw new Error('The sample scan id is missing from the answer.');
  },
};

/** GET api/report/SampleSiteScanId: the scan behind the home page's sample report link. */
export const getSampleScanId = () =>
  apiRequest('/api/report/SampleSiteScanId', sampleScanId, { token: null });

export const sampleScanIdQueryOptions = () =>
  queryOptions({
    queryKey: ['sample-scan-id'],
    queryFn: getSampleScanId,
    staleTime: Infinity,
    retry: false,
    // Until the reports module answers, the link is simply not shown.
    meta: { silent: true },
  });

export const useSampleScanId = () => useQuery(sampleScanIdQueryOptions());

import { queryOptions, useQuery } from '@tanstack/react-query';
import { ruleSchema } from '@linkaudit/core';
import { getJson } from '../api-client';

/** GET /api/ScanRuleApi/: the rules a paid user may select (SPEC §3 Rule). */
export const getScanRules = () => getJson('/api/ScanRuleApi/', ruleSchema.array());

export const useScanRules = (enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: ['scan-rules'],
      queryFn: getScanRules,
      staleTime: Infinity,
      enabled,
    }),
  );

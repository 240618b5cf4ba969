import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  biAccessTokenListSchema,
  biExportSchema,
  createBiAccessTokenSchema,
  createdBiAccessTokenSchema,
  type CreateBiAccessToken,
} from '@linkaudit/core';
import { ApiError, apiRequest } from '../../lib/api-client';
import { getSessionToken } from '../../lib/session';

/**
 * Calls of the BI export (issue 23): access tokens in /manage and the report's "Analyze in
 * Power BI". Shared by two features, so they live here rather than in either.
 */

const tokensKey = ['bi-tokens'];

/** GET /api/bi/tokens: the user's access tokens (never their secrets). */
export const biTokensQueryOptions = () =>
  queryOptions({
    queryKey: tokensKey,
    queryFn: () => apiRequest('/api/bi/tokens', biAccessTokenListSchema),
  });

export const useBiTokens = () => useQuery(biTokensQueryOptions());

/** POST /api/bi/tokens: answers the new token with its secret, shown once. */
export function useCreateBiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBiAccessToken) =>
      apiRequest('/api/bi/tokens', createdBiAccessTokenSchema, {
        method: 'POST',
        json: createBiAccessTokenSchema.parse(body),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

/** DELETE /api/bi/tokens/{id}: the feed refuses the token from now on. */
export function useRevokeBiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(
        `/api/bi/tokens/${encodeURIComponent(id)}`,
        { parse: () => undefined },
        {
          method: 'DELETE',
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

/** GET /api/bi/export/{scanId}: the feed's address for the dialog. */
export const useBiExport = (scanId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['bi-export', scanId],
    queryFn: () => apiRequest(`/api/bi/export/${encodeURIComponent(scanId)}`, biExportSchema),
    enabled,
  });

/** GET /PowerBi/ExportScan/{scanId} (SPEC §7): saves the .pbids connection file. */
export async function downloadPbids(scanId: string): Promise<void> {
  const token = getSessionToken();
  const response = await fetch(`/PowerBi/ExportScan/${encodeURIComponent(scanId)}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    throw new ApiError(response.status, await response.json().catch(() => undefined));
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `linkaudit-${scanId}.pbids`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

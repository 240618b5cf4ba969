import { useQuery } from '@tanstack/react-query';
import type { AccountLanguage } from '@linkaudit/core';
import { ApiError } from '../../../lib/api-client';
import { getSessionToken } from '../../../lib/session';

/** A report PDF as the server made it, with the file name it gave. */
export interface ReportPdf {
  bytes: ArrayBuffer;
  fileName: string;
}

/**
 * GET /api/report/pdf/{scanId}?lang=: the report as PDF in the interface language, fetched with
 * the session's token (a plain link cannot carry it).
 */
export async function fetchReportPdf(
  scanId: string,
  language: AccountLanguage,
): Promise<ReportPdf> {
  const token = getSessionToken();
  const response = await fetch(
    `/api/report/pdf/${encodeURIComponent(scanId)}?lang=${encodeURIComponent(language)}`,
    { headers: token ? { authorization: `Bearer ${token}` } : {} },
  );
  if (!response.ok) {
    throw new ApiError(response.status, await response.json().catch(() => undefined));
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    `report-${scanId}.pdf`;
  return { bytes: await response.arrayBuffer(), fileName };
}

export const useReportPdf = (scanId: string, language: AccountLanguage) =>
  useQuery({
    queryKey: ['report', scanId, 'pdf', language],
    queryFn: () => fetchReportPdf(scanId, language),
    enabled: scanId !== '',
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
  });

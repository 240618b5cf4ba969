import { limits } from '@linkaudit/core';

export interface SizedResource {
  contentType: string;
  size: number | undefined;
}

export interface PageSize {
  htmlBytes: number;
  totalBytes: number;
  contents: Array<{ contentType: string; totalSize: number; count: number }>;
  unknownSizes: number;
}

/** Content types seen so far, worked out once each: a site has a handful, its resources many. */
const baseTypes = new Map<string, string>();
const maxRemembered = 1000;

/** A content type without parameters, lower-cased; 'unknown' when the server did not say. */
export function baseContentType(contentType: string | undefined): string {
  const header = contentType ?? '';
  let base = baseTypes.get(header);
  if (base === undefined) {
    base = header.split(';')[0]?.trim().toLowerCase() || 'unknown';
    if (baseTypes.size < maxRemembered) baseTypes.set(header, base);
  }
  return base;
}

/** A page's weight: its HTML plus each distinct resource it references, by content type. */
export function pageSize(
  htmlBytes: number,
  htmlType: string,
  resources: SizedResource[],
): PageSize {
  const byType = new Map<string, { totalSize: number; count: number }>();
  const add = (contentType: string, size: number) => {
    const entry = byType.get(contentType) ?? { totalSize: 0, count: 0 };
    entry.totalSize += size;
    entry.count++;
    byType.set(contentType, entry);
  };
  add(baseContentType(htmlType), htmlBytes);
  let unknownSizes = 0;
  let totalBytes = htmlBytes;
  for (const resource of resources) {
    if (resource.size === undefined) unknownSizes++;
    const size = resource.size ?? 0;
    totalBytes += size;
    add(baseContentType(resource.contentType), size);
  }
  const contents = [...byType]
    .map(([contentType, entry]) => ({ contentType, ...entry }))
    .sort((a, b) => b.totalSize - a.totalSize || a.contentType.localeCompare(b.contentType));
  return { htmlBytes, totalBytes, contents, unknownSizes };
}

/** Index of the SPEC §9 bucket: under 1 MB, 1–2, 2–3, 3–4, 4–5, 5 MB and over. */
export function pageSizeBucket(totalBytes: number): number {
  const megabytes = totalBytes / limits.bytesPerMb;
  return Math.min(limits.pageSizeBucketsMb.length, Math.floor(megabytes));
}

export function isFatPage(totalBytes: number): boolean {
  return totalBytes > limits.fattestPageBytes;
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminAuditPageSchema,
  adminHealthSchema,
  adminOutboxPageSchema,
  adminScanPageSchema,
  adminUserPageSchema,
  createVoucherRequestSchema,
  scanSchema,
  voucherListSchema,
  type CreateVoucherRequest,
  type ScanRequest,
} from '@linkaudit/core';
import { apiRequest, type Parser } from '../../../lib/api-client';

/** The operator's calls (SPEC §7 Admin and issue 24): one fetcher and hook per endpoint. */

const anything: Parser<unknown> = { parse: (value) => value };
const adminKey = ['admin'] as const;

/** A query string of the defined values (paging, sorting, filters). */
function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface AdminScanFilter {
  page: number;
  pageSize: number;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  status?: string | undefined;
  owner?: string | undefined;
  url?: string | undefined;
}

/** Every user's scans, one page; refreshed every 5 s like the scan list (SPEC §4). */
export function useAdminScans(filter: AdminScanFilter) {
  return useQuery({
    queryKey: [...adminKey, 'scans', filter],
    queryFn: () =>
      apiRequest(`/api/admin/scans/page${queryString({ ...filter })}`, adminScanPageSchema),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

export interface AdminUserFilter {
  page: number;
  pageSize: number;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  search?: string | undefined;
}

export function useAdminUsers(filter: AdminUserFilter) {
  return useQuery({
    queryKey: [...adminKey, 'users', filter],
    queryFn: () => apiRequest(`/api/admin/users${queryString({ ...filter })}`, adminUserPageSchema),
    placeholderData: keepPreviousData,
  });
}

export function useAudit(page: number, target?: string) {
  return useQuery({
    queryKey: [...adminKey, 'audit', page, target],
    queryFn: () =>
      apiRequest(
        `/api/admin/audit${queryString({ page, pageSize: 20, target })}`,
        adminAuditPageSchema,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Outgoing mail (issue 36): newest first, all or of one state, refreshed while shown. */
export function useOutbox(page: number, state?: string) {
  return useQuery({
    queryKey: [...adminKey, 'outbox', page, state],
    queryFn: () =>
      apiRequest(
        `/api/admin/outbox${queryString({ page, pageSize: 20, state })}`,
        adminOutboxPageSchema,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

export function useHealth() {
  return useQuery({
    queryKey: [...adminKey, 'health'],
    queryFn: () => apiRequest('/api/admin/health', adminHealthSchema),
    refetchInterval: 10_000,
  });
}

export function useVouchers() {
  return useQuery({
    queryKey: [...adminKey, 'vouchers'],
    queryFn: () => apiRequest('/api/admin/vouchers', voucherListSchema),
  });
}

/** Every admin change refreshes the admin screens (lists, audit log, health). */
function useAdminMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  });
}

export const useSetFailed = () =>
  useAdminMutation((id: string) =>
    apiRequest(`/api/admin/SetScanStateToFailed/${encodeURIComponent(id)}`, anything, {
      method: 'PUT',
    }),
  );

/** PUT api/admin/Requeue/: the scan, with edited settings when the admin changed them. */
export const useRequeue = () =>
  useAdminMutation(({ id, scanSettings }: { id: string; scanSettings?: ScanRequest }) =>
    apiRequest('/api/admin/Requeue/', scanSchema, {
      method: 'PUT',
      json: scanSettings ? { id, scanSettings } : { id },
    }),
  );

export const useSetRole = () =>
  useAdminMutation(({ id, admin }: { id: string; admin: boolean }) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(id)}/role`, anything, {
      method: 'PUT',
      json: { admin },
    }),
  );

export const useSetDisabled = () =>
  useAdminMutation(({ id, disabled }: { id: string; disabled: boolean }) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(id)}/disabled`, anything, {
      method: 'PUT',
      json: { disabled },
    }),
  );

export const useCreateVoucher = () =>
  useAdminMutation((voucher: CreateVoucherRequest) =>
    apiRequest('/api/admin/vouchers', anything, {
      method: 'POST',
      json: createVoucherRequestSchema.parse(voucher),
    }),
  );

export const useExpireVoucher = () =>
  useAdminMutation((code: string) =>
    apiRequest('/api/admin/vouchers/expire', anything, { method: 'PUT', json: { code } }),
  );

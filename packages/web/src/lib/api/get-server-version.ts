import { useQuery } from '@tanstack/react-query';
import { serverVersionSchema } from '@linkaudit/core';
import { getJson } from '../api-client';

export const getServerVersion = () => getJson('/api/ServerVersion', serverVersionSchema);

export function useServerVersion() {
  return useQuery({ queryKey: ['server-version'], queryFn: getServerVersion, staleTime: Infinity });
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  hubMessageSchema,
  isFinishedStatus,
  limits,
  scanHubPath,
  type Scan,
  type ScanUpdate,
} from '@linkaudit/core';
import { getScans, scansQueryKey } from '../../../lib/api/get-scans';
import { useSessionToken } from '../../../lib/session';

/** Only rows not finished take the fresh values (SPEC §4); new scans are added. */
export function mergeUnfinished(current: Scan[] | undefined, fresh: Scan[]): Scan[] {
  if (!current) return fresh;
  const byId = new Map(current.map((scan) => [scan.id, scan]));
  return fresh.map((scan) => {
    const known = byId.get(scan.id);
    return known && isFinishedStatus(known.status) ? known : scan;
  });
}

function applyHubUpdate(scans: Scan[] | undefined, update: ScanUpdate): Scan[] | undefined {
  return scans?.map((scan) =>
    scan.id === update.scanId
      ? {
          ...scan,
          status: update.status,
          totalQueuedLinks: update.totalQueuedLinks,
          totalLinks: update.totalLinks,
          uniqueLinks: update.uniqueLinks,
          badLinks: update.badLinks,
          uniqueBadLinks: update.uniqueBadLinks,
          duration: update.durationMs,
        }
      : scan,
  );
}

/**
 * Live scan rows: the WebSocket hub (`/hubs/scans?access_token=`) pushes status and totals; while
 * the hub is not connected the SPEC §4 polling runs (first after 20 s, then every 5 s, merging
 * only unfinished rows). The connection ends when the screen is left (route change).
 */
export function useScanUpdates(): void {
  const queryClient = useQueryClient();
  const token = useSessionToken();

  useEffect(() => {
    if (!token) return;
    let hubOpen = false;
    let stopped = false;
    // Polls keep their 5 s pace however long an answer takes; an answer older than one already
    // applied (a slow read overtaken by the next) is dropped, so rows never step back.
    let sent = 0;
    let applied = 0;
    const poll = async () => {
      if (hubOpen) return;
      sent += 1;
      const mine = sent;
      const fresh = await getScans().catch(() => undefined);
      if (!fresh || stopped || mine < applied) return;
      applied = mine;
      queryClient.setQueryData<Scan[]>(scansQueryKey, (current) => mergeUnfinished(current, fresh));
    };
    let pollTimer: ReturnType<typeof setInterval> | undefined;
    const firstPoll = setTimeout(() => {
      void poll();
      pollTimer = setInterval(() => void poll(), limits.pollIntervalMs);
    }, limits.firstPollDelayMs);

    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(
      `${scheme}://${window.location.host}${scanHubPath}?access_token=${encodeURIComponent(token)}`,
    );
    socket.addEventListener('message', (event) => {
      const parsed = hubMessageSchema.safeParse(JSON.parse(String(event.data)));
      if (!parsed.success) return;
      if (parsed.data.type === 'hello') {
        hubOpen = true;
        return;
      }
      const update = parsed.data;
      const scans = queryClient.getQueryData<Scan[]>(scansQueryKey);
      if (!scans?.some((scan) => scan.id === update.scanId) || isFinishedStatus(update.status)) {
        // A scan we do not know yet, or a finished one (completion date, queue): read it whole.
        void queryClient.invalidateQueries({ queryKey: scansQueryKey });
      }
      queryClient.setQueryData<Scan[]>(scansQueryKey, (current) => applyHubUpdate(current, update));
    });
    socket.addEventListener('close', () => {
      hubOpen = false;
    });
    return () => {
      stopped = true;
      clearTimeout(firstPoll);
      clearInterval(pollTimer);
      socket.close();
    };
  }, [queryClient, token]);
}

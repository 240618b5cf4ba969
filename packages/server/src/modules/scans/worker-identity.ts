import { randomUUID } from 'node:crypto';

/**
 * Who holds a scan's lease: `<worker id>:<pid>:<boot>`. The worker id (config WORKER_ID, by
 * default the host name) names the machine or container a worker runs on and stays the same
 * across its restarts; the pid and a random boot token tell its lives apart.
 */
export function leaseOwnerFor(workerId: string): string {
  return `${workerId}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Whether a lease was held by an earlier life of this worker that is gone: the same worker id,
 * and its process no longer runs on this machine. Such a scan is nobody's; a lease of another
 * worker id may belong to a live process elsewhere and is left to expire.
 */
export function isOwnOrphan(owner: string, workerId: string): boolean {
  const boot = owner.lastIndexOf(':');
  const pidStart = owner.lastIndexOf(':', boot - 1);
  if (pidStart <= 0 || owner.slice(0, pidStart) !== workerId) return false;
  const pid = Number(owner.slice(pidStart + 1, boot));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return pid !== process.pid && !processRuns(pid);
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

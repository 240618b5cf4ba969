import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isOwnOrphan, leaseOwnerFor } from './worker-identity.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('a worker identity', () => {
  it('knows the leases of its earlier, ended lives and no others', () => {
    const dead = deadPid();
    expect(isOwnOrphan(`web-1:${dead}:0a1b2c3d`, 'web-1')).toBe(true);
    expect(isOwnOrphan(`host:with:colons:${dead}:0a1b2c3d`, 'host:with:colons')).toBe(true);
    // Another worker id: maybe alive on another machine.
    expect(isOwnOrphan(`web-2:${dead}:0a1b2c3d`, 'web-1')).toBe(false);
    // This process, or one still running: alive.
    expect(isOwnOrphan(leaseOwnerFor('web-1'), 'web-1')).toBe(false);
    expect(isOwnOrphan(`web-1:${process.ppid}:0a1b2c3d`, 'web-1')).toBe(false);
    expect(isOwnOrphan('not an owner', 'web-1')).toBe(false);
  });
});

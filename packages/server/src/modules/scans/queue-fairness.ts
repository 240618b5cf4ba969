import { planIds, plans, type PlanId } from '@linkaudit/core';
import type { QueueFairness } from './scan-queue.repository.js';

/**
 * The running cap of each plan (config SCAN_RUNNING_PER_USER) keyed by the queue priority a scan
 * carries from its owner's plan at submit; a priority of no plan gets the smallest cap.
 */
export function queueFairness(runningPerUser: Record<PlanId, number>): QueueFairness {
  const caps = new Map(planIds.map((id) => [plans[id].queuePriority, runningPerUser[id]]));
  return { runningCapByPriority: caps, otherwise: Math.min(...caps.values()) };
}

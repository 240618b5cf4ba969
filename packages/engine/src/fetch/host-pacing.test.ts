import { describe, expect, it } from 'vitest';
import { HostPacing } from './host-pacing.js';

function pacing(hostBudgetMs = 1_000) {
  return new HostPacing({ defaultLimit: 8, patienceMs: 60_000, hostBudgetMs, onResume: () => {} });
}

describe('host pacing', () => {
  it('pauses the whole host for the time it announced, and holds its targets only within our patience', () => {
    const hosts = pacing();
    const pace = hosts.of('code.test');
    hosts.pause('code.test', 10_000, true, 1_000);
    expect(hosts.admission('code.test', 5_000)).toEqual({ go: 'wait', waitMs: 6_000 });
    expect(hosts.admission('code.test', 11_000)).toEqual({ go: true });
    expect(hosts.admission('other.test', 5_000)).toEqual({ go: true });
    expect(hosts.holds(pace, 5_000)).toBe(true);
    // An hour is past our patience: its targets go and are settled at once, without a request.
    hosts.pause('code.test', 3_600_000, true, 12_000);
    expect(hosts.holds(pace, 13_000)).toBe(false);
    hosts.close();
  });

  it('halves the concurrency on a 429 (once a pause) and grows it back one at a time, never past the limit', () => {
    const hosts = pacing();
    const pace = hosts.of('code.test', 8);
    hosts.pause('code.test', 1_000, true, 0);
    hosts.pause('code.test', 1_000, true, 10); // an answer to a request sent before the pause
    expect(pace.cap).toBe(4);
    hosts.pause('code.test', 1_000, true, 2_000);
    expect(pace.cap).toBe(2);
    const caps: number[] = [];
    for (let answer = 0; answer < 30; answer++) {
      hosts.answered('code.test');
      caps.push(pace.cap);
    }
    expect(caps.slice(0, 6)).toEqual([2, 3, 3, 3, 4, 4]);
    expect(Math.max(...caps)).toBe(8);
    hosts.close();
  });

  it('stops an external host past its time budget, never the scanned site', () => {
    const hosts = pacing(1_000);
    hosts.exemptFromBudget('site.test');
    for (const host of ['slow.test', 'site.test']) {
      hosts.started(host, 0);
      hosts.started(host, 100); // two at once count once
      hosts.finished(host, 900);
      hosts.finished(host, 1_200);
    }
    expect(hosts.admission('slow.test')).toEqual({ go: false, cause: 'host-too-slow' });
    expect(hosts.admission('site.test')).toEqual({ go: true });
    hosts.close();
  });
});

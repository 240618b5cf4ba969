import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { renderUnavailable } from './chromium.js';
import { PageSlot } from './page-slot.js';
import { findProcessByMarker, treeMemoryBytes } from './process-memory.js';

export interface BrowserPoolConfig {
  chromiumPath: string;
  /** Pages rendered at once (each in its own browser context). */
  size: number;
  /** The browser's processes together may hold this much; past it, it is restarted. */
  memoryCapBytes: number;
  /** V8's heap cap of each renderer process (MB): a page's script cannot grow past it. */
  rendererHeapMb: number;
  /** The user agent of the browser's requests (the crawler's). */
  userAgent: string;
  /** Restart after this many pages even when memory looks fine (leaks below the cap add up). */
  pagesPerBrowser: number;
}

/**
 * How often (in pages) the browser's memory is read from /proc. Summed RSS (cheap: one stat a
 * process) is read first; PSS (the kernel walks every mapping: ~2 ms a process on the bench,
 * 44 s of system time over 1,000 pages when read every 8) only when RSS passes the cap.
 */
const memoryCheckEvery = 16;
/** Launches that may fail in a row before rendering is given up for the scan. */
const launchAttempts = 2;

/**
 * One Chromium for a scan, shared by at most `size` pages at a time. The browser is started on
 * first use and started again when it crashed, when its processes together passed the memory
 * cap, or after `pagesPerBrowser` pages: new pages wait until the pages under way are done, so
 * two browsers never run side by side. Page script runs only in the browser's processes.
 */
export class BrowserPool {
  private browser: Browser | undefined;
  private browserPid: number | undefined;
  private launching: Promise<Browser | undefined> | undefined;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Tabs not in use, of the running browser. */
  private idle: PageSlot[] = [];
  private restartWanted = false;
  private pagesSinceLaunch = 0;
  private failedLaunches = 0;
  private closed = false;
  /** Why rendering is off for the rest of the scan (the browser would not start). */
  unavailable: string | undefined;
  /** Restarts after a crash, a memory cap or the page count (for tests and benches). */
  restarts = 0;
  /** The most the browser's processes held together (PSS), as far as it was read. */
  peakMemoryBytes = 0;

  constructor(private readonly config: BrowserPoolConfig) {}

  /**
   * Runs `work` in a tab once a place is free; undefined when there is no browser. A tab that
   * `work` marks not reusable is closed; one that will not close has the browser replaced.
   */
  async use<T>(work: (slot: PageSlot) => Promise<T>): Promise<T | undefined> {
    await this.takePlace();
    let slot: PageSlot | undefined;
    try {
      slot = await this.takeSlot();
      return slot ? await work(slot) : undefined;
    } catch {
      if (slot) slot.reusable = false;
      return undefined;
    } finally {
      if (slot) await this.giveBack(slot);
      await this.leavePlace();
    }
  }

  private async takeSlot(): Promise<PageSlot | undefined> {
    const browser = await this.running();
    if (!browser) return undefined;
    return this.idle.pop() ?? (await PageSlot.open(browser, this.config.userAgent));
  }

  private async giveBack(slot: PageSlot): Promise<void> {
    slot.visit = undefined;
    if (slot.reusable && slot.context.browser()?.isConnected()) {
      this.idle.push(slot);
      return;
    }
    const closed = await Promise.race([
      slot.close().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    if (!closed) this.restartSoon();
  }

  /** Asks for a fresh browser once the pages under way are done (a page hung or misbehaved). */
  restartSoon(): void {
    this.restartWanted = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await this.stopBrowser();
  }

  private async takePlace(): Promise<void> {
    while (this.active >= this.config.size || this.restartWanted) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
  }

  private async leavePlace(): Promise<void> {
    this.active--;
    this.pagesSinceLaunch++;
    if (this.pagesSinceLaunch >= this.config.pagesPerBrowser) this.restartWanted = true;
    else if (this.pagesSinceLaunch % memoryCheckEvery === 0 && this.overMemory())
      this.restartWanted = true;
    if (this.restartWanted && this.active === 0) {
      await this.stopBrowser();
      this.restarts++;
      this.restartWanted = false;
    }
    for (const wake of this.waiting.splice(0)) wake();
  }

  private overMemory(): boolean {
    if (this.browserPid === undefined) return false;
    // (Summed RSS is never below PSS: under the cap by RSS is under it by PSS.)
    if (treeMemoryBytes(this.browserPid, false) <= this.config.memoryCapBytes) return false;
    const bytes = treeMemoryBytes(this.browserPid);
    this.peakMemoryBytes = Math.max(this.peakMemoryBytes, bytes);
    return bytes > this.config.memoryCapBytes;
  }

  /** The browser, started if needed; undefined once it failed to start or the pool closed. */
  private running(): Promise<Browser | undefined> {
    if (this.closed || this.unavailable) return Promise.resolve(undefined);
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.launching ??= this.launch().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launch(): Promise<Browser | undefined> {
    const marker = `--linkaudit-render=${randomUUID()}`;
    try {
      // Loaded by the scans that render only (playwright-core is ~100 ms of module loading).
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: this.config.chromiumPath,
        args: launchArguments(this.config, marker),
        timeout: 30_000,
      });
      browser.on('disconnected', () => {
        if (this.browser !== browser) return;
        this.browser = undefined;
        this.idle = [];
      });
      this.browser = browser;
      this.browserPid = findProcessByMarker(marker);
      this.pagesSinceLaunch = 0;
      this.failedLaunches = 0;
      return browser;
    } catch (error) {
      if (++this.failedLaunches >= launchAttempts) {
        const message = (error as Error).message.split('\n')[0] ?? 'unknown error';
        this.unavailable = renderUnavailable(
          `Chromium (${this.config.chromiumPath}) could not be started: ${message}`,
        );
      }
      return undefined;
    }
  }

  private async stopBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    this.idle = [];
    const pid = this.browserPid;
    this.browserPid = undefined;
    if (!browser) return;
    // A hung browser may not answer close(): past a few seconds its processes are killed.
    const closed = browser.close().catch(() => undefined);
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5_000));
    if ((await Promise.race([closed, timer])) === 'late' && pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // (already gone)
      }
    }
  }
}

/**
 * Chromium's switches: the memory caps, and a proxy that answers nothing, so a request that
 * escaped interception (none should: every request is routed through the scan's guarded client)
 * cannot reach any network, loopback included.
 */
function launchArguments(config: BrowserPoolConfig, marker: string): string[] {
  return [
    marker,
    `--js-flags=--max-old-space-size=${config.rendererHeapMb}`,
    `--renderer-process-limit=${config.size + 1}`,
    '--proxy-server=http://127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
    '--disable-dev-shm-usage',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-domain-reliability',
    '--no-pings',
    '--mute-audio',
    // One renderer process per site, kept from page to page: a navigation from the address bar
    // otherwise starts a fresh process (and keeps the last page in the back/forward cache).
    '--process-per-site',
    '--disable-features=ProactivelySwapBrowsingInstance,BackForwardCache',
  ];
}

import type { Browser, BrowserContext, Page, Route } from 'playwright-core';

/** What a slot's page is doing now: its requests and console errors go here. */
export interface PageVisit {
  handle(route: Route): Promise<void>;
  noteError(text: string): void;
}

/**
 * One tab of the scan's browser, in a browser context of its own, reused page after page (a new
 * context and tab cost a renderer process's start each time: most of a small page's render).
 * Every request it makes is routed to the visit under way; between visits they are refused.
 * WebSockets and service workers are refused outright: they would bypass the routing.
 */
export class PageSlot {
  visit: PageVisit | undefined;
  /** False once a visit left the tab in a state not to reuse (it would not answer). */
  reusable = true;

  /** The tab, opened once the context routes every request. */
  page!: Page;

  private constructor(readonly context: BrowserContext) {}

  static async open(browser: Browser, userAgent: string): Promise<PageSlot> {
    const context = await browser.newContext({
      serviceWorkers: 'block',
      userAgent,
      acceptDownloads: false,
    });
    try {
      const slot = new PageSlot(context);
      await context.routeWebSocket(/.*/, (socket) => socket.close());
      await context.route('**/*', (route) =>
        slot.visit ? slot.visit.handle(route) : route.abort('blockedbyclient').catch(() => {}),
      );
      const page = (slot.page = await context.newPage());
      page.on('console', (message) => {
        if (message.type() === 'error') slot.visit?.noteError(message.text());
      });
      page.on('pageerror', (error) =>
        slot.visit?.noteError(`Uncaught ${error.name}: ${error.message}`),
      );
      return slot;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.visit = undefined;
    await this.context.close().catch(() => undefined);
  }
}

// The work after the crawl on a model of a 100,000-page site (issue 34): each page links its ten
// children, its parent and an image; every 20th page links a missing page (5,000 internal 404s).
// Every phase — suggested fixes, page sizes, page rank, page inclusion — does work in proportion
// to the site (counted, not timed), stops when its time is up and says so, and stops at a cancel.
import { FailureReason } from '@linkaudit/core';
import { describe, expect, it } from 'vitest';
import { SiteAnalysis, type BudgetFor } from './analysis/site-analysis.js';
import type { Target } from './crawl/targets.js';
import { allowAllRobots } from './crawl/robots.js';
import type { LinkCheck, ScanEvent } from './events.js';
import type { HttpClient } from './fetch/http-client.js';
import { PhaseBudget } from './phase-budget.js';
import { SuggestionPass } from './suggestions/suggestion-pass.js';

const origin = 'https://big.test';
const pageCount = 100_000;
const children = 10;
const missingEvery = 20;

interface SiteModel {
  targets: Target[];
  analysis: SiteAnalysis;
  suggestions: SuggestionPass;
  missing: number;
  links: number;
}

const pageUrl = (page: number) => `${origin}/section-${page % 317}/page-${page}.html`;

function target(id: number, url: string, check: LinkCheck, pageId?: number): Target {
  return {
    id,
    url,
    host: 'big.test',
    internal: true,
    depth: 1,
    crawl: pageId !== undefined,
    readAnchors: false,
    resource: pageId === undefined,
    stylesheet: false,
    state: 'settled',
    check,
    pendingHead: -1,
    ...(pageId !== undefined ? { pageId } : {}),
  };
}

/** The site as the crawl leaves it to the phases: targets, pages, the link graph, the events. */
function siteModel(): SiteModel {
  const analysis = new SiteAnalysis({
    pageRank: true,
    pageInclusion: true,
    startUrl: pageUrl(0),
    keyOf: (url) => url,
  });
  const suggestions = new SuggestionPass({
    // No page is fetched in the model: `finish` is told it may not.
    client: undefined as unknown as HttpClient,
    maxFetches: 40,
    verifiesCertificates: true,
    deadlineMs: 10_000,
  });
  const ok = (url: string, contentType: string): LinkCheck => ({
    state: 'ok',
    statusCode: 200,
    finalUrl: url,
    redirects: [],
    contentType,
    size: 2_000,
  });
  const targets: Target[] = [];
  for (let page = 0; page < pageCount; page++)
    targets.push(target(page, pageUrl(page), ok(pageUrl(page), 'text/html'), page));
  const image = targets.push(target(pageCount, `${origin}/logo.png`, ok('', 'image/png'))) - 1;
  let links = 0;
  const link = (page: number, to: number) => {
    analysis.recordInternalLink(page, page, to);
    links++;
  };
  for (let page = 0; page < pageCount; page++) {
    const url = pageUrl(page);
    analysis.recordPage(page, {
      url,
      targetId: page,
      htmlBytes: 5_000,
      contentType: 'text/html',
      statusCode: 200,
      robotsMeta: [],
      xRobotsTag: undefined,
      canonical: undefined,
      resources: [image],
    });
    suggestions.observe(pageEvent(url, page));
    for (let child = page * children + 1; child <= page * children + children; child++)
      if (child < pageCount) link(page, child);
    if (page > 0) link(page, Math.floor((page - 1) / children));
    link(page, image);
    if (page % missingEvery === 0) {
      const gone = `${origin}/section-${page % 317}/gone-${page}.html`;
      const check: LinkCheck = {
        state: 'broken',
        reason: FailureReason.NotFound,
        statusCode: 404,
        message: '404 Not Found',
        redirects: [],
      };
      link(page, targets.push(target(targets.length, gone, check)) - 1);
      suggestions.observe(linkEvent(url, gone, check));
    }
  }
  return { targets, analysis, suggestions, missing: pageCount / missingEvery, links };
}

function pageEvent(url: string, page: number): ScanEvent {
  return {
    type: 'page',
    url,
    finalUrl: url,
    statusCode: 200,
    contentType: 'text/html',
    bytes: 5_000,
    depth: 1,
    title: `Page ${page}`,
    linkCount: 12,
  };
}

function linkEvent(source: string, url: string, check: LinkCheck): ScanEvent {
  return {
    type: 'link',
    source,
    target: url,
    url,
    element: 'a',
    attribute: 'href',
    line: 1,
    column: 1,
    kind: 'page',
    internal: true,
    check,
  };
}

/** Budgets of a scan, kept for the test to read: generous time unless a clock is given. */
function budgets(options: { timeMs?: number; cancel?: AbortSignal; now?: () => number } = {}) {
  const made = new Map<string, PhaseBudget>();
  const budgetFor: BudgetFor = (phase) => {
    const budget = new PhaseBudget(phase, {
      timeMs: options.timeMs ?? 600_000,
      cancel: options.cancel,
      ...(options.now ? { now: options.now } : {}),
    });
    made.set(phase, budget);
    return budget;
  };
  return { made, budgetFor };
}

async function runPhases(model: SiteModel, budgetFor: BudgetFor, onEvent = (_: ScanEvent) => {}) {
  const events: Record<string, number> = {};
  const emit = (event: ScanEvent) => {
    events[event.type] = (events[event.type] ?? 0) + 1;
    onEvent(event);
  };
  await model.suggestions.finish(model.targets, false, emit, budgetFor('suggestions'));
  const summary = await model.analysis.finish(
    model.targets,
    { sitemap: undefined, robots: allowAllRobots },
    emit,
    budgetFor,
  );
  return { events, summary };
}

describe('the phases after the crawl of a 100,000-page site', () => {
  const model = siteModel();
  const sites = model.targets.length + model.links;

  it('each do work in proportion to the site, and finish', async () => {
    const { made, budgetFor } = budgets();
    const { events } = await runPhases(model, budgetFor);
    // Every broken internal link compared with a few candidates, never with every page.
    expect(model.suggestions.pages.scored).toBeGreaterThanOrEqual(model.missing);
    expect(model.suggestions.pages.scored).toBeLessThanOrEqual(model.missing * 20);
    expect(made.get('suggestions')?.steps).toBeLessThanOrEqual(
      model.targets.length + model.missing,
    );
    expect(made.get('page-sizes')?.steps).toBe(pageCount);
    // Page rank: an iteration is one step of O(pages + links); ranks settle in a few dozen.
    expect(made.get('page-rank')?.steps).toBeLessThanOrEqual(pageCount + 200);
    expect(made.get('page-inclusion')?.steps).toBeLessThanOrEqual(sites);
    expect(events).toMatchObject({
      'page-size': pageCount,
      'page-rank': pageCount,
      'page-inclusion': pageCount,
    });
    for (const budget of made.values()) expect(budget.cutShort).toBe(false);
  });

  it('stop when their time is up, with what they have, and say so', async () => {
    // A clock that moves 1 ms each time it is read: each phase's 40 ms run out early on.
    let time = 0;
    const { made, budgetFor } = budgets({ timeMs: 40, now: () => time++ });
    const { events, summary } = await runPhases(model, budgetFor);
    for (const phase of ['suggestions', 'page-sizes', 'page-rank', 'page-inclusion'])
      expect(made.get(phase)?.cutShort, phase).toBe(true);
    expect(events['page-size']).toBeLessThan(pageCount);
    expect(summary.pageSizeBuckets.reduce((sum, count) => sum + count, 0)).toBe(
      events['page-size'],
    );
  });

  it('stop at a cancel, and the phases after it do not start', async () => {
    const cancel = new AbortController();
    // The cancel comes while suggestions are worked out (the 5,000th time the clock is read).
    let reads = 0;
    const now = () => {
      if (++reads === 5_000) cancel.abort();
      return Date.now();
    };
    const { made, budgetFor } = budgets({ cancel: cancel.signal, now });
    const { events } = await runPhases(model, budgetFor);
    expect(made.get('suggestions')?.steps).toBeLessThan(5_000);
    for (const phase of ['page-sizes', 'page-rank', 'page-inclusion'])
      expect(made.get(phase)?.steps, phase).toBe(0);
    expect(events['page-size']).toBeUndefined();
    for (const budget of made.values()) expect(budget.cutShort).toBe(false);
  });
});

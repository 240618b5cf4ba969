/**
 * The V8 flags a crawl's process runs with: the `linkaudit` command (packages/cli/src/main.ts
 * says why) and an isolated scan's process. A young generation and heap growth that keep a
 * crawl's peak near its live data, and allocation-site pretenuring off. Its own module, with no
 * imports, so the command's launcher reads it without loading the engine.
 */
export const crawlNodeFlags: readonly string[] = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=20',
  '--no-allocation-site-pretenuring',
];

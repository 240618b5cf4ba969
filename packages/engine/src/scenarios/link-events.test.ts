// linkEvents 'problems' (what the CLI asks for): every link event of a full scan except those that
// are fine (target OK, #fragment found or not checked), in the same order, with the same summary.
import { ScanDepth } from '@linkaudit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoneEvent, LinkEvent, ScanEvent } from '../index.js';
import {
  cloudflareChallenge,
  collectScan,
  createLookup,
  htmlPage,
  redirect,
  startTestSite,
  type TestSite,
} from '../test-support/index.js';

const lookup = createLookup(['site.test']);
let site: TestSite;

beforeAll(async () => {
  site = await startTestSite(
    {
      '/': htmlPage(
        [
          '<p id="here">here</p>',
          '<a href="/about.html">fine</a> <a href="/about.html#team">fine, fragment found</a>',
          '<a href="/about.html#nobody">fragment missing</a>',
          '<a href="/file.txt#line-2">fragment not verifiable</a>',
          '<a href="#here">on this page</a> <a href="/old">through a redirect</a>',
          '<a href="/missing.html">missing</a> <img src="/logo.png" alt=""> <img src="" alt="">',
          '<a href="/guarded">bot protection</a> <a href="mailto:team@site.test">mail</a>',
          '<a href="http://[bad">invalid</a>',
        ].join('\n'),
      ),
      '/about.html': htmlPage(
        '<h2 id="team">Team</h2> <a href="/">home</a> <a href="/missing.html">missing again</a>',
      ),
      '/file.txt': { headers: { 'content-type': 'text/plain' }, body: 'line 1\nline 2\n' },
      '/old': redirect('/about.html'),
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
      '/guarded': cloudflareChallenge,
    },
    { host: 'site.test' },
  );
});
afterAll(() => site.close());

/** What a consumer that reports problems keeps of a link event. */
function isProblem(link: LinkEvent): boolean {
  return (
    link.check.state !== 'ok' ||
    link.anchor?.state === 'missing' ||
    link.anchor?.state === 'unverifiable'
  );
}

/** Everything but the link events that are fine and the events that depend on timing. */
function comparable(events: readonly ScanEvent[]): ScanEvent[] {
  return events.filter(
    (event) =>
      event.type !== 'progress' &&
      event.type !== 'done' &&
      (event.type !== 'link' || isProblem(event)),
  );
}

function withoutDuration(done: DoneEvent): DoneEvent {
  return { ...done, summary: { ...done.summary, durationMs: 0 } };
}

describe('link events for problems only', () => {
  it('leaves out exactly the links that are fine, and counts them all the same', async () => {
    const settings = {
      url: site.url('/'),
      scanDepth: ScanDepth.Domain,
      checkAnchors: true,
      maxThreadCount: 1,
    };
    const all = await collectScan(settings, { lookup });
    const problems = await collectScan(settings, { lookup, linkEvents: 'problems' });

    expect(comparable(problems.events)).toEqual(comparable(all.events));
    expect(problems.links.length).toBeLessThan(all.links.length);
    expect(problems.links.map((link) => link.target).sort()).toEqual([
      '',
      'http://[bad',
      site.url('/about.html#nobody'),
      site.url('/file.txt#line-2'),
      site.url('/guarded'),
      site.url('/missing.html'),
      site.url('/missing.html'),
      'mailto:team@site.test',
    ]);
    expect(withoutDuration(problems.done)).toEqual(withoutDuration(all.done));
    expect(problems.done.summary.totalLinks).toBe(all.links.length);
  });
});

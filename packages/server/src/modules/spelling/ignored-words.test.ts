import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanStatus, siteWordsMessages } from '@linkaudit/core';
import {
  fastEngineOptions,
  htmlPage,
  startTestSite,
  type TestSite,
} from '@linkaudit/engine/test-support';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { sendDelete, signUp, waitForScan } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { runPlanCommand } from '../accounts/plan-command.js';

/**
 * Words to ignore (issue 25) end to end: a scan's own list (the form's field) and a schedule's
 * reach the speller; "ignore this word" on a report row adds the word to the owner's list of the
 * site, and the rerun and the schedule's next run of that site no longer report it.
 */
describe.each(testDialects())('words to ignore for spelling (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let site: TestSite;
  let owner: { email: string; token: string };
  let stranger: { email: string; token: string };
  let firstScan: string;

  // Two slips of one edit each ("recieve", "seperate"), each on one page: both reported by 2001.
  const pages = {
    '/': htmlPage('<p>We recieve letters every day.</p><a href="/box">box</a>'),
    '/box': htmlPage('<p>Put them in the seperate box.</p>'),
  };

  beforeAll(async () => {
    site = await startTestSite(pages);
    server = await startTestServer(
      dialect,
      { LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1' },
      fastEngineOptions,
    );
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'speller');
    stranger = await signUp(api, 'stranger');
    await runPlanCommand(server.database.db, ['set', owner.email, 'premium']);
    firstScan = await scanned({ url: site.url('/'), scanDepth: 3, selectedRules: [2001] });
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await site.close();
  });

  async function scanned(scanSettings: Record<string, unknown>): Promise<string> {
    const created = await api.post('/api/ScanApi/', { scanSettings }, owner.token);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    await waitForScan(api, owner.token, id, (scan) => scan.status === ScanStatus.Complete, 50_000);
    return id;
  }

  async function unknownWords(scanId: string): Promise<string[]> {
    const answer = await api.get(`/api/report/ruleResult/${scanId}?pageSize=100`, owner.token);
    expect(answer.status).toBe(200);
    const rows = (answer.body as { lists: Array<{ message: string | null }> }).lists;
    return rows.map((row) => row.message ?? '').sort();
  }

  async function settingsOf(scanId: string): Promise<{ spellingIgnore?: string[] }> {
    const list = await api.get('/api/ScanApi/Get', owner.token);
    const scan = (
      list.body as Array<{ id: string; scanSettings: { spellingIgnore?: string[] } }>
    ).find((item) => item.id === scanId);
    return scan?.scanSettings ?? {};
  }

  const wordsPath = () => `/api/report/ignoredWords/${firstScan}`;

  it('reports both slips when nothing is ignored, and a scan’s own list is obeyed', async () => {
    expect(await unknownWords(firstScan)).toEqual([
      'Unknown word "recieve"',
      'Unknown word "seperate"',
    ]);
    const own = await scanned({
      url: site.url('/'),
      scanDepth: 3,
      selectedRules: [2001],
      spellingIgnore: ['Seperate'],
    });
    expect(await unknownWords(own)).toEqual(['Unknown word "recieve"']);
    expect((await settingsOf(own)).spellingIgnore).toEqual(['Seperate']);
  });

  it('keeps the site’s list to the scan’s owner and checks the word', async () => {
    expect((await api.get(wordsPath(), owner.token)).body).toEqual({
      site: site.url('/'),
      words: [],
    });
    expect((await api.get(wordsPath())).status).toBe(401);
    expect((await api.get(wordsPath(), stranger.token)).status).toBe(404);
    expect((await api.post(wordsPath(), { word: 'recieve' }, stranger.token)).status).toBe(404);
    for (const word of ['two words', '', 'x'.repeat(101), '<b>']) {
      const refused = await api.post(wordsPath(), { word }, owner.token);
      expect(refused.status, word).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(siteWordsMessages.notAWord);
    }
    expect((await api.post(wordsPath(), {}, owner.token)).status).toBe(400);
  });

  it('"ignore this word": the rerun and a schedule’s run of the site no longer report it', async () => {
    const added = await api.post(wordsPath(), { word: 'Recieve' }, owner.token);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toEqual({ site: site.url('/'), words: ['recieve'] });
    // Twice is once.
    expect((await api.post(wordsPath(), { word: 'recieve' }, owner.token)).body).toEqual({
      site: site.url('/'),
      words: ['recieve'],
    });

    // The report's Rerun sends the scan's settings again.
    const summary = await api.get(`/api/report/summary/${firstScan}`, owner.token);
    const settings = JSON.parse(String(summary.body.scanSettingsJson)) as Record<string, unknown>;
    const rerun = await scanned(settings);
    expect(await unknownWords(rerun)).toEqual(['Unknown word "seperate"']);
    expect((await settingsOf(rerun)).spellingIgnore).toEqual(['recieve']);

    // A schedule keeps its own words; its run takes the site's too.
    const scheduled = await api.post(
      '/api/ScanApi/ScheduleScan',
      {
        scanSettings: { ...settings, spellingIgnore: ['seperate'] },
        scheduleSettings: { frequency: 1, dailyHour: '09:00', userTimeZoneOffset: 0 },
      },
      owner.token,
    );
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const scheduleId = String(scheduled.body.id);
    const listed = await api.get('/api/ScanApi/ScheduleScan', owner.token);
    const schedule = (
      listed.body as Array<{ id: string; scanSettings: { spellingIgnore?: string[] } }>
    ).find((item) => item.id === scheduleId);
    expect(schedule?.scanSettings.spellingIgnore).toEqual(['seperate']);
    const run = await api.post(`/api/ScanApi/ScheduledRuns/${scheduleId}`, {}, owner.token);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const runId = String(run.body.id);
    await waitForScan(
      api,
      owner.token,
      runId,
      (scan) => scan.status === ScanStatus.Complete,
      50_000,
    );
    expect(await unknownWords(runId)).toEqual([]);
    expect((await settingsOf(runId)).spellingIgnore).toEqual(['seperate', 'recieve']);
  }, 120_000);

  it('undoes an ignore: the word is reported again from the next scan on', async () => {
    const removed = await sendDelete(server.baseUrl, `${wordsPath()}?word=recieve`, owner.token);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ site: site.url('/'), words: [] });
    const again = await scanned({ url: site.url('/'), scanDepth: 3, selectedRules: [2001] });
    expect(await unknownWords(again)).toEqual([
      'Unknown word "recieve"',
      'Unknown word "seperate"',
    ]);
  }, 60_000);
});

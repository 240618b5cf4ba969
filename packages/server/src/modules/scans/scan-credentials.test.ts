// Scan credentials at rest (issue 36): sealed with AES-256-GCM, never in any answer (the owner's
// list, the operators' list, the audit log), shown as set / not set, kept, replaced or cleared
// by an edit, and opened again for the scan, on SQLite and PostgreSQL.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { signUp, userIdOf } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';
import { credentialsSealedKey } from '../../db/server-meta-keys.js';
import { sealClearCredentials } from './credential-sealing.js';
import { openedSettings, keepingStoredValues } from './scan-credentials.js';
import { parseSecretsKey, SecretBox } from './secret-box.js';
import { insertFinishedScan } from '../../test-support/scan-rows.js';

const password = 'hunter2-windows';
const formSecret = 'form-secret-value';

describe.each(testDialects())('scan credentials kept secret (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let box: SecretBox;
  let owner: { email: string; token: string };
  let boss: { email: string; token: string };

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      LINKAUDIT_ALLOWED_HOSTS: '127.0.0.1',
      WORKER_CONCURRENCY: '0',
      ADMIN_EMAILS: `boss-${dialect}@example.com`,
    });
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'credentials');
    boss = await signUp(api, 'boss', `boss-${dialect}@example.com`);
    // The key the server generated into DATA_DIR (no SCAN_SECRETS_KEY given).
    const key = parseSecretsKey(
      readFileSync(path.join(server.dataDir, 'scan-secrets-key'), 'utf8'),
    );
    box = new SecretBox(key!);
  });
  afterAll(() => server.stop());

  async function storedSettings(scanId: string): Promise<string> {
    const row = await server.database.db
      .selectFrom('scans')
      .select('settings_json')
      .where('id', '=', scanId)
      .executeTakeFirstOrThrow();
    return row.settings_json;
  }

  const credentials = {
    windowsAuthenticationInfo: { userName: 'ada', password, domain: 'lab' },
    formAuthenticationInfo: [
      { loginUrl: 'http://127.0.0.1/login', fieldName: 'pin', fieldValue: formSecret },
      { loginUrl: 'http://127.0.0.1/login', fieldName: 'remember' },
    ],
  };

  it('stores them sealed, answers set / not set, and opens them for the scan', async () => {
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: 'http://127.0.0.1:9/', ...credentials } },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const scanId = String(created.body.id);
    const shown = {
      windowsAuthenticationInfo: { userName: 'ada', domain: 'lab', passwordSet: true },
      formAuthenticationInfo: [
        { loginUrl: 'http://127.0.0.1/login', fieldName: 'pin', fieldValueSet: true },
        { loginUrl: 'http://127.0.0.1/login', fieldName: 'remember', fieldValueSet: false },
      ],
    };
    expect(created.body.scanSettings).toMatchObject(shown);

    const answers = [
      JSON.stringify(created.body),
      JSON.stringify((await api.get('/api/ScanApi/Get', owner.token)).body),
      JSON.stringify((await api.get('/api/admin/scans', boss.token)).body),
    ];
    for (const text of answers) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(formSecret);
      expect(text).not.toContain('sealedCredentials');
    }
    const listed = (await api.get('/api/ScanApi/Get', owner.token)).body as Array<{
      id: string;
      scanSettings: unknown;
    }>;
    expect(listed.find((scan) => scan.id === scanId)?.scanSettings).toMatchObject(shown);

    const stored = await storedSettings(scanId);
    expect(stored).not.toContain(password);
    expect(stored).not.toContain(formSecret);
    // What the worker hands the engine: the values in clear again.
    expect(openedSettings(box, stored)).toMatchObject({
      windowsAuthenticationInfo: { userName: 'ada', domain: 'lab', password },
      formAuthenticationInfo: [
        { fieldName: 'pin', fieldValue: formSecret },
        { fieldName: 'remember' },
      ],
    });
    // Another key cannot open them.
    expect(() => openedSettings(new SecretBox(Buffer.alloc(32, 7)), stored)).toThrow();
  });

  it('keeps, replaces and clears them on an operator’s edit, and never shows them to operators', async () => {
    const created = await api.post(
      '/api/ScanApi/',
      { scanSettings: { url: 'http://127.0.0.1:9/', ...credentials } },
      owner.token,
    );
    const scanId = String(created.body.id);
    const edit = async (scanSettings: unknown) => {
      const answer = await api.send(
        'PUT',
        '/api/admin/Requeue/',
        { id: scanId, scanSettings },
        boss.token,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(password);
      return openedSettings(box, await storedSettings(scanId));
    };
    // As shown (set, no value): kept.
    const kept = await edit(created.body.scanSettings);
    expect(kept).toMatchObject({
      windowsAuthenticationInfo: { password },
      formAuthenticationInfo: [{ fieldValue: formSecret }, {}],
    });
    // A new value replaces it.
    const replaced = await edit({
      ...created.body.scanSettings,
      windowsAuthenticationInfo: { userName: 'ada', password: 'new-password' },
    });
    expect(replaced).toMatchObject({ windowsAuthenticationInfo: { password: 'new-password' } });
    // Empty clears it, and so does "not set".
    const cleared = await edit({
      ...created.body.scanSettings,
      windowsAuthenticationInfo: { userName: 'ada', password: '' },
      formAuthenticationInfo: [
        { loginUrl: 'http://127.0.0.1/login', fieldName: 'pin', fieldValueSet: false },
      ],
    });
    expect(cleared).toMatchObject({ windowsAuthenticationInfo: { userName: 'ada' } });
    expect(JSON.stringify(cleared)).not.toContain('new-password');
    expect(JSON.stringify(cleared)).not.toContain(formSecret);
    const audit = JSON.stringify((await api.get('/api/admin/audit', boss.token)).body);
    expect(audit).not.toContain(password);
    expect(audit).not.toContain('new-password');
  });

  it('seals values an older row kept in clear, once, and never shows them meanwhile', async () => {
    const { db } = server.database;
    const scanId = `legacy-${dialect}`;
    await insertFinishedScan(db, {
      id: scanId,
      userId: await userIdOf(db, owner.email),
      url: 'https://example.com/',
      sourceScheduleId: null,
      completedAt: new Date('2026-11-20T10:00:00Z'),
      uniqueLinks: 0,
    });
    const clear = JSON.stringify({ url: 'https://example.com/', ...credentials });
    await db.updateTable('scans').set({ settings_json: clear }).where('id', '=', scanId).execute();
    const before = (await api.get('/api/ScanApi/Get', owner.token)).body as Array<{ id: string }>;
    const legacy = before.find((scan) => scan.id === scanId);
    expect(legacy).toMatchObject({
      scanSettings: { windowsAuthenticationInfo: { passwordSet: true } },
    });
    expect(JSON.stringify(legacy)).not.toContain(password);

    await db.deleteFrom('server_meta').where('key', '=', credentialsSealedKey).execute();
    await sealClearCredentials(db, box);
    const sealed = await storedSettings(scanId);
    expect(sealed).not.toContain(password);
    expect(sealed).not.toContain(formSecret);
    expect(openedSettings(box, sealed)).toMatchObject({
      windowsAuthenticationInfo: { password },
      formAuthenticationInfo: [{ fieldValue: formSecret }, {}],
    });
  });
});

describe('keepingStoredValues', () => {
  it('keeps a form value only for the entry with the same login URL and field name', () => {
    const current = {
      formAuthenticationInfo: [{ loginUrl: 'a', fieldName: 'x', fieldValue: 'secret' }],
      windowsAuthenticationInfo: null,
    };
    const edited = keepingStoredValues(
      {
        formAuthenticationInfo: [
          { loginUrl: 'a', fieldName: 'y', fieldValueSet: true },
          { loginUrl: 'a', fieldName: 'x', fieldValueSet: true },
        ],
      },
      current as never,
    );
    expect(edited.formAuthenticationInfo).toEqual([
      { loginUrl: 'a', fieldName: 'y', fieldValueSet: true, fieldValue: undefined },
      { loginUrl: 'a', fieldName: 'x', fieldValueSet: true, fieldValue: 'secret' },
    ]);
  });
});

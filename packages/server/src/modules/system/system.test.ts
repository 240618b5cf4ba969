import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthcheckSchema, serverVersionSchema } from '@linkaudit/core';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

describe.each(testDialects())('system routes over HTTP (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('GET /api/ServerVersion answers the version and the build time', async () => {
    const response = await fetch(`${server.baseUrl}/api/ServerVersion`);
    expect(response.status).toBe(200);
    const body = serverVersionSchema.parse(await response.json());
    expect(body).toEqual({
      version: '1.0test1234',
      assembledTime: '2026-11-21T05:00:00.000Z',
      privateTargets: false,
    });
  });

  it('tells the web app when the operator allows private targets', async () => {
    const environments: Array<Record<string, string>> = [
      { LINKAUDIT_ALLOW_PRIVATE: '1' },
      { LINKAUDIT_ALLOWED_HOSTS: 'intranet' },
    ];
    for (const environment of environments) {
      const open = await startTestServer(dialect, environment);
      const body = serverVersionSchema.parse(
        await (await fetch(`${open.baseUrl}/api/ServerVersion`)).json(),
      );
      expect(body.privateTargets).toBe(true);
      await open.stop();
    }
  });

  it('tells the web app when its scans cannot render pages (no Chromium)', async () => {
    const noBrowser = await startTestServer(dialect, { CHROMIUM_PATH: '/nonexistent/chromium' });
    const body = serverVersionSchema.parse(
      await (await fetch(`${noBrowser.baseUrl}/api/ServerVersion`)).json(),
    );
    await noBrowser.stop();
    expect(body.renderingUnavailable).toBe(
      "Pages were not rendered: /nonexistent/chromium is not an executable file. The rest of the scan read the pages' HTML as usual.",
    );
  });

  it('GET /healthcheck reports the database as reachable', async () => {
    const response = await fetch(`${server.baseUrl}/healthcheck`);
    expect(response.status).toBe(200);
    const body = healthcheckSchema.parse(await response.json());
    expect(body.status).toBe('ok');
    expect(body.version).toBe('1.0test1234');
    expect(body.database).toEqual({ reachable: true, dialect });
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('GET /healthcheck answers 503 when the database is gone', async () => {
    const broken = await startTestServer(dialect);
    await broken.database.db.destroy();
    const response = await fetch(`${broken.baseUrl}/healthcheck`);
    expect(response.status).toBe(503);
    const body = healthcheckSchema.parse(await response.json());
    expect(body.status).toBe('degraded');
    expect(body.database.reachable).toBe(false);
    await broken.app.close();
  });

  it('unknown API paths answer 404 in the error shape, not the web app', async () => {
    const response = await fetch(`${server.baseUrl}/api/NoSuchThing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not found.' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test-support/api-client.js';
import { biScanRows, insertBiScan, type BiScanRows } from '../../test-support/bi-scan-rows.js';
import { sendDelete, signUp, userIdOf } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

const LINKS = 2500;

/** A link as the feed must answer it, joined from the rows the test wrote. */
function expectedLinks(rows: BiScanRows) {
  return rows.links.map((link) => {
    const target = rows.targets[link.target_id]!;
    return {
      id: link.id,
      sourceUri: rows.pages[link.page_id]!.url,
      targetUri: target.url,
      state: target.state,
      statusCode: target.status_code,
      failureReason: target.reason,
      internal: target.internal,
      element: link.element,
      line: link.line,
      anchorState: link.anchor_state,
    };
  });
}

function basic(token: string, user = 'me@example.com'): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}` };
}

describe.each(testDialects())('Power BI export and OData feed (%s)', (dialect) => {
  let server: TestServer;
  let api: ApiClient;
  let owner: { email: string; token: string };
  let other: { email: string; token: string };
  let rows: BiScanRows;
  let scanId: string;
  let otherScanId: string;
  let pat: string;
  let root: string;

  /** Every page of a feed request, following @odata.nextLink; answers the entities and pages. */
  async function readAll(path: string, headers: Record<string, string> = basic(pat)) {
    const entities: Array<Record<string, unknown>> = [];
    let next: string | undefined = `${root}${path}`;
    let pages = 0;
    while (next) {
      const response = await fetch(next, { headers });
      expect(response.status, await response.clone().text()).toBe(200);
      const body = (await response.json()) as {
        value: Array<Record<string, unknown>>;
        '@odata.nextLink'?: string;
      };
      entities.push(...body.value);
      next = body['@odata.nextLink'];
      pages += 1;
      expect(pages).toBeLessThan(100);
    }
    return { entities, pages };
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    api = apiClient(server.baseUrl);
    owner = await signUp(api, 'bi-owner');
    other = await signUp(api, 'bi-other');
    rows = biScanRows(LINKS);
    scanId = await insertBiScan(
      server.database.db,
      await userIdOf(server.database.db, owner.email),
      rows,
    );
    otherScanId = await insertBiScan(
      server.database.db,
      await userIdOf(server.database.db, other.email),
      biScanRows(10, 2, 5),
    );
    const created = await api.post('/api/bi/tokens', { name: 'Power BI desktop' }, owner.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    pat = created.body.token as string;
    root = `${server.baseUrl}/PowerBi/odata/${scanId}/`;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('creates a token shown once, lists it without its secret, and refuses a bad name', async () => {
    expect(pat).toMatch(/^labi_[A-Za-z0-9_-]{43}$/);
    const list = await api.get('/api/bi/tokens', owner.token);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ name: 'Power BI desktop', prefix: pat.slice(0, 11) });
    expect(JSON.stringify(list.body)).not.toContain(pat);
    const stored = await server.database.db
      .selectFrom('bi_access_tokens')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(pat.slice(11));
    const empty = await api.post('/api/bi/tokens', { name: '   ' }, owner.token);
    expect(empty.status).toBe(400);
    expect(empty.body.modelState.name).toEqual(['This field is required']);
    expect((await api.get('/api/bi/tokens')).status).toBe(401);
    expect((await api.get('/api/bi/tokens', other.token)).body).toEqual([]);
  });

  it('answers the service document and CSDL metadata with OData headers', async () => {
    const service = await fetch(root, { headers: basic(pat) });
    expect(service.status).toBe(200);
    expect(service.headers.get('odata-version')).toBe('4.0');
    expect(service.headers.get('content-type')).toContain(
      'application/json;odata.metadata=minimal',
    );
    const document = (await service.json()) as { '@odata.context': string; value: unknown[] };
    expect(document['@odata.context']).toBe(`${root}$metadata`);
    expect(document.value).toEqual(
      ['Links', 'Pages', 'Rules', 'FileTypes'].map((name) => ({
        name,
        kind: 'EntitySet',
        url: name,
      })),
    );
    const metadata = await fetch(`${root}$metadata`, { headers: basic(pat) });
    expect(metadata.headers.get('content-type')).toContain('application/xml');
    const xml = await metadata.text();
    expect(xml).toContain('<EntitySet Name="Links" EntityType="LinkAudit.Link"/>');
    expect(xml).toContain('<Property Name="targetUri" Type="Edm.String" Nullable="false"/>');
    expect(xml).toContain('<Key><PropertyRef Name="id"/></Key>');
  });

  it('opens the feed with Basic (any user name) or Bearer, never with a sign-in token', async () => {
    expect((await fetch(root, { headers: basic(pat, 'anyone') })).status).toBe(200);
    expect((await fetch(root, { headers: { authorization: `Bearer ${pat}` } })).status).toBe(200);
    for (const headers of [{}, { authorization: `Bearer ${owner.token}` }, basic('labi_wrong')]) {
      const refused = await fetch(root, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('Basic realm="LinkAudit"');
      expect(refused.headers.get('odata-version')).toBe('4.0');
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('Unauthorized');
    }
    // The owner's token opens only the owner's scans.
    const foreign = await fetch(`${server.baseUrl}/PowerBi/odata/${otherScanId}/Links`, {
      headers: basic(pat),
    });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('NotFound');
  });

  it('pages every link once, in key order, with server-driven next links', async () => {
    const first = await fetch(`${root}Links?$count=true`, { headers: basic(pat) });
    const body = (await first.json()) as {
      '@odata.context': string;
      '@odata.count': number;
      value: unknown[];
      '@odata.nextLink': string;
    };
    expect(body['@odata.context']).toBe(`${root}$metadata#Links`);
    expect(body['@odata.count']).toBe(LINKS);
    expect(body.value).toHaveLength(1000);
    expect(body['@odata.nextLink']).toContain(`${root}Links?`);
    const { entities, pages } = await readAll('Links');
    expect(pages).toBe(Math.ceil(LINKS / 1000));
    expect(entities.map((entity) => entity.id)).toEqual(rows.links.map((link) => link.id));
    const expected = expectedLinks(rows);
    expect(entities[26]).toMatchObject({
      ...expected[26],
      statusDetail: 'Anchor #section not found',
    });
    expect(entities[3]).toMatchObject(expected[3]!);
    // $skip and $top hold across pages read in key order (each page starts after the last key).
    const window = await readAll('Links?$skip=7&$top=1994');
    expect(window.pages).toBe(2);
    expect(window.entities.map((entity) => entity.id)).toEqual(
      rows.links.slice(7, 2001).map((link) => link.id),
    );
    const deep = await readAll(`Links?$filter=${encodeURIComponent('line gt 100')}&$skip=3`);
    expect(deep.entities.map((entity) => entity.id)).toEqual(
      rows.links
        .filter((link) => link.line > 100)
        .slice(3)
        .map((link) => link.id),
    );
    // A client's page size preference is honoured and said so.
    const small = await fetch(`${root}Pages`, {
      headers: { ...basic(pat), prefer: 'odata.maxpagesize=20' },
    });
    expect(small.headers.get('preference-applied')).toBe('odata.maxpagesize=20');
    expect(((await small.json()) as { value: unknown[] }).value).toHaveLength(20);
    const pagesRead = await readAll('Pages', { ...basic(pat), prefer: 'odata.maxpagesize=20' });
    expect(pagesRead.pages).toBe(Math.ceil(rows.pages.length / 20));
    expect(pagesRead.entities.map((page) => page.uri)).toEqual(rows.pages.map((page) => page.url));
  });

  it('filters with comparisons, and/or/not, null, in and the string functions', async () => {
    const links = expectedLinks(rows);
    const cases: Array<[string, (link: (typeof links)[number]) => boolean]> = [
      [
        "state eq 'broken' and statusCode eq 404",
        (l) => l.state === 'broken' && l.statusCode === 404,
      ],
      ["contains(targetUri,'o''brien')", (l) => l.targetUri.includes("o'brien")],
      [
        "startswith(targetUri,'https://other.test') or failureReason eq 'Time Out'",
        (l) => l.targetUri.startsWith('https://other.test') || l.failureReason === 'Time Out',
      ],
      ["endswith(sourceUri,'0007')", (l) => l.sourceUri.endsWith('0007')],
      ['line ge 100 and line lt 120', (l) => l.line >= 100 && l.line < 120],
      [
        '100 gt line and (line le 3 or line eq 250)',
        (l) => l.line < 100 && (l.line <= 3 || l.line === 250),
      ],
      ['statusCode eq null', (l) => l.statusCode === null],
      ["failureReason ne 'Not Found'", (l) => l.failureReason !== 'Not Found'],
      ["not (element eq 'a') and internal eq true", (l) => l.element !== 'a' && l.internal],
      ["anchorState eq 'missing'", (l) => l.anchorState === 'missing'],
      ["failureReason in ('Not Found', 'Time Out')", (l) => l.failureReason !== null],
      ["contains(targetUri,'TARGET')", () => false],
    ];
    for (const [filter, keep] of cases) {
      const { entities } = await readAll(`Links?$filter=${encodeURIComponent(filter)}&$select=id`);
      const wanted = links.filter(keep).map((link) => link.id);
      expect(
        entities.map((entity) => entity.id),
        filter,
      ).toEqual(wanted);
      const count = await fetch(`${root}Links/$count?$filter=${encodeURIComponent(filter)}`, {
        headers: basic(pat),
      });
      expect(await count.text(), filter).toBe(String(wanted.length));
    }
  });

  it('selects, orders, skips and tops across pages', async () => {
    const links = expectedLinks(rows);
    const { entities } = await readAll(
      'Links?$select=targetUri,line&$orderby=line desc,targetUri&$skip=10&$top=1500',
    );
    const sorted = [...links].sort(
      (a, b) =>
        b.line - a.line ||
        (a.targetUri < b.targetUri ? -1 : a.targetUri > b.targetUri ? 1 : 0) ||
        a.id - b.id,
    );
    expect(entities).toEqual(
      sorted.slice(10, 1510).map((link) => ({ targetUri: link.targetUri, line: link.line })),
    );
    const selected = await fetch(`${root}Links?$select=line&$top=1`, { headers: basic(pat) });
    expect(((await selected.json()) as { '@odata.context': string })['@odata.context']).toBe(
      `${root}$metadata#Links(line)`,
    );
    const types = await readAll('FileTypes?$orderby=contentType');
    const ok = rows.targets.filter((target) => target.state === 'ok');
    expect(types.entities).toEqual(
      ['image/png', 'text/html'].map((contentType) => {
        const of = ok.filter((target) => target.content_type === contentType);
        return {
          contentType,
          count: of.length,
          totalSize: of.reduce((sum, target) => sum + (target.size ?? 0), 0),
        };
      }),
    );
    const rules = await readAll("Rules?$filter=category eq 'SEO'&$select=ruleId,uri");
    expect(rules.entities).toHaveLength(rows.rules.filter((rule) => rule.category_id === 4).length);
    expect(new Set(rules.entities.map((rule) => rule.ruleId))).toEqual(new Set(['title-length']));
  });

  it('refuses unknown fields, bad syntax and unsupported options with OData errors', async () => {
    const refusals: Array<[string, number, string]> = [
      ["Links?$filter=password eq 'x'", 400, "Could not find a property named 'password'"],
      ['Links?$filter=line eq', 400, 'Expected a value'],
      ["Links?$filter=line eq 'ten'", 400, 'Edm.Int32'],
      ["Links?$filter=substringof('a',targetUri)", 400, "function 'substringof'"],
      ['Links?$orderby=secret', 400, "property named 'secret'"],
      ['Links?$select=id,nope', 400, "property named 'nope'"],
      ['Links?$top=-1', 400, '$top'],
      ['Links?$expand=Pages', 501, '$expand'],
      ['Secrets', 404, "No resource 'Secrets'"],
    ];
    for (const [path, status, text] of refusals) {
      const response = await fetch(`${root}${path}`, { headers: basic(pat) });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('odata-version')).toBe('4.0');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.message, path).toContain(text);
    }
    // A value is only ever a bound parameter: text that looks like SQL matches nothing.
    const injected = await readAll(
      `Links?$filter=${encodeURIComponent("targetUri eq 'x'' or 1=1 --'")}`,
    );
    expect(injected.entities).toEqual([]);
    const count = await fetch(`${root}Links/$count`, { headers: basic(pat) });
    expect(await count.text()).toBe(String(LINKS));
  });

  it('downloads the .pbids file for the owner and refuses everyone else', async () => {
    const download = await fetch(`${server.baseUrl}/PowerBi/ExportScan/${scanId}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="linkaudit-site\.test-[0-9a-f]{8}\.pbids"$/,
    );
    expect(await download.json()).toEqual({
      version: '0.1',
      connections: [
        { details: { protocol: 'odata', address: { url: root } }, options: {}, mode: null },
      ],
    });
    const withToken = await fetch(`${server.baseUrl}/PowerBi/ExportScan/${scanId}`, {
      headers: basic(pat),
    });
    expect(withToken.status).toBe(200);
    expect((await fetch(`${server.baseUrl}/PowerBi/ExportScan/${scanId}`)).status).toBe(401);
    const foreign = await api.get(`/PowerBi/ExportScan/${scanId}`, other.token);
    expect(foreign.status).toBe(404);
    const info = await api.get(`/api/bi/export/${scanId}`, owner.token);
    expect(info.body).toMatchObject({ feedUrl: root, url: 'https://site.test/' });
  });

  it('revokes a token: the feed refuses it at once', async () => {
    const second = await api.post('/api/bi/tokens', { name: 'Excel' }, owner.token);
    const secret = second.body.token as string;
    expect((await fetch(root, { headers: basic(secret) })).status).toBe(200);
    const used = (await api.get('/api/bi/tokens', owner.token)).body as Array<{
      id: string;
      lastUsedAt: string | null;
    }>;
    expect(used.find((token) => token.id === second.body.id)?.lastUsedAt).not.toBeNull();
    // Another user cannot revoke it.
    expect(
      (await sendDelete(server.baseUrl, `/api/bi/tokens/${second.body.id}`, other.token)).status,
    ).toBe(404);
    expect(
      (await sendDelete(server.baseUrl, `/api/bi/tokens/${second.body.id}`, owner.token)).status,
    ).toBe(204);
    expect((await fetch(root, { headers: basic(secret) })).status).toBe(401);
    expect((await fetch(root, { headers: basic(pat) })).status).toBe(200);
  });
});

import { OData } from '@odata/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test-support/api-client.js';
import { biScanRows, insertBiScan, type BiScanRows } from '../../test-support/bi-scan-rows.js';
import { signUp, userIdOf } from '../../test-support/scan-helpers.js';
import { startTestServer, testDialects, type TestServer } from '../../test-support/test-server.js';

/**
 * The feed read by a third-party OData v4 client library (@odata/client), as Excel or Power BI
 * would read it: Basic credentials, the client's own filter builder and query options, and
 * server-driven paging followed through @odata.nextLink.
 */

interface LinkEntity {
  id: number;
  targetUri: string;
  state: string;
  statusCode: number | null;
  line: number;
}

describe.each(testDialects())('an OData client library reads the feed (%s)', (dialect) => {
  let server: TestServer;
  let rows: BiScanRows;
  let client: ReturnType<typeof OData.New4>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const api = apiClient(server.baseUrl);
    const owner = await signUp(api, 'odata-client');
    rows = biScanRows(2300);
    const scanId = await insertBiScan(
      server.database.db,
      await userIdOf(server.database.db, owner.email),
      rows,
    );
    const created = await api.post('/api/bi/tokens', { name: 'odata client' }, owner.token);
    client = OData.New4({
      serviceEndpoint: `${server.baseUrl}/PowerBi/odata/${scanId}/`,
      credential: { username: owner.email, password: created.body.token as string },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Every page of a query: the client's request, then each next link's skip token. */
  async function readPages(options: ReturnType<typeof OData.newOptions>) {
    const entities: LinkEntity[] = [];
    let pages = 0;
    let skipToken: string | null = null;
    do {
      const request = skipToken === null ? options : options.custom('$skiptoken', skipToken);
      const page = (await client.newRequest<LinkEntity>({
        collection: 'Links',
        params: request,
      })) as { value?: LinkEntity[]; '@odata.nextLink'?: string; error?: unknown };
      expect(page.error).toBeUndefined();
      entities.push(...(page.value ?? []));
      pages += 1;
      const next = page['@odata.nextLink'];
      skipToken = next ? new URL(next).searchParams.get('$skiptoken') : null;
    } while (skipToken !== null && pages < 50);
    return { entities, pages };
  }

  it('pages through every link with the default page size', async () => {
    const { entities, pages } = await readPages(OData.newOptions().select(['id', 'line']));
    expect(pages).toBe(3);
    expect(entities.map((entity) => entity.id)).toEqual(rows.links.map((link) => link.id));
    expect(entities[5]).toEqual({ id: 5, line: rows.links[5]!.line });
  });

  it("filters with the client's filter builder and counts with its $count", async () => {
    const broken = rows.links.filter(
      (link) => rows.targets[link.target_id]!.status_code === 404 && link.line > 20,
    );
    const filter = OData.newFilter().field('statusCode').eq(404).field('line').gt(20);
    const { entities } = await readPages(
      OData.newOptions().filter(filter).select(['id', 'statusCode', 'line']).orderby('id', 'asc'),
    );
    expect(entities.map((entity) => entity.id)).toEqual(broken.map((link) => link.id));
    expect(entities.every((entity) => entity.statusCode === 404)).toBe(true);
    const links = client.getEntitySet<LinkEntity>('Links');
    expect(await links.count(filter)).toBe(broken.length);
  });

  it('reads top and skip, string functions and pages through the entity set API', async () => {
    const external = rows.links.filter((link) =>
      rows.targets[link.target_id]!.url.startsWith('https://other.test'),
    );
    const page = await client
      .getEntitySet<LinkEntity>('Links')
      .query(
        OData.newOptions()
          .filter("startswith(targetUri,'https://other.test')")
          .orderby('line', 'desc')
          .skip(5)
          .top(40),
      );
    const expected = [...external]
      .sort((a, b) => b.line - a.line || a.id - b.id)
      .slice(5, 45)
      .map((link) => link.id);
    expect(page.map((entity) => entity.id)).toEqual(expected);
    const pagesSet = await client
      .getEntitySet<{ uri: string }>('Pages')
      .query(OData.newOptions().top(3));
    expect(pagesSet.map((item) => item.uri)).toEqual(rows.pages.slice(0, 3).map((p) => p.url));
  });
});

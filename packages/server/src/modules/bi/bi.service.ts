import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  biAccessTokenPrefix,
  biEntitySets,
  biFeedMaxPageSize,
  biFeedPageSize,
  biFeedQuerySchema,
  biMessages,
  biUnsupportedQueryOptions,
  maxBiAccessTokens,
  type BiAccessToken,
  type BiEntitySet,
  type BiExport,
  type CreateBiAccessToken,
  type CreatedBiAccessToken,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { toDate, toOptionalDate } from '../../db/values.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError } from '../../plugins/error-handler.js';
import type { SampleReportService } from '../sample-report/sample-report.service.js';
import type { ScanRow, ScanService } from '../scans/scans.service.js';
import {
  countTokens,
  deleteToken,
  feedCount,
  feedRows,
  findTokenByHash,
  insertToken,
  listTokens,
  touchToken,
  type FeedRead,
  type StoredBiToken,
} from './bi.repository.js';
import {
  feedEntitySets,
  serviceDocument,
  type FeedEntitySet,
  type FeedProperty,
} from './odata-model.js';
import {
  ODataQueryError,
  parseFilter,
  parseOrderBy,
  parseSelect,
  requireProperty,
} from './odata-query.js';

export interface BiServiceDeps {
  db: Kysely<Database>;
  /** Feed reads go where the report reads go (their own connections). */
  reportDb: Kysely<Database>;
  clock: Clock;
  scans: ScanService;
  samples: SampleReportService;
  publicUrl: string;
}

/** The owner of a valid access token. */
export interface BiReader {
  userId: string;
  tokenId: string;
}

/** A feed request, decoded: which rows, and how to answer the next page. */
export interface FeedPage {
  set: FeedEntitySet;
  properties: FeedProperty[];
  rows: AsyncIterable<Record<string, unknown>>;
  count: number | undefined;
  /** Once `rows` is read: the next page's address when more rows remain, else undefined. */
  nextLink: (rowsSent: number) => string | undefined;
  contextUrl: string;
}

/** What reading a page's rows finds out for its next link. */
interface RowsState {
  /** A row beyond the page exists. */
  more: boolean;
  /** The first key of the last row sent. */
  lastKey: number | undefined;
}

const STREAM_BATCH = 500;
/** A token's last use is written at most this often. */
const TOUCH_EVERY_MS = 60_000;

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toToken(row: StoredBiToken): BiAccessToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    createdAt: toDate(row.created_at).toISOString(),
    lastUsedAt: toOptionalDate(row.last_used_at)?.toISOString() ?? null,
  };
}

/** The value a stored column answers as, by its OData type (SQLite flags are 0/1, PG bigints text). */
function jsonValue(property: FeedProperty, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (property.type) {
    case 'Edm.Boolean':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'Edm.Int32':
    case 'Edm.Int64':
    case 'Edm.Double':
      return Number(value);
    case 'Edm.String':
      return typeof value === 'string' || typeof value === 'number'
        ? String(value)
        : JSON.stringify(value);
  }
}

/**
 * Personal access tokens (create, list, revoke; SHA-256 stored, shown once) and the read-only
 * OData feed of one scan they open, plus the `.pbids` file that points Power BI at it.
 */
export class BiService {
  constructor(private readonly deps: BiServiceDeps) {}

  async listTokens(user: SignedInUser): Promise<BiAccessToken[]> {
    return (await listTokens(this.deps.db, user.id)).map(toToken);
  }

  async createToken(user: SignedInUser, body: CreateBiAccessToken): Promise<CreatedBiAccessToken> {
    if ((await countTokens(this.deps.db, user.id)) >= maxBiAccessTokens) {
      throw new HttpError(409, biMessages.tooManyTokens);
    }
    const token = `${biAccessTokenPrefix}${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    const createdAt = this.deps.clock.now();
    const prefix = token.slice(0, biAccessTokenPrefix.length + 6);
    await insertToken(this.deps.db, {
      id,
      userId: user.id,
      name: body.name,
      hash: hashToken(token),
      prefix,
      createdAt,
    });
    return {
      id,
      name: body.name,
      prefix,
      createdAt: createdAt.toISOString(),
      lastUsedAt: null,
      token,
    };
  }

  async revokeToken(user: SignedInUser, id: string): Promise<void> {
    if (!(await deleteToken(this.deps.db, user.id, id))) {
      throw new HttpError(404, biMessages.tokenNotFound);
    }
  }

  /** The owner of a presented access token, or null (unknown or revoked). */
  async authenticate(token: string): Promise<BiReader | null> {
    if (!token.startsWith(biAccessTokenPrefix) || token.length > 200) return null;
    const row = await findTokenByHash(this.deps.db, hashToken(token));
    if (!row) return null;
    const now = this.deps.clock.now();
    await touchToken(this.deps.db, row.id, now, new Date(now.getTime() - TOUCH_EVERY_MS));
    return { userId: row.user_id, tokenId: row.id };
  }

  /** The scan a reader may export: their own, or the public sample scan. */
  async #scan(userId: string, scanId: string): Promise<ScanRow> {
    const scan = await this.deps.scans.find(scanId);
    if (scan && scan.user_id === userId) return scan;
    if (scan && (await this.deps.samples.scanId()) === scanId) return scan;
    throw new HttpError(404, biMessages.scanNotFound);
  }

  serviceRoot(scanId: string): string {
    return `${this.deps.publicUrl}/PowerBi/odata/${encodeURIComponent(scanId)}/`;
  }

  serviceDocument(scanId: string): Record<string, unknown> {
    return serviceDocument(this.serviceRoot(scanId));
  }

  pbidsUrl(scanId: string): string {
    return `${this.deps.publicUrl}/PowerBi/ExportScan/${encodeURIComponent(scanId)}`;
  }

  async exportInfo(userId: string, scanId: string): Promise<BiExport> {
    const scan = await this.#scan(userId, scanId);
    return {
      scanId: scan.id,
      url: scan.url,
      feedUrl: this.serviceRoot(scan.id),
      pbidsUrl: this.pbidsUrl(scan.id),
      entitySets: [...biEntitySets],
    };
  }

  /**
   * The Power BI data source file (.pbids): a JSON document naming one OData connection. Power BI
   * Desktop opens it, asks for credentials once (Basic: any user name, the access token as
   * password) and offers the four tables.
   */
  async pbids(userId: string, scanId: string): Promise<{ fileName: string; content: string }> {
    const scan = await this.#scan(userId, scanId);
    let host = 'scan';
    try {
      host = new URL(scan.url).hostname.replace(/[^A-Za-z0-9.-]/g, '') || host;
    } catch {
      // A stored URL is always valid; the file name just stays generic otherwise.
    }
    const content = JSON.stringify(
      {
        version: '0.1',
        connections: [
          {
            details: { protocol: 'odata', address: { url: this.serviceRoot(scan.id) } },
            options: {},
            mode: null,
          },
        ],
      },
      null,
      2,
    );
    return { fileName: `linkaudit-${host}-${scan.id.slice(0, 8)}.pbids`, content };
  }

  /** 404 unless the reader may read the scan's feed. */
  async checkFeedScan(reader: BiReader, scanId: string): Promise<void> {
    await this.#scan(reader.userId, scanId);
  }

  /**
   * Decodes one entity-set request: query options checked against the model, the page's rows
   * streamed from the database, and the next page's link.
   */
  async feedPage(
    reader: BiReader,
    scanId: string,
    setName: BiEntitySet,
    query: Record<string, unknown>,
    maxPageSize: number | undefined,
  ): Promise<FeedPage> {
    await this.#scan(reader.userId, scanId);
    const set = feedEntitySets[setName];
    const options = this.#options(query);
    const properties = options.$select ? parseSelect(options.$select, set) : set.properties;
    const filter = options.$filter !== undefined ? parseFilter(options.$filter, set) : undefined;
    const orderBy = options.$orderby ? parseOrderBy(options.$orderby, set) : [];
    const pageSize = Math.min(maxPageSize ?? biFeedPageSize, biFeedMaxPageSize);
    const sent = options.$skiptoken?.sent ?? 0;
    const afterKey = options.$skiptoken?.afterKey;
    const skip = options.$skip ?? 0;
    const remaining = options.$top === undefined ? Infinity : Math.max(0, options.$top - sent);
    const limit = Math.min(pageSize, remaining);
    const keys = set.keys.map((key) => requireProperty(set, key));
    // In key order (no $orderby) on a one-number key, a page starts after the last key sent
    // instead of skipping the rows before it: every page costs the same, however deep.
    const keyset = orderBy.length === 0 && keys.length === 1 && keys[0]?.type === 'Edm.Int32';
    const read: FeedRead = {
      set: setName,
      scanId,
      properties,
      keys,
      filter,
      orderBy,
      afterKey: keyset ? afterKey : undefined,
      offset: keyset && afterKey !== undefined ? 0 : skip + sent,
      // One row more than the page tells whether a next page exists.
      limit: limit === remaining ? limit : limit + 1,
    };
    const count = options.$count === 'true' ? await feedCount(this.deps.reportDb, read) : undefined;
    const root = this.serviceRoot(scanId);
    const state: RowsState = { more: false, lastKey: undefined };
    const selected = options.$select ? `(${properties.map((p) => p.name).join(',')})` : '';
    return {
      set,
      properties,
      count,
      rows: this.#rows(read, properties, limit, state),
      contextUrl: `${root}$metadata#${setName}${selected}`,
      nextLink: (rowsSent) => {
        if (!state.more) return undefined;
        const next = new URLSearchParams();
        for (const name of ['$filter', '$select', '$orderby', '$count', '$top', '$skip'] as const) {
          const value = options[name];
          if (value !== undefined) next.set(name, String(value));
        }
        const total = sent + rowsSent;
        next.set(
          '$skiptoken',
          keyset && state.lastKey !== undefined ? `k${state.lastKey}.${total}` : String(total),
        );
        return `${root}${setName}?${next.toString().replace(/\+/g, '%20')}`;
      },
    };
  }

  /** At most `limit` entities; `state.more` tells, once they are read, whether more follow. */
  async *#rows(
    read: FeedRead,
    properties: FeedProperty[],
    limit: number,
    state: RowsState,
  ): AsyncGenerator<Record<string, unknown>> {
    let index = 0;
    const key = read.keys[0]?.name ?? '';
    for await (const row of feedRows(this.deps.reportDb, read, STREAM_BATCH)) {
      if (index === limit) {
        // The one extra row read: a next page exists.
        state.more = true;
        break;
      }
      index += 1;
      state.lastKey = Number(row[key]);
      const entity: Record<string, unknown> = {};
      for (const property of properties) {
        entity[property.name] = jsonValue(property, row[property.name]);
      }
      yield entity;
    }
  }

  /** The entity count of `/Set/$count` (filter applies, paging does not). */
  async count(
    reader: BiReader,
    scanId: string,
    setName: BiEntitySet,
    query: Record<string, unknown>,
  ): Promise<number> {
    await this.#scan(reader.userId, scanId);
    const set = feedEntitySets[setName];
    const options = this.#options(query);
    const filter = options.$filter !== undefined ? parseFilter(options.$filter, set) : undefined;
    return feedCount(this.deps.reportDb, { set: setName, scanId, filter });
  }

  #options(query: Record<string, unknown>) {
    for (const name of biUnsupportedQueryOptions) {
      if (name in query)
        throw new ODataQueryError(`The query option ${name} is not supported.`, 501);
    }
    for (const name of Object.keys(query)) {
      if (name.startsWith('$') && !(name in biFeedQuerySchema.shape)) {
        throw new ODataQueryError(`Unknown system query option ${name}.`);
      }
    }
    const parsed = biFeedQuerySchema.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ODataQueryError(
        `The query option ${String(issue?.path[0] ?? '')} ${issue?.message ?? 'is invalid'}.`,
      );
    }
    return parsed.data;
  }
}

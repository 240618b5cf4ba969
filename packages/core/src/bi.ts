import { z } from 'zod';
import { idSchema } from './scan.js';

/**
 * Business-intelligence export (SPEC §2 "Analyze in Power BI", §7 `/PowerBi/ExportScan/{scanId}`):
 * personal read-only access tokens, the export's description and the OData feed's query options.
 */

/** Access tokens a user may hold at once. */
export const maxBiAccessTokens = 20;

/** Every access token starts so: a leaked one is recognisable, and the feed tells it from a JWT. */
export const biAccessTokenPrefix = 'labi_';

/** POST /api/bi/tokens: a name the user recognises the token by (where it is used). */
export const createBiAccessTokenSchema = z.object({
  name: z.string().trim().min(1, 'This field is required').max(100),
});
export type CreateBiAccessToken = z.infer<typeof createBiAccessTokenSchema>;

/** A token as listed: never its secret, only the first characters to tell tokens apart. */
export const biAccessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type BiAccessToken = z.infer<typeof biAccessTokenSchema>;
export const biAccessTokenListSchema = z.array(biAccessTokenSchema);

/** The answer to creating a token: the secret, shown this once. */
export const createdBiAccessTokenSchema = biAccessTokenSchema.extend({ token: z.string() });
export type CreatedBiAccessToken = z.infer<typeof createdBiAccessTokenSchema>;

export const biTokenParamsSchema = z.object({ id: idSchema });

/** GET /api/bi/export/{scanId}: what the "Analyze in Power BI" dialog shows. */
export const biExportSchema = z.object({
  scanId: z.string(),
  url: z.string(),
  /** The OData service root (ends with `/`). */
  feedUrl: z.string(),
  /** `/PowerBi/ExportScan/{scanId}`: the .pbids connection file. */
  pbidsUrl: z.string(),
  entitySets: z.array(z.string()),
});
export type BiExport = z.infer<typeof biExportSchema>;

/** The feed's entity sets, in the order the service document lists them. */
export const biEntitySets = ['Links', 'Pages', 'Rules', 'FileTypes'] as const;
export type BiEntitySet = (typeof biEntitySets)[number];

/** Rows of one feed answer unless the client asks for fewer (`Prefer: odata.maxpagesize`). */
export const biFeedPageSize = 1000;
/** The largest page a client may ask for. */
export const biFeedMaxPageSize = 5000;

const count = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a non-negative integer')
  .transform(Number);

/**
 * The system query options the feed understands (OData v4 Part 2 §5.1). Expressions are checked
 * further by the feed's own parser; here only their shape and length.
 */
export const biFeedQuerySchema = z.object({
  $top: count.optional(),
  $skip: count.optional(),
  $filter: z.string().max(4000).optional(),
  $select: z.string().max(2000).optional(),
  $orderby: z.string().max(2000).optional(),
  $count: z.enum(['true', 'false']).optional(),
  // `<rows sent>` after an offset page, `k<last key>.<rows sent>` after a page in key order.
  $skiptoken: z
    .string()
    .regex(/^(\d{1,12}|k-?\d{1,12}\.\d{1,12})$/, 'is not a token this service issued')
    .transform((token) => {
      const keyed = /^k(-?\d+)\.(\d+)$/.exec(token);
      return keyed
        ? { afterKey: Number(keyed[1]), sent: Number(keyed[2]) }
        : { afterKey: undefined, sent: Number(token) };
    })
    .optional(),
  $format: z.enum(['json', 'application/json']).optional(),
});
export type BiFeedQuery = z.infer<typeof biFeedQuerySchema>;

/** System query options a read-only flat feed does not offer: 501 (OData v4 Part 1 §9.3.1). */
export const biUnsupportedQueryOptions = [
  '$expand',
  '$search',
  '$apply',
  '$compute',
  '$levels',
  '$index',
  '$schemaversion',
] as const;

export const biMessages = {
  tokenNotFound: 'The access token was not found.',
  tooManyTokens: `You have ${maxBiAccessTokens} access tokens. Revoke one before creating another.`,
  feedUnauthorized:
    'A LinkAudit access token is required: send it as the password of Basic authentication (any user name) or as a Bearer token. Create one under Manage account.',
  scanNotFound: 'The scan was not found, or it is not yours.',
} as const;

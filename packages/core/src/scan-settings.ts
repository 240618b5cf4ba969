import { z } from 'zod';
import { limits } from './limits.js';
import { maxScanUrlLength } from './url.js';

/** Scan depth of SPEC §3: 1 SinglePage, 2 AllPagesBelow (folder), 3 Domain (whole site). */
export const ScanDepth = { SinglePage: 1, AllPagesBelow: 2, Domain: 3 } as const;
export type ScanDepth = (typeof ScanDepth)[keyof typeof ScanDepth];

/** 1 Limited (maxLinkAmount applies), 2 Unlimited (only the plan's cap applies). */
export const ScanLimitOption = { Limited: 1, Unlimited: 2 } as const;
export type ScanLimitOption = (typeof ScanLimitOption)[keyof typeof ScanLimitOption];

/** SPEC §5's message for a scan address that cannot be used, also for a too long or mistyped one. */
export const invalidScanUrlMessage = 'The URL entered is invalid';

/** A scan address as sent: text of at most 2000 characters (checked further by checkScanUrl). */
export const scanUrlInputSchema = z
  .string({ error: invalidScanUrlMessage })
  .max(maxScanUrlLength, { error: invalidScanUrlMessage });

/** An exclusion entry of the settings form (SPEC §3): `link` is a prefix, `regex:…`, or `*.ext`. */
export const excludeLinkItemSchema = z.object({
  link: z.string().max(2000),
  comment: z.string().max(500).optional().default(''),
  isEditing: z.boolean().optional().default(false),
  errorMsg: z.string().max(500).optional().default(''),
});
export type ExcludeLinkItem = z.infer<typeof excludeLinkItemSchema>;

/**
 * Credentials a scan carries (SPEC §3). Their secret values (`fieldValue`, `password`) are kept
 * encrypted and never sent back: answers leave them out and say whether one is set
 * (`fieldValueSet`, `passwordSet`). A request that leaves the value out and says it is set keeps
 * the stored one; a new value replaces it; an empty one clears it.
 */
const formAuthenticationSchema = z.object({
  loginUrl: z.string().max(2000).optional(),
  fieldName: z.string().max(200).optional(),
  fieldValue: z.string().max(2000).optional(),
  fieldValueSet: z.boolean().optional(),
});
export type FormAuthentication = z.infer<typeof formAuthenticationSchema>;

const windowsAuthenticationSchema = z.object({
  userName: z.string().max(200).optional(),
  password: z.string().max(200).optional(),
  domain: z.string().max(200).optional(),
  passwordSet: z.boolean().optional(),
});
export type WindowsAuthentication = z.infer<typeof windowsAuthenticationSchema>;

const depthSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/**
 * ScanRequest: the settings of one scan as the API takes them (SPEC §3), with its defaults.
 * Unknown fields are dropped so an old client's extra fields never fail a scan. The plan is
 * applied by `resolveScan` (scan-resolution.ts); the engine never sees this shape.
 */
export const scanRequestSchema = z.object({
  url: scanUrlInputSchema.default(''),
  scanDepth: depthSchema.default(ScanDepth.SinglePage),
  scanLimitOption: z.union([z.literal(1), z.literal(2)]).default(ScanLimitOption.Unlimited),
  maxLinkAmount: z.number().int().min(0).max(10_000_000).default(limits.freeMaxLinksPerScan),
  maxDepth: z.number().int().min(1).max(1000).default(limits.defaultMaxDepth),
  maxErrorCount: z.number().int().min(1).max(10_000_000).default(limits.defaultMaxErrorCount),
  /** Hours (DESIGN §6). */
  timeoutAfter: z
    .number()
    .positive()
    .max(limits.maxTimeoutHours)
    .default(limits.defaultTimeoutHours),
  useScanEngineV2: z.boolean().default(true),
  checkBrokenCertificate: z.boolean().default(true),
  maxThreadCount: z.number().int().min(1).max(500).default(limits.defaultConcurrency),
  checkBrokenLinks: z.boolean().default(true),
  checkAnchors: z.boolean().default(false),
  checkImages: z.boolean().default(true),
  checkIframes: z.boolean().default(true),
  caseSensitive: z.boolean().default(false),
  checkPageRank: z.boolean().default(false),
  checkPageInclusion: z.boolean().default(false),
  /** Obey the site's robots.txt for pages we crawl (on unless the owner turns it off). */
  respectRobotsTxt: z.boolean().default(true),
  selectedRules: z.array(z.number().int()).max(10_000).default([]),
  /**
   * Words the spelling rules accept on this scan (names, jargon), compared ignoring case.
   * Optional and without a default, so requests and the settings shown back stay as SPEC has them.
   */
  spellingIgnore: z.array(z.string().trim().min(1).max(100)).max(5000).optional(),
  /**
   * Render each internal page in a browser (issue 35; paid plans): links, ids and requests that
   * script makes are read too. Optional and without a default, like spellingIgnore.
   */
  renderPages: z.boolean().optional(),
  excludeLinks: z.array(excludeLinkItemSchema).max(1000).default([]),
  formAuthenticationInfo: z.array(formAuthenticationSchema).max(20).default([]),
  windowsAuthenticationInfo: windowsAuthenticationSchema.nullable().default(null),
});
export type ScanRequest = z.infer<typeof scanRequestSchema>;
export type ScanRequestInput = z.input<typeof scanRequestSchema>;

/** The request with every default filled in. */
export function defaultScanRequest(overrides: ScanRequestInput = {}): ScanRequest {
  return scanRequestSchema.parse(overrides);
}

/** The depth a scan really uses: a single page is always depth 1 (SPEC §3). */
export function effectiveMaxDepth(settings: ScanRequest): number {
  return settings.scanDepth === ScanDepth.SinglePage ? limits.singlePageDepth : settings.maxDepth;
}

/** The number of unique URLs a request asks for; Infinity when unlimited (resolveScan caps it by plan). */
export function effectiveLinkLimit(settings: ScanRequest): number {
  return settings.scanLimitOption === ScanLimitOption.Limited
    ? settings.maxLinkAmount
    : Number.POSITIVE_INFINITY;
}

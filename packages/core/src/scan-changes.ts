import { z } from 'zod';
import { rowTriageSchema, triageFilters } from './triage.js';

/**
 * Changes since the previous scan of the same site (issue 27): each problem of a scan (a broken
 * link, a broken anchor, an invalid certificate, a rule finding) is `new`, `still` there (since
 * its first-seen date) or, being in the previous scan and no longer here, `fixed` when what it was
 * on is still in this scan (the link, the anchor's link, the certificate's host, the finding's
 * page) or `removed` when that is gone too (issue 37: a link taken off its page is no fix). The previous
 * scan is the owner's last finished scan before this one of the same schedule, or else of the
 * same start URL and scope.
 */
export const problemKinds = ['link', 'anchor', 'certificate', 'rule'] as const;
export type ProblemKind = (typeof problemKinds)[number];

export const changeStates = ['new', 'still', 'fixed', 'removed'] as const;
export type ChangeState = (typeof changeStates)[number];

export const scanChangesQuerySchema = z.object({
  state: z.enum(changeStates).optional(),
  kind: z.enum(problemKinds).optional(),
  /** Rows by their triage mark; `open` (default) hides ignored problems. */
  triage: z.enum(triageFilters).default('open'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  /** `csv`: every row matching state, kind and triage (no paging), as the report's CSV exports. */
  format: z.enum(['json', 'csv']).default('json'),
});
export type ScanChangesQuery = z.infer<typeof scanChangesQuerySchema>;

export const scanChangeRowSchema = z.object({
  kind: z.enum(problemKinds),
  /** The broken URL, the link with its #fragment, the host, or the page of a rule finding. */
  target: z.string(),
  /** The rule's name for a rule finding; null otherwise. */
  detail: z.string().nullable(),
  state: z.enum(changeStates),
  /** ISO date-time of the first scan of the site that had it (still and new); null when fixed. */
  firstSeen: z.string().nullable(),
  /** The owner's mark on the problem (issue 27 triage); null when unmarked. */
  triage: rowTriageSchema.nullable(),
  /** The rule's id for a rule finding (what a mark names); null otherwise. */
  ruleId: z.string().nullable(),
});
export type ScanChangeRow = z.infer<typeof scanChangeRowSchema>;

export const changeCountsSchema = z.object({
  new: z.number().int(),
  still: z.number().int(),
  fixed: z.number().int(),
  removed: z.number().int(),
});
export type ChangeCounts = z.infer<typeof changeCountsSchema>;

export const scanChangesSchema = z.object({
  /** The scan compared with; null when this is the site's first (every problem is then new). */
  previousScanId: z.string().nullable(),
  /** Counts of the problems not ignored (issue 27 triage). */
  counts: changeCountsSchema,
  /** Problems of this scan and fixed ones the owner ignored, apart from the counts. */
  ignored: z.number().int(),
  /** Rows matching the query's state and kind. */
  total: z.number().int(),
  rows: z.array(scanChangeRowSchema),
});
export type ScanChanges = z.infer<typeof scanChangesSchema>;

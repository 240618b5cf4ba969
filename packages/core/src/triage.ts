import { z } from 'zod';

/**
 * Triage that lasts (issue 27): a user marks a broken link, a broken anchor or a rule finding
 * `ignored` (a false alarm, or not worth fixing; with a note) or `willFix`. A mark belongs to the
 * owner's site (the scan's start address, as the words to ignore of issue 25), so every scan of
 * the site shows it, later ones included. Ignored problems leave the counts (report summary, tab
 * totals, scan list, changes) and stay visible behind the `ignored` filter; `willFix` is a label
 * only (the problem still counts).
 */
export const triageKinds = ['link', 'anchor', 'rule'] as const;
export type TriageKind = (typeof triageKinds)[number];

export const triageMarks = ['ignored', 'willFix'] as const;
export type TriageMarkName = (typeof triageMarks)[number];

/** Which rows a tab shows by their mark: `open` (default) hides ignored ones. */
export const triageFilters = ['open', 'ignored', 'willFix', 'all'] as const;
export type TriageFilter = (typeof triageFilters)[number];

/** How many marks one site keeps. */
export const maxTriageMarks = 10_000;
export const maxTriageNoteLength = 500;

export const triageMessages = {
  notInScan: 'This problem is not in this scan.',
  full: `This site already has ${maxTriageMarks} marks: clear some before adding more.`,
  notFound: 'This problem has no mark.',
} as const;

/**
 * What a mark is about, as the changes of issue 27 name a problem: the broken URL (`link`), the
 * link with its #fragment (`anchor`), or a rule on one page (`rule`: the page and the rule id).
 */
export const triageTargetSchema = z
  .object({
    kind: z.enum(triageKinds),
    target: z.string().trim().min(1).max(4000),
    /** The rule's id for `rule`; absent (or empty) otherwise. */
    ruleId: z
      .string()
      .regex(/^(\d{1,9})?$/, { error: 'The rule must be a rule id.' })
      .optional(),
  })
  .refine((value) => (value.kind === 'rule') === Boolean(value.ruleId), {
    error: 'A rule finding needs its rule id (ruleId), and only a rule finding has one.',
    path: ['ruleId'],
  });
export type TriageTarget = z.infer<typeof triageTargetSchema>;

/** PUT /api/report/triage/{scanId}: mark a problem of the scan (a new mark or a changed one). */
export const setTriageMarkRequestSchema = z.intersection(
  triageTargetSchema,
  z.object({
    mark: z.enum(triageMarks),
    note: z.string().trim().max(maxTriageNoteLength).default(''),
  }),
);
export type SetTriageMarkRequest = z.infer<typeof setTriageMarkRequestSchema>;

/** A row's mark as the report tabs carry it. */
export const rowTriageSchema = z.object({
  mark: z.enum(triageMarks),
  note: z.string(),
  /** ISO date-time of the last change of the mark. */
  markedAt: z.string(),
});
export type RowTriage = z.infer<typeof rowTriageSchema>;

export const triageMarkSchema = z.object({
  kind: z.enum(triageKinds),
  target: z.string(),
  ruleId: z.string().nullable(),
  mark: z.enum(triageMarks),
  note: z.string(),
  markedAt: z.string(),
});
export type TriageMark = z.infer<typeof triageMarkSchema>;

/** GET /api/report/triage/{scanId}?limit=: how many marks to answer (0: none, only the site). */
export const triageMarksQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(maxTriageMarks).default(maxTriageMarks),
});

/** GET /api/report/triage/{scanId}: the site's marks, newest first. */
export const siteTriageSchema = z.object({ site: z.string(), marks: z.array(triageMarkSchema) });
export type SiteTriage = z.infer<typeof siteTriageSchema>;

/** The key the marks and the changes (scan-changes) give one problem of a site. */
export function triageKeyOf(target: { kind: TriageKind; target: string; ruleId?: string | null }) {
  return target.kind === 'rule'
    ? `rule ${target.ruleId ?? ''} ${target.target}`
    : `${target.kind} ${target.target}`;
}

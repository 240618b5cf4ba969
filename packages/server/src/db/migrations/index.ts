import type { Migration } from 'kysely/migration';
import * as serverMeta from './2026-11-21-server-meta.js';
import * as accounts from './2026-11-21T0640-accounts.js';
import * as scans from './2026-11-22T0700-scans.js';
import * as reportIndexes from './2026-11-23T0600-report-indexes.js';
import * as schedules from './2026-11-24T0600-schedules.js';
import * as signInFailures from './2026-11-25T0700-sign-in-failures.js';
import * as scanTargetCheckDetail from './2026-11-25T1100-scan-target-check-detail.js';
import * as reportSortIndexes from './2026-11-25T1130-report-sort-indexes.js';
import * as billing from './2026-11-26T1700-billing.js';
import * as reportLinkCounts from './2026-11-26T1700-report-link-counts.js';
import * as scanPageReads from './2026-11-26T1700-scan-page-reads.js';
import * as referencesOrder from './2026-11-26T2000-references-order.js';
import * as billingUserLocks from './2026-11-26T2200-billing-user-locks.js';
import * as reportFindings from './2026-11-26T2300-report-findings.js';
import * as biAccessTokens from './2026-11-26T2310-bi-access-tokens.js';
import * as admin from './2026-11-26T2320-admin.js';
import * as siteSpellingWords from './2026-11-27T0100-site-spelling-words.js';
import * as scanSuggestions from './2026-11-27T0110-scan-suggestions.js';
import * as triageMarks from './2026-11-27T1000-triage-marks.js';
import * as reportReadFigures from './2026-11-28T0600-report-read-figures.js';
import * as reportPageTypeIndexes from './2026-11-28T0610-report-page-type-indexes.js';
import * as ruleIdWidth from './2026-11-28T0900-rule-id-width.js';
import * as scanQueueFairness from './2026-11-28T1000-scan-queue-fairness.js';
import * as outbox from './2026-11-28T1010-outbox.js';
import * as signInAddressFailures from './2026-11-28T1100-sign-in-address-failures.js';
import * as sharedLimits from './2026-11-28T1110-shared-limits.js';

/** Every migration in order; names sort by date (and time) so the history reads top to bottom. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-server-meta': serverMeta,
  '2026-11-21T0640-accounts': accounts,
  '2026-11-22T0700-scans': scans,
  '2026-11-23T0600-report-indexes': reportIndexes,
  '2026-11-24T0600-schedules': schedules,
  '2026-11-25T0700-sign-in-failures': signInFailures,
  '2026-11-25T1100-scan-target-check-detail': scanTargetCheckDetail,
  '2026-11-25T1130-report-sort-indexes': reportSortIndexes,
  '2026-11-26T1700-billing': billing,
  '2026-11-26T1700-report-link-counts': reportLinkCounts,
  '2026-11-26T1700-scan-page-reads': scanPageReads,
  '2026-11-26T2000-references-order': referencesOrder,
  '2026-11-26T2200-billing-user-locks': billingUserLocks,
  '2026-11-26T2300-report-findings': reportFindings,
  '2026-11-26T2310-bi-access-tokens': biAccessTokens,
  '2026-11-26T2320-admin': admin,
  '2026-11-27T0100-site-spelling-words': siteSpellingWords,
  '2026-11-27T0110-scan-suggestions': scanSuggestions,
  '2026-11-27T1000-triage-marks': triageMarks,
  '2026-11-28T0600-report-read-figures': reportReadFigures,
  '2026-11-28T0610-report-page-type-indexes': reportPageTypeIndexes,
  '2026-11-28T0900-rule-id-width': ruleIdWidth,
  '2026-11-28T1000-scan-queue-fairness': scanQueueFairness,
  '2026-11-28T1010-outbox': outbox,
  '2026-11-28T1100-sign-in-address-failures': signInAddressFailures,
  '2026-11-28T1110-shared-limits': sharedLimits,
};

import type { Kysely } from 'kysely';
import {
  maxTriageMarks,
  scanMessages,
  setTriageMarkRequestSchema,
  triageMessages,
  triageMarksQuerySchema,
  triageTargetSchema,
  type SiteTriage,
  type TriageMark,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError, parseRequest } from '../../plugins/error-handler.js';
import type { ScanRow, ScanService } from '../scans/scans.service.js';
import {
  markCounts,
  markExists,
  removeMark,
  scanHasProblem,
  setMark,
  siteMarks,
  triageScopeOf,
} from './triage.repository.js';

export interface TriageServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  scans: ScanService;
}

/**
 * Triage that lasts (issue 27, core's triage.ts): the owner marks a problem of a scan; the mark is
 * kept for the scan's site, so the reports of every scan of that site read it (reports.repository
 * filters and counts by it). Only the owner reads or changes marks.
 */
export class TriageService {
  constructor(private readonly deps: TriageServiceDeps) {}

  /** The site's marks, newest first (`limit` of them: 0 asks only whether the reader owns it). */
  async marks(user: SignedInUser, scanId: string, query: unknown): Promise<SiteTriage> {
    const { limit } = parseRequest(triageMarksQuerySchema, query);
    const scan = await this.#ownScan(user, scanId);
    const marks = limit === 0 ? [] : await siteMarks(this.deps.db, triageScopeOf(scan), limit);
    return { site: scan.url, marks };
  }

  /** Marks a problem this scan has (a new mark, or a changed mark or note). */
  async mark(user: SignedInUser, scanId: string, body: unknown): Promise<TriageMark> {
    const request = parseRequest(setTriageMarkRequestSchema, body);
    const scan = await this.#ownScan(user, scanId);
    const scope = triageScopeOf(scan);
    if (!(await scanHasProblem(this.deps.db, scan.id, request))) {
      throw new HttpError(400, triageMessages.notInScan, {
        modelState: { target: [triageMessages.notInScan] },
      });
    }
    if (!(await markExists(this.deps.db, scope, request))) {
      const { counts } = await markCounts(this.deps.db, scope);
      const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
      if (total >= maxTriageMarks) {
        throw new HttpError(400, triageMessages.full, { exceptionMessage: triageMessages.full });
      }
    }
    const at = this.deps.clock.now();
    await setMark(this.deps.db, scope, { ...request, at });
    return {
      kind: request.kind,
      target: request.target,
      ruleId: request.ruleId || null,
      mark: request.mark,
      note: request.note,
      markedAt: at.toISOString(),
    };
  }

  /** Clears a mark: the problem counts again on every scan of the site. */
  async clear(user: SignedInUser, scanId: string, query: unknown): Promise<void> {
    const target = parseRequest(triageTargetSchema, query);
    const scan = await this.#ownScan(user, scanId);
    if (!(await removeMark(this.deps.db, triageScopeOf(scan), target))) {
      throw new HttpError(404, triageMessages.notFound);
    }
  }

  async #ownScan(user: SignedInUser, scanId: string): Promise<ScanRow> {
    const scan = await this.deps.scans.owned(user, scanId);
    // owned() lets an admin read any scan; marks stay the owner's own.
    if (scan.user_id !== user.id) throw new HttpError(404, scanMessages.notFound);
    return scan;
  }
}

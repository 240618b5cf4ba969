import type { Kysely } from 'kysely';
import {
  ignoreWordRequestSchema,
  ignoredWordSchema,
  maxSiteWords,
  normalizeIgnoredWord,
  scanMessages,
  siteWordsMessages,
  type SiteWords,
} from '@linkaudit/core';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { SignedInUser } from '../../plugins/authentication.js';
import { HttpError, parseRequest } from '../../plugins/error-handler.js';
import type { ScanRow, ScanService } from '../scans/scans.service.js';
import { addSiteWord, removeSiteWord, siteWords } from './spelling.repository.js';

export interface SpellingServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  scans: ScanService;
}

/**
 * A user's words to ignore per site (issue 25, docs/decisions.md): a report's "ignore this word"
 * adds to the list of the scan's start address; new scans of that address take the list
 * (ScanService.queue). Only the scan's owner reads or changes it (an admin's view of another
 * user's report does not).
 */
export class SpellingService {
  constructor(private readonly deps: SpellingServiceDeps) {}

  /** The words of a site, for the scans of it the server queues. */
  wordsOf(userId: string, site: string): Promise<string[]> {
    return siteWords(this.deps.db, userId, site);
  }

  async words(user: SignedInUser, scanId: string): Promise<SiteWords> {
    const scan = await this.#ownScan(user, scanId);
    return { site: scan.url, words: await this.wordsOf(user.id, scan.url) };
  }

  async ignore(user: SignedInUser, scanId: string, body: unknown): Promise<SiteWords> {
    const { word } = parseRequest(ignoreWordRequestSchema, body);
    const scan = await this.#ownScan(user, scanId);
    const words = await this.wordsOf(user.id, scan.url);
    const normalized = normalizeIgnoredWord(word);
    if (!words.includes(normalized) && words.length >= maxSiteWords) {
      throw new HttpError(400, siteWordsMessages.full, {
        exceptionMessage: siteWordsMessages.full,
      });
    }
    await addSiteWord(this.deps.db, {
      userId: user.id,
      site: scan.url,
      word: normalized,
      at: this.deps.clock.now(),
    });
    return this.words(user, scanId);
  }

  /** Undoes an ignore: the word is reported again from the next scan on. */
  async unignore(user: SignedInUser, scanId: string, word: unknown): Promise<SiteWords> {
    const parsed = parseRequest(ignoredWordSchema, word);
    const scan = await this.#ownScan(user, scanId);
    await removeSiteWord(this.deps.db, {
      userId: user.id,
      site: scan.url,
      word: normalizeIgnoredWord(parsed),
    });
    return this.words(user, scanId);
  }

  async #ownScan(user: SignedInUser, scanId: string): Promise<ScanRow> {
    const scan = await this.deps.scans.owned(user, scanId);
    // owned() lets an admin read any scan; a user's word list stays the user's own.
    if (scan.user_id !== user.id) throw new HttpError(404, scanMessages.notFound);
    return scan;
  }
}

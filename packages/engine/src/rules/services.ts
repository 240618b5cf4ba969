import { HtmlValidator } from './html/validator.js';
import type { RuleViolation } from './rule-types.js';
import { Speller } from './spelling/speller.js';

/**
 * The expensive helpers of one scan, created on first use so a scan without spelling or HTML
 * rules never loads a dictionary or html-validate's configuration.
 */
export class ScanServices {
  private speller: Speller | undefined;
  private validator: HtmlValidator | undefined;

  constructor(private readonly spellingIgnore: readonly string[] = []) {}

  get spelling(): Speller {
    return (this.speller ??= new Speller(this.spellingIgnore));
  }

  /** After the last page: what the services held back (the spelling rules' findings). */
  finishSite(into: RuleViolation[]): void {
    this.speller?.vocabulary.release(into);
  }

  get htmlValidator(): HtmlValidator {
    return (this.validator ??= new HtmlValidator());
  }
}

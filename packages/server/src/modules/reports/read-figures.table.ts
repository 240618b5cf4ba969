/** Named figures of a finished scan that its report reads (issue 34, stored-figures.ts). */
export interface ScanReadFiguresTable {
  scan_id: string;
  name: string;
  figures_json: string;
}

/** A finished scan's problems against the site's previous scans (stored-changes.ts). */
export interface ScanChangesTable {
  scan_id: string;
  position: number;
  /** new | still | fixed */
  state: string;
  /** link | anchor | certificate | rule */
  kind: string;
  target: string;
  detail: string | null;
  rule_id: string | null;
  /** ISO date-time of the earlier scan that first had it; null: this scan, or fixed. */
  first_seen: string | null;
  /** The problem's triage key (triage_marks.target_hash). */
  target_hash: string;
}

export interface ReadFiguresTables {
  scan_read_figures: ScanReadFiguresTable;
  scan_changes: ScanChangesTable;
}

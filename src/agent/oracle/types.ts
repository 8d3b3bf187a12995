/**
 * The oracle's vocabulary: what a comparison of one value, one cell and one notebook yields. Every
 * stage of the oracle (extract, align, compare, judge) and every reader of its verdict (the loop,
 * the report) speaks these types, so they sit below all of them.
 */

export type OracleKind = 'expected-score' | 'stored-outputs' | 'none';

export const DEFAULT_TOLERANCE = 0.1;

export interface Comparison {
  /** Position in notebook.cells; null for a notebook-level value (a submission score). */
  cell: number | null;
  original: number | null;
  new: number | null;
  relDiff: number | null;
  ok: boolean;
  /** The printed line (original run) the number comes from, or the metric name. */
  context?: string;
  /** For a number from a table: its row and column labels (original run). */
  row?: string;
  column?: string;
  /** From a cell the original ran out of order; with outOfOrder 'report' it does not fail the notebook. */
  outOfOrder?: boolean;
  /**
   * Not judged (ok is then true), and why: 'nondeterministic' (it differs between two clean runs),
   * 'tie' (a label picked among equal quantities: describe()'s top among values of the same
   * frequency, a search's best parameters; the quantity is judged instead), 'stale' (a stored result
   * the cell's current source cannot produce; see stale-results.ts), 'unreachable' (the cell fails
   * because the author's own recorded error upstream left a name unbound; see stored-errors.ts).
   */
  unjudged?: UnjudgedReason;
}

export type UnjudgedReason = 'nondeterministic' | 'ill-conditioned' | 'tie' | 'stale' | 'unreachable' | 'library-docs' | 'skipped';

export interface OracleVerdict {
  oracle: OracleKind;
  matches: boolean;
  details: Record<string, unknown>;
  comparisons: Comparison[];
}

/** Lines with numbers (and rows of a table) compared per cell (alignment is quadratic in this). */
export const MAX_LINES_PER_CELL = 400;

export type CellVerdict = 'match' | 'mismatch' | 'partial' | 'missing' | 'not-compared';

export interface CellReport {
  cell: number;
  verdict: CellVerdict;
  compared: number;
  mismatched: number;
  /** Original numbers with no counterpart in the new run. */
  unpaired: number;
  images: { original: number; new: number };
  /** Non-numeric text lines differ (reported, not judged). */
  textChanged: boolean;
  note?: string;
  /** Set when HTML tables were compared by label: rows and columns of the original not found again. */
  tables?: TableReport;
  /** The original ran this cell after a later one (see outOfOrderCells). */
  outOfOrder?: boolean;
}

export interface TableReport {
  /** Pairs of tables compared by label. */
  compared: number;
  /** Original row / column labels with no counterpart (first MAX_LABELS_REPORTED). */
  rowsMissing: string[];
  columnsMissing: string[];
  /** Original columns paired by position because their labels changed (e.g. pandas 2 value_counts "count"). */
  columnsRenamed: Array<[string, string]>;
  /** Original rows compared with a row under another label [original, new]: ties in another order, or a replaced row. */
  rowsReplaced: Array<[string, string]>;
  /** Missing rows / columns the new table would have shown (it is not truncated): judged as mismatches. */
  rowsGone: string[];
  columnsGone: string[];
}

export const MAX_LABELS_REPORTED = 20;

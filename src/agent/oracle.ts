/**
 * The reproducibility oracles: did the modernized notebook reproduce the original result?
 *
 * - expected-score: the submission the notebook wrote, scored against ground truth with a named
 *   metric, compared with an expected score within a relative tolerance (default ±10%).
 * - stored-outputs: the numbers the original run printed (stored in the .ipynb) compared with the
 *   new run's, cell by cell: DataFrames shown as HTML tables and Series reprs in both runs by
 *   (row label, column label) (oracle-tables.ts), everything else line by line after normalizing
 *   presentation (oracle-numbers.ts); text and images are reported, not judged; cells the
 *   original ran out of order are reported, not judged by default (oracle-order.ts).
 * - none: nothing to compare against (the verdict then rests on a clean run alone).
 */
import { sourceText, type CodeCell, type Notebook } from '../core/notebook.js';
import { cellNumbers, extractNumbers, type CellNumbers, type NumberLine } from './oracle-numbers.js';
import { outOfOrderCells } from './oracle-order.js';
import { cannotHaveResult } from './stale-outputs.js';
import type { Table, TableRow } from './oracle-tables.js';
import {
  METRICS, type MetricName, readCsvFile, relativeDifference, scoreSubmission, ScoringError, type Csv, type ScoreResult,
} from './scorers.js';

export { outOfOrderCells, type OutOfOrder } from './oracle-order.js';

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
   * the cell's current source cannot produce; see stale-outputs.ts), 'unreachable' (the cell fails
   * because the author's own recorded error upstream left a name unbound; see stored-errors.ts).
   */
  unjudged?: UnjudgedReason;
}

export type UnjudgedReason = 'nondeterministic' | 'tie' | 'stale' | 'unreachable';

export interface OracleVerdict {
  oracle: OracleKind;
  matches: boolean;
  details: Record<string, unknown>;
  comparisons: Comparison[];
}

// ---------------------------------------------------------------- expected score

export interface ExpectedScoreInput {
  expected: number;
  metric: MetricName;
  /** The submission the notebook wrote (path or parsed); undefined = none was written. */
  submission?: string | Csv;
  groundTruth: string | Csv;
  tolerance?: number;
  idColumn?: string;
  targetColumn?: string;
  truthTargetColumn?: string;
  positiveLabel?: string;
}

export function expectedScoreOracle(input: ExpectedScoreInput): OracleVerdict {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE;
  const info = METRICS[input.metric];
  const base = { metric: input.metric, expected: input.expected, tolerance, higherIsBetter: info.higherIsBetter };
  if (input.submission === undefined) {
    return { oracle: 'expected-score', matches: false, details: { ...base, reason: 'the notebook wrote no submission file' }, comparisons: [] };
  }
  let result: ScoreResult;
  try {
    const sub = typeof input.submission === 'string' ? readCsvFile(input.submission) : input.submission;
    const truth = typeof input.groundTruth === 'string' ? readCsvFile(input.groundTruth) : input.groundTruth;
    result = scoreSubmission(sub, truth, {
      metric: input.metric,
      ...(input.idColumn ? { idColumn: input.idColumn } : {}),
      ...(input.targetColumn ? { targetColumn: input.targetColumn } : {}),
      ...(input.truthTargetColumn ? { truthTargetColumn: input.truthTargetColumn } : {}),
      ...(input.positiveLabel !== undefined ? { positiveLabel: input.positiveLabel } : {}),
    });
  } catch (err) {
    if (!(err instanceof ScoringError)) throw err;
    return { oracle: 'expected-score', matches: false, details: { ...base, reason: `the submission cannot be scored: ${err.message}` }, comparisons: [] };
  }
  const relDiff = relativeDifference(input.expected, result.score);
  const withinTolerance = relDiff <= tolerance + 1e-12;
  const complete = result.missingIds === 0;
  const better = info.higherIsBetter ? result.score > input.expected : result.score < input.expected;
  const direction = result.score === input.expected ? 'equal' : better ? 'better' : 'worse';
  const reasons: string[] = [];
  if (!withinTolerance) reasons.push(`${input.metric} ${round(result.score)} is ${(relDiff * 100).toFixed(1)}% from the expected ${input.expected} (tolerance ${(tolerance * 100).toFixed(0)}%)`);
  if (!complete) reasons.push(`the submission lacks ${result.missingIds} of the ${result.n + result.missingIds} ids of the ground truth`);
  return {
    oracle: 'expected-score',
    matches: withinTolerance && complete,
    details: { ...base, ...result, relDiff, direction, ...(reasons.length ? { reason: reasons.join('; ') } : {}) },
    comparisons: [{ cell: null, original: input.expected, new: result.score, relDiff, ok: withinTolerance, context: input.metric }],
  };
}

function round(x: number): number {
  return Number(x.toPrecision(6));
}

/** The submission among the files a run produced: CSVs, names with submission/submit/pred/result first. */
export function findSubmissionFile(files: Array<{ name: string; path?: string }>): string | undefined {
  const csvs = files.filter((f) => /\.csv(\.gz)?$/i.test(f.name));
  const score = (n: string): number => (/submission/i.test(n) ? 3 : /submit/i.test(n) ? 2 : /pred|result|output|answer/i.test(n) ? 1 : 0);
  const best = [...csvs].sort((a, b) => score(b.name) - score(a.name))[0];
  return best ? (best.path ?? best.name) : undefined;
}

// ---------------------------------------------------------------- stored outputs

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

export interface StoredOutputsOptions {
  tolerance?: number;
  /** Original cell index -> new cell index; default: the same index. */
  cellMap?: (original: number) => number | undefined;
  /** Cells to leave out (e.g. cells that print timings or random samples). */
  ignoreCells?: number[];
  /**
   * Cells the original ran out of order (see oracle-order.ts: a later cell that binds or mutates
   * a name this cell reads ran before this cell's stored output was produced): 'report' (default)
   * compares and reports them, but a mismatch or missing numbers there do not fail the notebook,
   * since an in-order run cannot reach the state they were printed in; 'judge' treats them like
   * any other cell.
   */
  outOfOrder?: 'report' | 'judge';
}

/** Pair two lists of lines: LCS on templates, then lines with the same count of numbers, in order. */
export function alignLines(a: NumberLine[], b: NumberLine[]): Array<[number, number]> {
  const n = a.length, m = b.length;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = a[i]!.template === b[j]!.template ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const anchors: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i]!.template === b[j]!.template) { anchors.push([i, j]); i++; j++; }
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  // Gaps between anchors: pair lines with equal number counts, in order.
  const pairs: Array<[number, number]> = [];
  let pi = 0, pj = 0;
  for (const [ai, bj] of [...anchors, [n, m] as [number, number]]) {
    let j = pj;
    for (let i = pi; i < ai; i++) {
      for (let k = j; k < bj; k++) {
        if (b[k]!.numbers.length === a[i]!.numbers.length) { pairs.push([i, k]); j = k + 1; break; }
      }
    }
    if (ai < n) pairs.push([ai, bj]);
    pi = ai + 1;
    pj = bj + 1;
  }
  return pairs.sort((x, y) => x[0] - y[0]);
}

// ---- tables

/**
 * Numbers of one table cell: booleans are 1/0; a number, a percentage, an interval or a list of
 * numbers gives its numbers; text ("CA. 2343", a ticket), NaN and dates have none.
 */
export function tableCellNumbers(text: string): number[] {
  const t = text.trim();
  if (t === 'True') return [1];
  if (t === 'False') return [0];
  const bare = t.replace(/\b(np\.)?(float|int|uint)(16|32|64)\(/g, '(');
  if (/[A-Za-z_]/.test(bare.replace(/(?<=\d)[eE](?=[-+]?\d)/g, ''))) return [];
  return extractNumbers(bare);
}

function tableNumberCount(t: Table): number {
  return t.rows.reduce((s, r) => s + r.cells.reduce((k, c) => k + tableCellNumbers(c).length, 0), 0) + (t.shape ? 2 : 0); // shape: when the other has one
}

/** Column pairs of two tables: by label, then the leftover columns by position if as many are left on both sides. */
function columnPairs(a: Table, b: Table): { pairs: Array<[number, number]>; renamed: Array<[string, string]> } {
  const byLabel = new Map(b.columns.map((c, k) => [c, k]));
  const pairs: Array<[number, number]> = [];
  const leftA: number[] = [];
  const usedB = new Set<number>();
  a.columns.forEach((c, k) => {
    const m = byLabel.get(c);
    if (m === undefined) leftA.push(k);
    else { pairs.push([k, m]); usedB.add(m); }
  });
  const leftB = b.columns.map((_, k) => k).filter((k) => !usedB.has(k));
  const renamed: Array<[string, string]> = [];
  if (leftA.length > 0 && leftA.length === leftB.length) {
    leftA.forEach((k, n) => { pairs.push([k, leftB[n]!]); renamed.push([a.columns[k]!, b.columns[leftB[n]!]!]); });
  }
  return { pairs: pairs.sort((x, y) => x[0] - y[0]), renamed };
}

/** 1 (-1) when the table's rows are in non-decreasing (non-increasing) order of column k, with at least 3 numbers; else 0. */
function sortedOn(t: Table, k: number): number {
  const vs = t.rows.map((r) => tableCellNumbers(r.cells[k] ?? '')[0]);
  if (vs.length < 3 || vs.some((v) => v === undefined)) return 0;
  const up = vs.every((v, i) => i === 0 || v! >= vs[i - 1]!);
  const down = vs.every((v, i) => i === 0 || v! <= vs[i - 1]!);
  return up === down ? 0 : up ? 1 : -1;
}

/** Pair the tables of two runs of a cell: each original table with the new table sharing most (row, column) labels. */
export function pairTables(a: Table[], b: Table[]): Array<[number, number]> {
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  a.forEach((ta, i) => {
    let best = -1, bestScore = 0;
    b.forEach((tb, j) => {
      if (used.has(j)) return;
      const rows = new Set(tb.rows.map((r) => r.label));
      const commonRows = ta.rows.filter((r) => rows.has(r.label)).length;
      const commonCols = columnPairs(ta, tb).pairs.length;
      // Empty frames (0 rows, a shape note) pair on their columns.
      const score = ta.rows.length === 0 && tb.rows.length === 0 ? commonCols : commonRows * commonCols;
      if (score > bestScore) { best = j; bestScore = score; }
    });
    if (best >= 0) { used.add(best); pairs.push([i, best]); }
  });
  return pairs;
}

export function compareTables(cell: number, a: Table, b: Table, tolerance: number): {
  comparisons: Comparison[]; compared: number; mismatched: number; unpaired: number;
  rowsMissing: string[]; columnsMissing: string[]; columnsRenamed: Array<[string, string]>; rowsReplaced: Array<[string, string]>;
  rowsGone: string[]; columnsGone: string[];
} {
  const comparisons: Comparison[] = [];
  let compared = 0, mismatched = 0, unpaired = 0;
  const { pairs: cols, renamed } = columnPairs(a, b);
  const colOf = new Map(cols);
  const columnsMissing = a.columns.filter((_, k) => !colOf.has(k));
  const within = (v: number, w: number): boolean => relativeDifference(v, w) <= tolerance + 1e-12;

  // Rows pair by label. Original rows whose label is gone while the new table shows rows the
  // original did not have were replaced: first by a row with the same values (ties sorted in
  // another order), then in order (a changed top-N list, a different sample). Rows that are only
  // gone (the new run shows fewer rows, pandas 2 truncates at 10) are reported, not judged.
  const rowsA = a.rows.slice(0, MAX_LINES_PER_CELL);
  const byLabel = new Map(b.rows.map((r) => [r.label, r]));
  const partner = new Map<TableRow, TableRow>();
  for (const r of rowsA) { const o = byLabel.get(r.label); if (o) partner.set(r, o); }
  const taken = new Set(partner.values());
  const extra = b.rows.filter((o) => !taken.has(o));
  const rowsReplaced: Array<[string, string]> = [];
  const tied = new Set<string>();
  const missing = rowsA.filter((r) => !partner.has(r));
  if (missing.length && extra.length) {
    const sameValues = (r: TableRow, o: TableRow): boolean => {
      let any = false;
      for (const [k, m] of cols) {
        const vs = tableCellNumbers(r.cells[k] ?? ''), ws = tableCellNumbers(o.cells[m] ?? '');
        if (vs.length !== ws.length || vs.some((v, n) => !within(v, ws[n]!))) return false;
        if (vs.length) any = true;
      }
      return any;
    };
    const use = (r: TableRow, o: TableRow): void => { partner.set(r, o); taken.add(o); rowsReplaced.push([r.label, o.label]); };
    for (const r of missing) { const o = extra.find((x) => !taken.has(x) && sameValues(r, x)); if (o) use(r, o); }
    // Both tables sorted on a column (a sort_values().head(n)): a row that replaced one with the
    // same value in that column is a tie cut off at another place, not a change.
    const sortKeys = cols.filter(([k, m]) => sortedOn(a, k) !== 0 && sortedOn(a, k) === sortedOn(b, m));
    const restB = extra.filter((o) => !taken.has(o));
    missing.filter((r) => !partner.has(r)).forEach((r, n) => {
      const o = restB[n];
      if (!o) return;
      const tie = sortKeys.some(([k, m]) => {
        const v = tableCellNumbers(r.cells[k] ?? '')[0], w = tableCellNumbers(o.cells[m] ?? '')[0];
        return v !== undefined && w !== undefined && within(v, w);
      });
      if (tie) { tied.add(r.label); rowsReplaced.push([r.label, o.label]); } else use(r, o);
    });
  }
  const rowsMissing = rowsA.filter((r) => !partner.has(r)).map((r) => r.label);
  // When the new table shows all its rows (columns), an original row (column) it lacks is gone:
  // its numbers count as mismatched (a category value_counts no longer finds, a dropped column).
  // (Not the columns of describe(): pandas 2 leaves out bool columns, which get_dummies now makes.)
  const describe = ['count', 'mean', 'std'].every((l) => a.rows.some((r) => r.label === l));
  const rowGone = !b.rowsTruncated ? new Set(rowsMissing.filter((l) => !tied.has(l))) : new Set<string>();
  const colGone = !b.columnsTruncated && !describe ? new Set(columnsMissing) : new Set<string>();

  const tie = describeTopTie(a, b, partner, colOf, within);
  for (const r of rowsA) {
    const other = partner.get(r);
    r.cells.forEach((text, k) => {
      const vs = tableCellNumbers(text);
      if (vs.length === 0) return;
      const label = other && other.label !== r.label ? `${r.label} (now ${other.label})` : r.label;
      const context = `${label} | ${a.columns[k]}: ${text}`;
      const where = { row: r.label, column: a.columns[k]! };
      const m = colOf.get(k);
      const ws = other && m !== undefined ? tableCellNumbers(other.cells[m] ?? '') : [];
      const gone = (!other && rowGone.has(r.label)) || (m === undefined && colGone.has(a.columns[k]!));
      vs.forEach((v, n) => {
        const w = ws.length === vs.length ? ws[n] : undefined;
        if (w === undefined) {
          if (gone) { compared++; mismatched++; } else unpaired++;
          comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context, ...where });
          return;
        }
        const relDiff = relativeDifference(v, w);
        const ok = within(v, w);
        compared++;
        if (!ok && tie(r, k)) {
          comparisons.push({ cell, original: v, new: w, relDiff, ok: true, unjudged: 'tie', context, ...where });
          return;
        }
        if (!ok) mismatched++;
        comparisons.push({ cell, original: v, new: w, relDiff, ok, context, ...where });
      });
    });
  }
  // The "N rows × M columns" notes of truncated frames compare as numbers.
  if (a.shape && b.shape) {
    const bs = b.shape;
    for (const [what, v, w] of [['rows', a.shape.rows, bs.rows], ['columns', a.shape.columns, bs.columns]] as const) {
      const relDiff = relativeDifference(v, w);
      const ok = relDiff <= tolerance + 1e-12;
      compared++;
      if (!ok) mismatched++;
      comparisons.push({ cell, original: v, new: w, relDiff, ok, context: `${a.shape.rows} rows × ${a.shape.columns} columns (${what})` });
    }
  }
  return { comparisons, compared, mismatched, unpaired, rowsMissing, columnsMissing, columnsRenamed: renamed, rowsReplaced, rowsGone: [...rowGone], columnsGone: [...colGone] };
}

/**
 * describe() of text columns shows `top`, the most frequent value, and `freq`, its count. Among
 * values of equal frequency the pick is arbitrary (it changed with pandas' value_counts order), so
 * a `top` that differs while `freq` agrees is a tie: the frequency is judged, the label is not.
 * Both layouts: `top`/`freq` rows (df.describe()) and columns (df.describe().T).
 */
function describeTopTie(a: Table, b: Table, partner: ReadonlyMap<TableRow, TableRow>, colOf: ReadonlyMap<number, number>, within: (v: number, w: number) => boolean): (r: TableRow, k: number) => boolean {
  const same = (x: string | undefined, y: string | undefined): boolean => {
    const vs = tableCellNumbers(x ?? ''), ws = tableCellNumbers(y ?? '');
    return vs.length > 0 && vs.length === ws.length && vs.every((v, n) => within(v, ws[n]!));
  };
  const freqA = a.rows.find((r) => r.label === 'freq');
  const freqB = b.rows.find((r) => r.label === 'freq');
  const topCol = a.columns.indexOf('top'), freqCol = a.columns.indexOf('freq');
  const freqColB = b.columns.indexOf('freq');
  return (r, k) => {
    if (r.label === 'top' && freqA && freqB) {
      const m = colOf.get(k);
      return m !== undefined && same(freqA.cells[k], freqB.cells[m]);
    }
    if (k === topCol && freqCol >= 0 && freqColB >= 0) {
      const o = partner.get(r);
      return !!o && same(r.cells[freqCol], o.cells[freqColB]);
    }
    return false;
  };
}

/**
 * A search's best parameters printed as a dict (`{'C': 10, 'max_depth': 7}` from best_params_)
 * are the argmax of its scores: with scores equal within the tolerance any of the tied candidates
 * may come out. When the cell's other numbers (the best score, the accuracy after it) agree, the
 * parameters are not judged; when they do not, the cell fails on them anyway.
 */
function excuseSearchLabels(source: string, lines: readonly NumberLine[], comparisons: Comparison[]): number {
  if (!/\bbest_params_\b/.test(source)) return 0;
  const labels = new Set(lines.filter((l) => /\{\s*'[^']+'\s*:/.test(l.raw)).map((l) => l.raw));
  if (!labels.size) return 0;
  const others = comparisons.filter((c) => !labels.has(c.context ?? ''));
  if (!others.some((c) => c.ok && c.new !== null) || others.some((c) => !c.ok)) return 0;
  let excused = 0;
  comparisons.forEach((c, i) => {
    if (c.ok || c.new === null || !labels.has(c.context ?? '')) return;
    comparisons[i] = { ...c, ok: true, unjudged: 'tie' };
    excused++;
  });
  return excused;
}

// ---- a cell

export function compareCell(cell: number, orig: CellNumbers, cur: CellNumbers | undefined, tolerance: number, source = ''): { report: CellReport; comparisons: Comparison[] } {
  const comparisons: Comparison[] = [];
  const origTables = orig.tables ?? [];
  const curTables = cur?.tables ?? [];
  // HTML-only tables (no text/plain) carry numbers the lines do not.
  const htmlOnlyNumbers = origTables.reduce((s, t, k) => s + (orig.lines.some((l) => l.table === k) ? 0 : tableNumberCount(t)), 0);
  const origCount = orig.lines.reduce((s, l) => s + l.numbers.length, 0) + htmlOnlyNumbers;
  const images = { original: orig.images, new: cur?.images ?? 0 };
  const textChanged = !!cur && (orig.textLines.length !== cur.textLines.length || orig.textLines.some((t, i) => t !== cur.textLines[i]));
  if (orig.hasError || origCount === 0) {
    const note = orig.hasError ? 'the original run failed in this cell' : 'no numbers in the original outputs';
    return { report: { cell, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, images, textChanged, note }, comparisons };
  }
  if (!cur || (cur.lines.length === 0 && curTables.length === 0)) {
    for (const l of orig.lines.slice(0, MAX_LINES_PER_CELL)) for (const v of l.numbers) comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
    const note = cur?.hasError ? 'the new run failed in this cell' : 'the new run printed no numbers here';
    return { report: { cell, verdict: 'missing', compared: 0, mismatched: 0, unpaired: origCount, images, textChanged, note }, comparisons };
  }
  let compared = 0, mismatched = 0, unpaired = 0;

  // DataFrames both runs showed as HTML tables: by (row label, column label).
  const tablePairs = pairTables(origTables, curTables);
  const pairedOrig = new Set(tablePairs.map((p) => p[0]));
  const pairedCur = new Set(tablePairs.map((p) => p[1]));
  let tables: TableReport | undefined;
  if (tablePairs.length) {
    tables = { compared: tablePairs.length, rowsMissing: [], columnsMissing: [], columnsRenamed: [], rowsReplaced: [], rowsGone: [], columnsGone: [] };
    for (const [i, j] of tablePairs) {
      const t = compareTables(cell, origTables[i]!, curTables[j]!, tolerance);
      comparisons.push(...t.comparisons);
      compared += t.compared; mismatched += t.mismatched; unpaired += t.unpaired;
      tables.rowsMissing.push(...t.rowsMissing);
      tables.columnsMissing.push(...t.columnsMissing);
      tables.columnsRenamed.push(...t.columnsRenamed);
      tables.rowsReplaced.push(...t.rowsReplaced);
      tables.rowsGone.push(...t.rowsGone);
      tables.columnsGone.push(...t.columnsGone);
    }
    tables.rowsMissing = [...new Set(tables.rowsMissing)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsMissing = [...new Set(tables.columnsMissing)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsRenamed = tables.columnsRenamed.slice(0, MAX_LABELS_REPORTED);
    tables.rowsReplaced = tables.rowsReplaced.slice(0, MAX_LABELS_REPORTED);
    tables.rowsGone = [...new Set(tables.rowsGone)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsGone = [...new Set(tables.columnsGone)].slice(0, MAX_LABELS_REPORTED);
  }

  // Everything else, line by line. Very long outputs (a printed array of 20,000 predictions) are
  // compared on their first lines.
  const origRest = orig.lines.filter((l) => l.table === undefined || !pairedOrig.has(l.table));
  const curRest = cur.lines.filter((l) => l.table === undefined || !pairedCur.has(l.table));
  const truncated = origRest.length > MAX_LINES_PER_CELL || curRest.length > MAX_LINES_PER_CELL || tablePairs.some(([i]) => origTables[i]!.rows.length > MAX_LINES_PER_CELL);
  const origLines = origRest.slice(0, MAX_LINES_PER_CELL);
  const curLines = curRest.slice(0, MAX_LINES_PER_CELL);
  const pairs = alignLines(origLines, curLines);
  const byOrig = new Map(pairs.map((p) => [p[0], p]));
  origLines.forEach((l, i) => {
    const p = byOrig.get(i);
    if (!p) {
      unpaired += l.numbers.length;
      for (const v of l.numbers) comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
      return;
    }
    const other = curLines[p[1]]!;
    l.numbers.forEach((v, k) => {
      const w = other.numbers[k];
      if (w === undefined) {
        unpaired++;
        comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
        return;
      }
      const relDiff = relativeDifference(v, w);
      const ok = relDiff <= tolerance + 1e-12;
      compared++;
      if (!ok) mismatched++;
      comparisons.push({ cell, original: v, new: w, relDiff, ok, context: l.raw });
    });
  });
  mismatched -= excuseSearchLabels(source, origLines, comparisons);
  const verdict: CellVerdict = mismatched > 0 ? 'mismatch' : compared === 0 ? 'missing' : unpaired > 0 ? 'partial' : 'match';
  const note = truncated ? `long output: the first ${MAX_LINES_PER_CELL} lines with numbers (or table rows) were compared` : undefined;
  return { report: { cell, verdict, compared, mismatched, unpaired, images, textChanged, ...(note ? { note } : {}), ...(tables ? { tables } : {}) }, comparisons };
}

export function storedOutputsOracle(original: Notebook, current: Notebook, opts: StoredOutputsOptions = {}): OracleVerdict {
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
  const ignore = new Set(opts.ignoreCells ?? []);
  const late = outOfOrderCells(original);
  const cells: CellReport[] = [];
  const comparisons: Comparison[] = [];
  original.cells.forEach((c, i) => {
    if (c.cell_type !== 'code' || ignore.has(i)) return;
    const { cell: kept, stale } = withoutStaleResult(c as CodeCell);
    const orig = cellNumbers(kept);
    const j = opts.cellMap ? opts.cellMap(i) : i;
    const other = j !== undefined ? current.cells[j] : undefined;
    const cur = other && other.cell_type === 'code' ? cellNumbers(other as CodeCell) : undefined;
    const r = compareCell(i, orig, cur, tolerance, sourceText(c.source));
    // A cell that showed nothing in either run has nothing to report.
    if (!stale.length && r.report.verdict === 'not-compared' && !orig.hasError && orig.images === 0 && orig.textLines.length === 0 && !cur?.images && !cur?.lines.length && !cur?.tables.length) return;
    const after = other ? unreachableAfter(other) : undefined;
    if (after !== undefined) {
      // Its stored results are out of reach in any run that keeps the author's own error upstream.
      r.report = { ...r.report, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, note: `the author's own error in cell ${after} leaves this cell unable to run: its stored results are not judged` };
      r.comparisons = [...orig.lines, ...stale].flatMap((l) => l.numbers.map((v) => ({ cell: i, original: v, new: null, relDiff: null, ok: true, unjudged: 'unreachable' as const, context: l.raw })));
      cells.push(r.report);
      comparisons.push(...r.comparisons);
      return;
    }
    // Outputs stored under a cell whose source was later deleted cannot come back.
    if (r.report.verdict !== 'not-compared' && sourceText(c.source).trim() === '') {
      r.report = { ...r.report, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, note: 'the cell has no source: its stored outputs are stale' };
      r.comparisons = [];
    }
    const ooo = late.get(i);
    if (ooo && r.report.verdict !== 'not-compared') {
      r.report.outOfOrder = true;
      const why = `the original ran this cell after cell ${ooo.laterCell} (execution count ${ooo.count} > ${ooo.laterCount}), which sets ${ooo.names.join(', ')}`;
      r.report.note = r.report.note ? `${r.report.note}; ${why}` : why;
      for (const x of r.comparisons) x.outOfOrder = true;
    }
    if (stale.length) {
      const why = "a stored result the cell's current source cannot produce (its last statement has no value): stale, not judged";
      r.report.note = r.report.note ? `${r.report.note}; ${why}` : why;
      r.comparisons.push(...stale.map((l) => l.numbers.map((v) => ({ cell: i, original: v, new: null, relDiff: null, ok: true, unjudged: 'stale' as const, context: l.raw }))).flat());
    }
    cells.push(r.report);
    comparisons.push(...r.comparisons);
  });
  const judged = cells.filter((c) => c.verdict !== 'not-compared');
  const count = (v: CellVerdict): number => cells.filter((c) => c.verdict === v).length;
  const numbersCompared = judged.reduce((s, c) => s + c.compared, 0);
  const excuse = (opts.outOfOrder ?? 'report') === 'report';
  const failing = (c: CellReport): boolean => (c.verdict === 'mismatch' || c.verdict === 'missing') && !(excuse && c.outOfOrder);
  const details = {
    tolerance,
    cellsJudged: judged.length,
    cellsMatched: count('match'),
    cellsPartial: count('partial'),
    cellsMismatched: count('mismatch'),
    cellsMissing: count('missing'),
    numbersCompared,
    numbersMismatched: judged.reduce((s, c) => s + c.mismatched, 0),
    numbersUnpaired: judged.reduce((s, c) => s + c.unpaired, 0),
    imagesOriginal: cells.reduce((s, c) => s + c.images.original, 0),
    imagesNew: cells.reduce((s, c) => s + c.images.new, 0),
    cellsWithTextChanges: cells.filter((c) => c.textChanged).map((c) => c.cell),
    /** Judged cells the original ran out of order. */
    cellsOutOfOrder: judged.filter((c) => c.outOfOrder).map((c) => c.cell),
    /** Cells whose mismatch or missing numbers fail the notebook. */
    cellsFailing: cells.filter(failing).map((c) => c.cell),
    cells,
  };
  if (judged.length === 0) {
    return { oracle: 'none', matches: true, details: { ...details, reason: 'the original notebook has no stored numeric outputs to compare with' }, comparisons };
  }
  const matches = details.cellsFailing.length === 0 && numbersCompared > 0;
  const reasons: string[] = [];
  for (const c of cells) {
    const tag = c.outOfOrder && excuse ? ' (not judged: the original ran it out of order)' : '';
    if (c.verdict === 'mismatch') {
      const worst = comparisons.filter((x) => x.cell === c.cell && !x.ok && x.new !== null).sort((a, b) => (b.relDiff ?? 0) - (a.relDiff ?? 0))[0];
      const gone = [...(c.tables?.rowsGone ?? []).map((r) => `row ${r}`), ...(c.tables?.columnsGone ?? []).map((k) => `column ${k}`)];
      const eg = worst ? ` (e.g. ${worst.original} -> ${worst.new})` : gone.length ? ` (${gone.slice(0, 3).join(', ')} gone)` : '';
      reasons.push(`cell ${c.cell}: ${c.mismatched} of ${c.compared} numbers differ${eg}${tag}`);
    } else if (c.verdict === 'missing') reasons.push(`cell ${c.cell}: ${(c.note ?? 'numbers missing').split('; ')[0]}${tag}`);
  }
  return { oracle: 'stored-outputs', matches, details: { ...details, ...(reasons.length ? { reason: reasons.join('; ') } : {}) }, comparisons };
}

/** The author's failing cell when this run's cell raised only as a consequence of it (metadata written by the executor). */
function unreachableAfter(cell: Notebook['cells'][number]): number | undefined {
  const after = (cell.metadata as { nbmodernize?: { asAuthor?: { after?: unknown } } } | undefined)?.nbmodernize?.asAuthor?.after;
  return typeof after === 'number' ? after : undefined;
}

/** The cell without a stored execute_result its source cannot produce, and that result's numbers. */
function withoutStaleResult(c: CodeCell): { cell: CodeCell; stale: NumberLine[] } {
  const results = (c.outputs ?? []).filter((o) => o.output_type === 'execute_result');
  // (An emptied cell is handled on its own below: all its outputs are stale.)
  const src = sourceText(c.source);
  if (!results.length || !src.trim() || !cannotHaveResult(src)) return { cell: c, stale: [] };
  const stale = cellNumbers({ ...c, outputs: results }).lines;
  return { cell: { ...c, outputs: c.outputs.filter((o) => o.output_type !== 'execute_result') }, stale };
}

/** True when the notebook carries stored numeric outputs the stored-outputs oracle can use. */
export function hasStoredNumbers(nb: Notebook): boolean {
  return nb.cells.some((c) => {
    if (c.cell_type !== 'code' || sourceText(c.source).trim() === '') return false;
    const n = cellNumbers(c as CodeCell);
    return !n.hasError && (n.lines.length > 0 || n.tables.some((t) => tableNumberCount(t) > 0));
  });
}

// ---------------------------------------------------------------- choosing

export interface OracleInputs {
  original: Notebook;
  current: Notebook;
  /** Set when the user gave --expected-score (with a metric and ground truth). */
  expectedScore?: Omit<ExpectedScoreInput, 'submission'>;
  /** The submission file the run wrote (see findSubmissionFile). */
  submission?: string | Csv;
  tolerance?: number;
  storedOutputs?: Omit<StoredOutputsOptions, 'tolerance'>;
}

/** The oracle in order of preference: expected score, then stored outputs, else none. */
export function judge(inputs: OracleInputs): OracleVerdict {
  const tol = inputs.tolerance ?? DEFAULT_TOLERANCE;
  if (inputs.expectedScore) {
    return expectedScoreOracle({ ...inputs.expectedScore, tolerance: inputs.expectedScore.tolerance ?? tol, ...(inputs.submission !== undefined ? { submission: inputs.submission } : {}) });
  }
  return storedOutputsOracle(inputs.original, inputs.current, { ...(inputs.storedOutputs ?? {}), tolerance: tol });
}

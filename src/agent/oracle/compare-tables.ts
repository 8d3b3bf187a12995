/**
 * Comparing two aligned tables of a cell by (row label, column label): rows replaced or gone, ties
 * of sorted and describe() tables, shapes of truncated frames.
 */
import { tableCellNumbers } from './numbers.js';
import { relativeDifference } from './scorers.js';
import type { Table, TableRow } from './tables.js';
import { columnPairs } from './align.js';
import { MAX_LINES_PER_CELL, type Comparison } from './types.js';

/**
 * 1 (-1) when the table's rows are in non-decreasing (non-increasing) order of column k, with at
 * least 3 numbers; 2 when they are all equal (a head() cut inside one tie: `groupby(...).mean()
 * .sort_values(ascending=False).head()` where many groups share the top value); else 0.
 */
function sortedOn(t: Table, k: number): number {
  const vs = t.rows.map((r) => tableCellNumbers(r.cells[k] ?? '')[0]);
  if (vs.length < 3 || vs.some((v) => v === undefined)) return 0;
  const up = vs.every((v, i) => i === 0 || v! >= vs[i - 1]!);
  const down = vs.every((v, i) => i === 0 || v! <= vs[i - 1]!);
  return up && down ? 2 : up ? 1 : down ? -1 : 0;
}

/** Both tables ordered the same way on a column (all equal fits either direction). */
function sameOrder(a: number, b: number): boolean {
  return a !== 0 && b !== 0 && (a === b || a === 2 || b === 2);
}

/**
 * scikit-learn's timing columns of a search's `cv_results_` (`mean_fit_time`, `std_score_time`, ...)
 * and of `cross_validate` (`fit_time`, `score_time`): seconds on the author's machine, not results.
 * Documented names (model_selection user guide), so recognised by name, not by a second run.
 */
export const TIMING_COLUMN = /^(?:(?:mean|std)_)?(?:fit|score)_time$/;

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
    const sortKeys = cols.filter(([k, m]) => sameOrder(sortedOn(a, k), sortedOn(b, m)));
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
      const timing = TIMING_COLUMN.test(a.columns[k]!.trim());
      vs.forEach((v, n) => {
        const w = ws.length === vs.length ? ws[n] : undefined;
        if (timing) {
          comparisons.push({ cell, original: v, new: w ?? null, relDiff: w === undefined ? null : relativeDifference(v, w), ok: true, unjudged: 'nondeterministic', context, ...where });
          return;
        }
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

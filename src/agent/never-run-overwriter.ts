/**
 * A cell the author never ran can break the cells after it without failing itself: `train =
 * fill_ages(train)` with a function that returns None, a `df.drop(cols, inplace=True)` the author
 * wrote and never executed. The author's recorded cells after it ran on the state of the cells they
 * did run; here the never-run cell's binding replaces that state, and a recorded cell fails on it
 * (`'NoneType' object is not subscriptable`, a KeyError for a dropped column).
 *
 * When a recorded cell fails, nothing repairs it, and the last cell that (re)binds or changes a name
 * it reads (recorded cells that only change it in place aside) is one the author never ran, while a
 * recorded cell above that one binds the same name,
 * that never-run cell is the candidate to skip: the run then gives the failing cell the binding the
 * author's run gave it. The loop skips it (marked in the output notebook, named in the verdict) and
 * re-runs from a fresh kernel; the re-run, not this guess, decides whether the failure goes away.
 * Nearest first; a cell already skipped is not a binder any more, so the next never-run one above
 * may be tried after it.
 */
import type { ExpectedError } from '../core/run-result.js';
import type { NotebookDefUse } from '../fixers/python/defuse.js';
import { escapeRe } from '../fixers/rules/helpers.js';

export interface Overwriter { cell: number; names: string[]; expected: ExpectedError }

/**
 * @param failing the recorded cell that fails and that nothing repairs
 * @param order the run order when it is not top to bottom (cells' positions in it), else undefined
 * @param skipped cells no longer run (already skipped)
 * @param label the column the error says is missing (KeyError 'SalePrice'), with the cells' text
 */
export function neverRunOverwriter(du: NotebookDefUse, failing: number, ename: string, neverRun: ReadonlySet<number>, skipped: ReadonlySet<number>, order?: readonly number[], label?: string, source?: (cell: number) => string): Overwriter | undefined {
  if (neverRun.has(failing)) return undefined;
  const pos = (cell: number): number => (order ? order.indexOf(cell) : cell);
  const at = pos(failing);
  const reads = du.byCell.get(failing)?.uses ?? [];
  // Cells that run before the failing one, nearest first.
  const above = du.cells.filter((c) => !skipped.has(c.cell) && pos(c.cell) >= 0 && pos(c.cell) < at).sort((a, b) => pos(b.cell) - pos(a.cell));
  const found = new Map<number, string[]>();
  for (const name of new Set(reads)) {
    const binders = above.filter((c) => c.defines.includes(name) || c.mutates.includes(name));
    // The nearest never-run binder, past recorded cells that only change the value in place (a
    // recorded `test.drop('Embarked', inplace=True)` below it keeps its effect); a recorded cell that
    // binds the name anew wipes it, so none past that.
    const k = binders.findIndex((c) => neverRun.has(c.cell) || c.defines.includes(name));
    const last = k >= 0 ? binders[k] : undefined;
    if (!last || !neverRun.has(last.cell)) continue;
    // Skipping must leave the author's binding, not no binding at all.
    if (!binders.slice(k + 1).some((c) => !neverRun.has(c.cell) && c.defines.includes(name))) continue;
    found.set(last.cell, [...(found.get(last.cell) ?? []), name]);
  }
  const cell = [...found.keys()].sort((a, b) => pos(b) - pos(a))[0];
  if (cell === undefined) return label && source ? labelRemover(du, failing, ename, label, source, above.map((c) => c.cell), neverRun) : undefined;
  const names = found.get(cell)!;
  return skip(cell, failing, ename, names, `it rebinds ${names.map((n) => `\`${n}\``).join(', ')}, which cell ${failing} (run by the author) reads, and cell ${failing} fails here with ${ename} and no fix applies; it is not run, so cell ${failing} gets the binding of the author's run`);
}

function skip(cell: number, failing: number, ename: string, names: string[], why: string): Overwriter {
  const reason = `the author never ran this cell (no execution count, no outputs); ${why}`;
  return { cell, names, expected: { ename, neverRun: true, skipped: true, overwrites: { cell: failing, names }, reason } };
}

/**
 * The column the failing cell misses was removed by a cell the author never ran (`X.drop('SalePrice',
 * axis=1, inplace=True)`, `del df['Id']`, `df.pop('y')`), possibly through a cell feeding it that the
 * name test above cannot see past (`corr = X.corr()` never run either, then `corr['SalePrice']`):
 * the nearest such never-run cell above is the one to skip. The error names the column, the cell's
 * text removes exactly it; the re-run decides.
 */
function labelRemover(du: NotebookDefUse, failing: number, ename: string, label: string, source: (cell: number) => string, aboveNearestFirst: number[], neverRun: ReadonlySet<number>): Overwriter | undefined {
  const q = escapeRe(label);
  const removes = new RegExp(`\\.drop\\([^)]*['"]${q}['"]|\\bdel\\s+[\\w.]+\\[\\s*['"]${q}['"]\\s*\\]|\\.pop\\(\\s*['"]${q}['"]`);
  const cell = aboveNearestFirst.find((c) => neverRun.has(c) && removes.test(source(c)));
  if (cell === undefined) return undefined;
  const names = [...new Set(du.byCell.get(cell)?.mutates ?? [])];
  return skip(cell, failing, ename, names, `it removes the column '${label}', which cell ${failing} (run by the author) fails to find here (${ename}) and no fix applies; it is not run, so cell ${failing} sees the column as in the author's run`);
}

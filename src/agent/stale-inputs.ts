/**
 * A drift in a cell whose inputs the author made again long after it ran: the cell that last binds a
 * frame it reads (above it in the notebook) carries a much higher execution count than it does
 * (`print(df_clean.shape)` stored at [11], `df_clean = df.drop(...)` at [210]). The stored output
 * came from the state an earlier execution of that cell left — often an earlier version of its code
 * (16 columns then, 14 in the code the notebook holds) — which no run of the notebook's code can give.
 * oracle/order.ts judges such cells (a cell re-run at the end most often ran before too, with the
 * same effect); when one drifts and the rules found nothing, the value is set aside as `stale`, not
 * judged, and the verdict rests on the other values.
 *
 * Only binders that derive what they bind from other state count (`df_clean = df.drop(...)`): a
 * cell that binds afresh from a file or literals (`train = pd.read_csv(...)`) gives the same state
 * whenever it is re-run.
 */
import { sourceText, type CodeCell, type Notebook } from '../core/notebook.js';
import { analyzeNotebook, mentionedNames } from '../fixers/python/defuse.js';
import type { FixDiagnosis } from './fixers.js';
import { failingValuesIn, type OracleVerdict, type UnjudgedReason } from './oracle/index.js';

/** How much later the binder must have run: a cell re-run a few steps later is a correction the output may have seen. */
export const RE_MADE_AFTER = 3;

export interface StaleInputs { cell: number; count: number; inputs: Array<{ cell: number; count: number; names: string[] }> }

/**
 * For each name the cell reads, the nearest cell above it that binds it; those whose recorded count
 * is more than RE_MADE_AFTER above the cell's, and that derive the value from other names.
 */
export function reMadeInputs(original: Notebook, cell: number): StaleInputs | undefined {
  const target = original.cells[cell];
  if (target?.cell_type !== 'code' || typeof target.execution_count !== 'number') return undefined;
  const count = target.execution_count;
  const reads = mentionedNames(sourceText(target.source));
  const notebook = analyzeNotebook(original);
  const modules = new Set(notebook.cells.flatMap((c) => c.imports.map((i) => i.bound)));
  const found = new Map<number, string[]>();
  const open = new Set([...reads].filter((n) => !modules.has(n)));
  for (let i = cell - 1; i >= 0 && open.size; i--) {
    const du = notebook.byCell.get(i);
    if (!du) continue;
    const bound = [...du.defines, ...du.mutates].filter((n) => open.has(n));
    if (!bound.length) continue;
    for (const n of bound) open.delete(n);
    const c = original.cells[i] as CodeCell;
    const derived = du.uses.some((u) => !modules.has(u));
    if (typeof c.execution_count === 'number' && c.execution_count - count > RE_MADE_AFTER && derived) found.set(i, bound);
  }
  if (!found.size) return undefined;
  return { cell, count, inputs: [...found].map(([i, names]) => ({ cell: i, count: (original.cells[i] as CodeCell).execution_count as number, names: names.slice(0, 5) })) };
}

/** The drifted cell's values to set aside as stale (added to `unstable`, their reason to `why`), or undefined. */
export function staleInputsAside(original: Notebook, d: FixDiagnosis, verdict: () => OracleVerdict, unstable: Set<string>, why: Map<string, UnjudgedReason>): (StaleInputs & { unstable: string[] }) | undefined {
  if (d.fixType !== 'score-calibration') return undefined;
  const stale = reMadeInputs(original, d.cell);
  if (!stale) return undefined;
  const keys = failingValuesIn(verdict(), new Set([d.cell])).filter((k) => !unstable.has(k));
  if (!keys.length) return undefined;
  for (const k of keys) {
    unstable.add(k);
    why.set(k, 'stale');
  }
  return { ...stale, unstable: keys };
}

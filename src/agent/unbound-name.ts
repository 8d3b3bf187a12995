/**
 * A NameError for a name no cell of the notebook binds is not an API break: the author ran a cell
 * that was later deleted (or defined the name in a console session), so the code that made the
 * value is missing and no rewrite can restore it. Said plainly, it is `unfixable`, not
 * `no-fix-available`. Anything that could bind a name invisibly (a star import, `%run`, `exec`,
 * writes to `globals()`, `%store -r`) keeps the claim back, as do Python 2 builtins and loop
 * targets (a Python 2 comprehension leaked its variable): those are rules' business.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import type { ExpectedError } from '../core/run-result.js';
import { analyzeNotebook, type NotebookDefUse } from '../fixers/python/defuse.js';

const PY2_BUILTINS = new Set(['unicode', 'xrange', 'raw_input', 'reduce', 'file', 'long', 'basestring', 'unichr', 'execfile', 'cmp', 'reload', 'buffer', 'apply', 'intern', 'coerce']);
const INVISIBLE_BINDING = /^\s*%(run|store)\b|^\s*from\s+\S+\s+import\s+\*|\bexec\s*\(|\bexecfile\s*\(|\bglobals\s*\(\s*\)\s*\[|\bglobals\s*\(\s*\)\s*\.update|\bvars\s*\(\s*\)\s*\[|\bsetattr\s*\(\s*(sys\.modules|__builtins__)/m;

/**
 * The name a NameError names, when no cell binds it and nothing could bind it invisibly. `du`, the
 * notebook's def-use analysis, when the caller needs it too (it is the costly part: every cell parsed).
 */
export function unboundName(nb: Notebook, error: { ename: string; evalue: string }, du?: () => NotebookDefUse): string | undefined {
  if (error.ename !== 'NameError') return undefined;
  const name = /name '(\w+)' is not defined/.exec(error.evalue)?.[1];
  if (!name || PY2_BUILTINS.has(name)) return undefined;
  const sources = nb.cells.filter((c) => c.cell_type === 'code').map((c) => sourceText(c.source));
  if (sources.some((s) => INVISIBLE_BINDING.test(s))) return undefined;
  // Python 2 leaked a list comprehension's variable into the enclosing scope: a name that is a
  // loop target anywhere may be one of those, which a rule could still repair.
  const loopTarget = new RegExp(`\\bfor\\s+[\\w\\s,()]*\\b${name}\\b[\\w\\s,()]*\\bin\\b`);
  if (sources.some((s) => loopTarget.test(s))) return undefined;
  const analysis = du ? du() : analyzeNotebook(nb);
  if (analysis.cells.some((c) => c.hasSyntaxErrors || c.defines.includes(name))) return undefined;
  return name;
}

/** Cells skipped for reading a name no cell binds, at most, per notebook: each costs a run from a fresh kernel. */
export const MAX_UNBOUND_SKIPS = 3;

/**
 * A recorded cell that fails on a name no cell binds (above) is a leaf of the author's deleted code
 * when nothing after it depends on the cell: no later cell (in run order) reads a name it binds —
 * except imports that a cell before it binds too — and it changes nothing in place (`df['x'] = ...`,
 * `model.fit(...)`) that a later cell reads. A heat map of a deleted `corrmat`, a print of a deleted
 * score: the code that made the value is missing, so that cell cannot be restored, but the cells
 * after it ran the same with or without it. It is skipped (marked in the output notebook, its stored
 * outputs unjudged, named in the verdict) and the rest is still run and judged; a cell others depend
 * on still stops the run as `unfixable`.
 */
export function unboundLeafExcuse(nb: Notebook, cell: number, error: { ename: string; evalue: string }, order?: readonly number[]): ExpectedError | undefined {
  if (nb.cells[cell]?.cell_type !== 'code' || nb.cells[cell]!.execution_count == null) return undefined;
  let analysis: NotebookDefUse | undefined;
  const analyze = (): NotebookDefUse => (analysis ??= analyzeNotebook(nb));
  const name = unboundName(nb, error, analyze);
  if (!name) return undefined;
  const du = analyze();
  const failing = du.byCell.get(cell);
  if (!failing || failing.hasSyntaxErrors) return undefined;
  const pos = (c: number): number => (order ? order.indexOf(c) : c);
  const at = pos(cell);
  const before = du.cells.filter((c) => pos(c.cell) >= 0 && pos(c.cell) < at);
  const after = du.cells.filter((c) => pos(c.cell) > at);
  const importedHere = new Set(failing.imports.map((i) => i.bound));
  const boundBefore = (n: string): boolean => before.some((c) => c.defines.includes(n));
  const needed = [...failing.defines.filter((n) => !(importedHere.has(n) && boundBefore(n))), ...failing.mutates];
  const readLater = needed.filter((n) => after.some((c) => c.uses.includes(n) || c.deferred.includes(n) || c.mutates.includes(n)));
  if (readLater.length) return undefined;
  return {
    ename: error.ename,
    skipped: true,
    unbound: name,
    reason: `the cell reads \`${name}\`, which no cell of the notebook binds (the author's run defined it in a cell the notebook no longer holds), and no later cell reads what this cell binds or changes; the code that made \`${name}\` is missing, so the cell is not run and the rest is judged without it`,
  };
}

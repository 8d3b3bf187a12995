/**
 * The errors of the author's own run, read from the stored outputs: more than one notebook in five
 * carries an error output (a NameError after a deleted cell, a KeyError the author moved past, a
 * cell they interrupted). Running the notebook "as its author ran it" means the same exception in
 * the same cell is part of the record, not a failure to repair; and a cell the author interrupted
 * is not run to completion here either.
 *
 * The record also says which cells the author never ran: in a notebook with execution counts, a
 * code cell with none and no outputs. When such a cell does not even compile (pasted output, notes
 * typed into a code cell, half-written code), its SyntaxError is the author's too.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import type { ExpectedError } from '../core/run-result.js';
import { innermostNotebookFrame } from '../core/traceback.js';
import type { ExecuteCellsOptions } from '../executor/run-notebook.js';
import type { NotebookDefUse } from '../fixers/python/defuse.js';
import { parsePython } from '../fixers/python/parser.js';
import { maskIPythonLines } from '../fixers/python/ipython.js';

/**
 * Code cells the author never ran: in a notebook with execution counts, a non-empty code cell with
 * no count and no outputs. (A notebook without any counts says nothing about which cells ran.)
 */
export function neverRunByAuthor(nb: Notebook): Set<number> {
  const out = new Set<number>();
  if (!nb.cells.some((c) => c.cell_type === 'code' && typeof c.execution_count === 'number')) return out;
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type === 'code' && cell.execution_count == null && !(cell.outputs ?? []).length && sourceText(cell.source).trim()) out.add(index);
  });
  return out;
}

/**
 * Code cells that were still running when the author saved the notebook: in a notebook with
 * execution counts, a code cell with no count ("In [*]", which Jupyter saves as null) but with
 * outputs, none of them an error. Its outputs are the part the author saw (the first scores of a
 * long search loop); the cells below it were saved before it finished.
 */
export function savedWhileRunning(nb: Notebook): Set<number> {
  const out = new Set<number>();
  if (!nb.cells.some((c) => c.cell_type === 'code' && typeof c.execution_count === 'number')) return out;
  nb.cells.forEach((cell, index) => {
    const outputs = cell.cell_type === 'code' ? cell.outputs ?? [] : [];
    if (cell.cell_type === 'code' && cell.execution_count == null && outputs.length && !outputs.some((o) => o.output_type === 'error')) out.add(index);
  });
  return out;
}

/**
 * Code cells the author ran but did not finish: a cell with an execution count and no outputs at all,
 * whose code ends in a top-level `print(...)` (unconditional, to stdout) that would have written
 * something had the cell reached it. The author's run raised or was interrupted there and the error
 * output was cleared (a cleared cell clears everything, and a finished run of it prints). A cell
 * magic (`%%capture`) may swallow the print, so those cells are left out. Cells saved while they
 * ran (savedWhileRunning) are unfinished too.
 */
export function unfinishedByAuthor(nb: Notebook): Set<number> {
  const out = savedWhileRunning(nb);
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type !== 'code' || typeof cell.execution_count !== 'number' || (cell.outputs ?? []).length) return;
    const src = sourceText(cell.source);
    if (/^\s*%%/.test(src) || !/\bprint\s*\(/.test(src)) return;
    const tree = parsePython(maskIPythonLines(src).code);
    try {
      const last = tree.rootNode.namedChildren.filter((n) => n && n.type !== 'comment').at(-1);
      const call = last?.type === 'expression_statement' ? last.namedChildren[0] : undefined;
      const fn = call?.type === 'call' ? call.childForFieldName('function') : undefined;
      const args = call?.childForFieldName('arguments');
      const toFile = args?.namedChildren.some((a) => a?.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'file');
      if (fn?.type === 'identifier' && fn.text === 'print' && !toFile && !tree.rootNode.hasError) out.add(index);
    } finally {
      tree.delete();
    }
  });
  return out;
}

/** Cell index -> the exception the author's record says that cell raises (code cells only). */
export function storedErrors(nb: Notebook): Map<number, ExpectedError> {
  const out = new Map<number, ExpectedError>();
  const neverRun = neverRunByAuthor(nb);
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type !== 'code') return;
    for (const o of cell.outputs ?? []) {
      const ename = (o as { output_type?: string; ename?: unknown }).output_type === 'error' ? (o as { ename?: unknown }).ename : undefined;
      if (typeof ename === 'string' && ename) {
        const tb = (o as { traceback?: unknown }).traceback;
        const line = Array.isArray(tb) ? innermostNotebookFrame(tb.filter((t): t is string => typeof t === 'string'))?.text : undefined;
        out.set(index, { ename, reason: `the original run raised ${ename} in this cell too`, ...(line ? { line } : {}) });
        return;
      }
    }
    if (neverRun.has(index)) {
      out.set(index, { ename: 'SyntaxError', neverRun: true, reason: 'the author never ran this cell (no execution count, no outputs) and it does not compile' });
    }
  });
  return out;
}


/**
 * A later cell that fails only because the author's own error left a name unbound: `NameError: name
 * 'x'` where every cell binding `x` raised the author's recorded error in this run. The author's
 * final run was in the same state (their later cells ran earlier, when the failing cell still
 * worked); the consequence is part of the record too, and the cell's stored outputs are out of reach.
 */
export function authorErrorConsequence(defUse: () => NotebookDefUse): NonNullable<ExecuteCellsOptions['followsAuthorError']> {
  let du: NotebookDefUse | undefined; // analysed on the first NameError only: most runs never ask
  return (_index, error, raisedAsAuthor) => {
    const name = error.ename === 'NameError' ? /name '([^']+)' is not defined/.exec(error.evalue)?.[1] : undefined;
    if (!name || !raisedAsAuthor.size) return undefined;
    du ??= defUse();
    const binders = du.cells.filter((c) => c.defines.includes(name)).map((c) => c.cell);
    if (!binders.length || !binders.every((b) => raisedAsAuthor.has(b))) return undefined;
    const after = binders[binders.length - 1]!;
    return { ename: 'NameError', after, reason: `${name} is bound only in cell ${after}, which raised the author's own error there: this cell could not run after it in the author's record either` };
  };
}

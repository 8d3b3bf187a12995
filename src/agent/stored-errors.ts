/**
 * The errors of the author's own run, read from the stored outputs: more than one notebook in five
 * carries an error output (a NameError after a deleted cell, a KeyError the author moved past, a
 * cell they interrupted). Running the notebook "as its author ran it" means the same exception in
 * the same cell is part of the record, not a failure to repair; and a cell the author interrupted
 * is not run to completion here either.
 */
import type { Notebook } from '../core/notebook.js';

/** Cell index -> exception class of the error output stored in that cell (code cells only). */
export function storedErrors(nb: Notebook): Map<number, string> {
  const out = new Map<number, string>();
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type !== 'code') return;
    for (const o of cell.outputs ?? []) {
      const ename = (o as { output_type?: string; ename?: unknown }).output_type === 'error' ? (o as { ename?: unknown }).ename : undefined;
      if (typeof ename === 'string' && ename) {
        out.set(index, ename);
        return;
      }
    }
  });
  return out;
}

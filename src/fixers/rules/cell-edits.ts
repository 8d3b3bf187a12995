/**
 * Text edits on several cells made into a patch's cell replacements. Edits are offsets into the
 * cell's source (the masked parse keeps offsets) and are applied from the end, so earlier offsets
 * stay valid. Used by the repairs that are not per-cell rules (candidates built from an error).
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { TextEdit } from './types.js';

export function cellReplacements(nb: Notebook, edits: ReadonlyMap<number, readonly TextEdit[]>): Array<{ cell: number; op: 'replace'; newSource: string }> {
  return [...edits].map(([cell, es]) => {
    let src = sourceText(nb.cells[cell]!.source);
    for (const e of [...es].sort((a, b) => b.start - a.start)) src = src.slice(0, e.start) + e.text + src.slice(e.end);
    return { cell, op: 'replace' as const, newSource: src };
  });
}

/** Group edits by cell (insertion order kept), for cellReplacements. */
export function addCellEdit(edits: Map<number, TextEdit[]>, cell: number, edit: TextEdit): void {
  edits.set(cell, [...(edits.get(cell) ?? []), edit]);
}

/**
 * Text edits on several cells made into a patch's cell replacements (each cell's edits applied by
 * python/edits.ts). Used by the repairs that are not per-cell rules (candidates built from an error).
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import { applyTextEdits, type TextEdit } from '../python/edits.js';

export function cellReplacements(nb: Notebook, edits: ReadonlyMap<number, readonly TextEdit[]>): Array<{ cell: number; op: 'replace'; newSource: string }> {
  return [...edits].map(([cell, es]) => ({ cell, op: 'replace' as const, newSource: applyTextEdits(sourceText(nb.cells[cell]!.source), es) }));
}

/** Group edits by cell (insertion order kept), for cellReplacements. */
export function addCellEdit(edits: Map<number, TextEdit[]>, cell: number, edit: TextEdit): void {
  edits.set(cell, [...(edits.get(cell) ?? []), edit]);
}

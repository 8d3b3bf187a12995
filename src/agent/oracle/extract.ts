/**
 * Extracting what the original run stored: a cell's numbers and tables (numbers.ts), less a stored
 * result its current source cannot produce (stale-results.ts).
 */
import { sourceText, type CodeCell, type Notebook } from '../../core/notebook.js';
import { cellNumbers, tableNumberCount, type NumberLine } from './numbers.js';
import { cannotHaveResult } from './stale-results.js';

/** The cell without a stored execute_result its source cannot produce, and that result's numbers. */
export function withoutStaleResult(c: CodeCell): { cell: CodeCell; stale: NumberLine[] } {
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

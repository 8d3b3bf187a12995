/**
 * Extracting what the original run stored: a cell's numbers and tables (numbers.ts), less a stored
 * result its current source cannot produce (stale-results.ts).
 */
import { sourceText, type CodeCell, type Notebook } from '../../core/notebook.js';
import { cellNumbers, tableNumberCount, type NumberLine } from './numbers.js';
import { cannotHaveResult, resultRowLimit, statedRows } from './stale-results.js';

/** The cell without a stored execute_result its source cannot produce, and that result's numbers. */
export function withoutStaleResult(c: CodeCell): { cell: CodeCell; stale: NumberLine[] } {
  const results = (c.outputs ?? []).filter((o) => o.output_type === 'execute_result');
  // (An emptied cell is handled on its own below: all its outputs are stale.)
  const src = sourceText(c.source);
  if (!results.length || !src.trim() || !(cannotHaveResult(src) || moreRowsThanSource(results, src))) return { cell: c, stale: [] };
  const stale = cellNumbers({ ...c, outputs: results }).lines;
  return { cell: { ...c, outputs: c.outputs.filter((o) => o.output_type !== 'execute_result') }, stale };
}

/**
 * A stored frame stating more rows than the cell's last statement can show (`[1460 rows x 13
 * columns]` under `df.head(10)`): the author edited the cell (added the `.head`) after it ran.
 */
function moreRowsThanSource(results: CodeCell['outputs'], src: string): boolean {
  const limit = resultRowLimit(src);
  if (limit === undefined) return false;
  return results.some((o) => {
    const data = (o as { data?: Record<string, unknown> }).data ?? {};
    return [data['text/plain'], data['text/html']].some((t) => {
      const rows = t === undefined ? undefined : statedRows(sourceText(t as string | string[]));
      return rows !== undefined && rows > limit;
    });
  });
}

/** True when the notebook carries stored numeric outputs the stored-outputs oracle can use. */
export function hasStoredNumbers(nb: Notebook): boolean {
  return nb.cells.some((c) => {
    if (c.cell_type !== 'code' || sourceText(c.source).trim() === '') return false;
    const n = cellNumbers(c as CodeCell);
    return !n.hasError && (n.lines.length > 0 || n.tables.some((t) => tableNumberCount(t) > 0));
  });
}

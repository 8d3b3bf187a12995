/**
 * drift.diff for a baseline audit: no code changed, so what a reader wants next to the verdict is
 * how the outputs changed — the stored outputs of the original run against this run's, per code
 * cell, for the cells that differ (the failing cell and drifted numbers first in line order).
 */
import { sourceText, type CodeCell, type Notebook, type Output } from '../../core/notebook.js';
import { cellDiff } from '../../core/cell-diff.js';

const MAX_LINES = 40;
const MAX_CELLS = 30;

/** The text a reader sees under a cell; images and HTML as one placeholder line. */
export function outputText(outputs: Output[]): string {
  const parts: string[] = [];
  for (const o of outputs) {
    if (o.output_type === 'stream') parts.push(sourceText(o.text as string | string[]));
    else if (o.output_type === 'error') parts.push(`${o.ename}: ${o.evalue}\n`);
    else {
      const data = o.data ?? {};
      const text = data['text/plain'];
      if (text !== undefined) parts.push(sourceText(text as string | string[]));
      const images = Object.keys(data).filter((k) => k.startsWith('image/'));
      if (images.length) parts.push(`[${images[0]}]\n`);
      else if (text === undefined && data['text/html'] !== undefined) parts.push('[text/html]\n');
    }
  }
  const lines = parts.join('').replace(/\r/g, '').split('\n');
  const cut = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `... ${lines.length - MAX_LINES} more lines`] : lines;
  return cut.join('\n').replace(/\n*$/, '\n');
}

export function outputDrift(original: Notebook, executed: Notebook): string {
  const diffs: string[] = [];
  for (let i = 0; i < original.cells.length && diffs.length < MAX_CELLS; i++) {
    const a = original.cells[i];
    const b = executed.cells[i];
    if (a?.cell_type !== 'code' || b?.cell_type !== 'code') continue;
    // Cells after the failing one did not run: "all output gone" would say nothing new.
    if ((b.metadata as any)?.nbmodernize?.status === 'not-run') continue;
    const before = outputText((a as CodeCell).outputs ?? []);
    const after = outputText((b as CodeCell).outputs ?? []);
    if (before === after) continue;
    diffs.push(cellDiff(i, before, after, 'outputs of cell'));
  }
  return diffs.join('\n');
}

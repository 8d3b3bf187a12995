/** Small notebooks built in code, so every test shows exactly what it runs. */
import path from 'node:path';
import type { Notebook } from '../../src/core/notebook.js';
import { packageRoot } from '../../src/core/paths.js';

export function makeNotebook(cells: Array<string | { markdown: string }>, kernel = 'python3'): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 4,
    metadata: { kernelspec: { name: kernel, display_name: kernel, language: 'python' } },
    cells: cells.map((c) =>
      typeof c === 'string'
        ? { cell_type: 'code' as const, source: c, metadata: {}, outputs: [], execution_count: null }
        : { cell_type: 'markdown' as const, source: c.markdown, metadata: {} },
    ),
  };
}

export function fixturePath(...parts: string[]): string {
  return path.join(packageRoot(), 'test', 'fixtures', ...parts);
}

export const MINI_DATA = () => ({ dir: fixturePath('data', 'mini-comp'), competition: 'mini-comp' });

/** Text of all stream/execute_result outputs of one cell. */
export function cellText(nb: Notebook, index: number): string {
  const cell = nb.cells[index];
  if (cell.cell_type !== 'code') return '';
  return cell.outputs
    .map((o: any) => (o.output_type === 'stream' ? [].concat(o.text).join('') : o.output_type === 'execute_result' ? [].concat(o.data['text/plain'] ?? '').join('') : ''))
    .join('');
}

/** Code cells with the given stored execution counts (null: never run). */
export function withCounts(cells: string[], counts: Array<number | null>): Notebook {
  const nb = makeNotebook(cells);
  nb.cells.forEach((c, i) => { (c as { execution_count?: number | null }).execution_count = counts[i]; });
  return nb;
}

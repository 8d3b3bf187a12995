import type { Cell, Notebook } from '../../../src/core/notebook.js';

/** A notebook from a list of cells: strings are code cells, { md } markdown cells. */
export function makeNotebook(cells: Array<string | { md: string } | { code: string; outputs: any[] }>): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', language: 'python', display_name: 'Python 3' } },
    cells: cells.map((c): Cell => {
      if (typeof c === 'string') return { cell_type: 'code', source: c, metadata: {}, outputs: [], execution_count: null };
      if ('md' in c) return { cell_type: 'markdown', source: c.md, metadata: {} };
      return { cell_type: 'code', source: c.code, metadata: {}, outputs: c.outputs, execution_count: 1 };
    }),
  };
}

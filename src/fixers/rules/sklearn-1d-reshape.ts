/**
 * scikit-learn 0.19 turned 1-D X into an error ("Expected 2D array, got 1D array instead"); 0.17–0.18
 * warned and treated it as ONE SAMPLE (`np.atleast_2d`: shape (1, n)), while the author usually meant one
 * feature (shape (n, 1)). Which one the notebook's results came from is a question for its stored
 * outputs, so both are candidates, in that order: the old semantics first, the intended one second;
 * generate-and-verify keeps the one that agrees. (A `df['col']` argument is the rule
 * sklearn-1d-input's: `df[['col']]`.)
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { parseNotebookCells, disposeCells } from './engine.js';
import type { RuntimeFrame } from './context.js';
import { onFrameLines } from './traceback.js';

const METHODS = new Set(['fit', 'transform', 'fit_transform', 'predict', 'predict_proba', 'predict_log_proba', 'decision_function', 'score', 'inverse_transform']);

export async function reshape1dPatches(nb: Notebook, cell: number, evalue: string, frames: readonly RuntimeFrame[]): Promise<Array<{ patch: Patch; label: string }>> {
  if (!/Expected 2D array, got 1D array instead/.test(evalue)) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const parsed = cells.find((c) => c.index === cell);
    if (!parsed) return [];
    const atError = onFrameLines(frames, cell, parsed.tree.rootNode);
    const args: SyntaxNode[] = [];
    const walk = (n: SyntaxNode) => {
      if (n.type === 'call') {
        const fn = n.childForFieldName('function');
        const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
        const onLine = atError(n);
        const first = n.childForFieldName('arguments')?.namedChildren.find((a) => a && a.type !== 'comment' && a.type !== 'keyword_argument');
        if (name && METHODS.has(name) && onLine && first && ['identifier', 'attribute', 'subscript', 'call'].includes(first.type) && !/reshape\(|\[\[/.test(first.text)
          && !(first.type === 'subscript' && first.childForFieldName('subscript')?.type === 'string')) args.push(first);
      }
      for (const c of n.namedChildren) if (c) walk(c);
    };
    walk(parsed.tree.rootNode);
    if (!args.length) return [];
    const src = sourceText(nb.cells[cell].source);
    const hasNp = cells.some((c) => /^\s*import numpy as np\b/m.test(c.source));
    const make = (shape: string, label: string): { patch: Patch; label: string } => {
      let text = src;
      for (const a of [...args].sort((x, y) => y.startIndex - x.startIndex)) text = text.slice(0, a.startIndex) + `np.asarray(${a.text}).reshape(${shape})` + text.slice(a.endIndex);
      if (!hasNp) text = `import numpy as np\n${text}`;
      return { label, patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['sklearn-1d-reshape'] }, edits: [{ cell, op: 'replace', newSource: text }], summary: `cell ${cell}: 1-D X as ${label} (.reshape(${shape}))` } };
    };
    return [make('1, -1', 'one sample (scikit-learn < 0.19)'), make('-1, 1', 'one feature')];
  } finally {
    disposeCells(cells);
  }
}

/**
 * scikit-learn 0.19 turned 1-D X into an error ("Expected 2D array, got 1D array instead"); 0.17–0.18
 * warned and treated it as ONE SAMPLE (`np.atleast_2d`: shape (1, n)), while the author usually meant one
 * feature (shape (n, 1)). Which one the notebook's results came from is a question for its stored
 * outputs, so both are candidates, in that order: the old semantics first, the intended one second;
 * generate-and-verify keeps the one that agrees. (A `df['col']` argument is the rule
 * sklearn-1d-input's: `df[['col']]`.)
 *
 * The scalers were the exception (0.17–0.18 `preprocessing/data.py`: StandardScaler, MinMaxScaler,
 * MaxAbsScaler and RobustScaler called check_array with ensure_2d=False and reduced a 1-D X along
 * axis 0): one FEATURE, and transform / fit_transform / inverse_transform gave a 1-D array back — the
 * classic `df['Fare_scaled'] = scaler.fit_transform(df['Fare'])`, or a target scaled with its own
 * StandardScaler and fed to fit(X, y). When the traceback runs through one of them, the candidates are
 * that reading: the result flattened back to 1-D first (as it was), kept 2-D second.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { parseNotebookCells, disposeCells } from './engine.js';
import type { RuntimeFrame } from './context.js';
import { ANSI, onFrameLines } from './traceback.js';

const METHODS = new Set(['fit', 'transform', 'fit_transform', 'predict', 'predict_proba', 'predict_log_proba', 'decision_function', 'score', 'inverse_transform']);

/** A traceback through a scaler's own method (or its function form): 1-D meant one feature there. */
const SCALER_FRAME = /\bin (?:(?:Standard|MinMax|MaxAbs|Robust)Scaler\.(?:fit|partial_fit|transform|fit_transform|inverse_transform)|(?:scale|minmax_scale|maxabs_scale|robust_scale))\(/;
/** Methods that return the (transformed) array, flattened back to 1-D for the old scalers. */
const RETURNS_ARRAY = new Set(['transform', 'fit_transform', 'inverse_transform']);

export async function reshape1dPatches(nb: Notebook, cell: number, evalue: string, frames: readonly RuntimeFrame[], traceback: readonly string[] = []): Promise<Array<{ patch: Patch; label: string }>> {
  if (!/Expected 2D array, got 1D array instead/.test(evalue)) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const parsed = cells.find((c) => c.index === cell);
    if (!parsed) return [];
    const atError = onFrameLines(frames, cell, parsed.tree.rootNode);
    const args: Array<{ arg: SyntaxNode; call: SyntaxNode; method: string }> = [];
    const walk = (n: SyntaxNode) => {
      if (n.type === 'call') {
        const fn = n.childForFieldName('function');
        const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
        const onLine = atError(n);
        const first = n.childForFieldName('arguments')?.namedChildren.find((a) => a && a.type !== 'comment' && a.type !== 'keyword_argument');
        if (name && METHODS.has(name) && onLine && first && ['identifier', 'attribute', 'subscript', 'call'].includes(first.type) && !/reshape\(|\[\[/.test(first.text)
          && !(first.type === 'subscript' && first.childForFieldName('subscript')?.type === 'string')) args.push({ arg: first, call: n, method: name });
      }
      for (const c of n.namedChildren) if (c) walk(c);
    };
    walk(parsed.tree.rootNode);
    if (!args.length) return [];
    const src = sourceText(nb.cells[cell].source);
    const hasNp = cells.some((c) => /^\s*import numpy as np\b/m.test(c.source));
    // Nested calls on the line (`sc.inverse_transform(knn.predict(X))`) give nested arguments, whose
    // edits would overlap: the outermost ones form one set, the innermost another (which call got the
    // 1-D array is for the run to tell).
    const inside = (a: SyntaxNode, b: SyntaxNode) => a !== b && a.startIndex >= b.startIndex && a.endIndex <= b.endIndex;
    const outer = args.filter((a) => !args.some((b) => inside(a.arg, b.arg)));
    const inner = args.filter((a) => !args.some((b) => inside(b.arg, a.arg)));
    const sets = inner.length && inner.some((a) => !outer.includes(a)) ? [outer, inner] : [outer];
    const make = (shape: string, label: string, flatten = false, chosen = outer): { patch: Patch; label: string } => {
      // Edits from the end of the cell backwards, so earlier offsets stay valid (a call ends after its argument).
      const edits = chosen.flatMap(({ arg, call, method }) => [
        { start: arg.startIndex, end: arg.endIndex, text: `np.asarray(${arg.text}).reshape(${shape})` },
        ...(flatten && RETURNS_ARRAY.has(method) ? [{ start: call.endIndex, end: call.endIndex, text: '.ravel()' }] : []),
      ]).sort((x, y) => y.start - x.start);
      let text = src;
      for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
      if (!hasNp) text = `import numpy as np\n${text}`;
      return { label, patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['sklearn-1d-reshape'] }, edits: [{ cell, op: 'replace', newSource: text }], summary: `cell ${cell}: 1-D X as ${label} (.reshape(${shape}))` } };
    };
    const each = (shape: string, label: string, flatten = false) => sets.map((set, k) => make(shape, k ? `${label}, inner call` : label, flatten, set));
    if (traceback.some((t) => SCALER_FRAME.test(t.replace(ANSI, '')))) {
      return [...each('-1, 1', 'one feature, 1-D result (scikit-learn < 0.19 scalers)', true), ...each('-1, 1', 'one feature')];
    }
    return [...each('1, -1', 'one sample (scikit-learn < 0.19)'), ...each('-1, 1', 'one feature')];
  } finally {
    disposeCells(cells);
  }
}

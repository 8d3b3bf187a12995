/**
 * `.ix` (removed in pandas 1.0) tried labels first and fell back to positions when the axis was
 * not integer-typed: `df.ix[:, 3]` on named columns, `df.ix[train_idx]` with positions from a
 * splitter on a non-integer index. The static pandas-ix rule writes `.loc` unless a key is visibly
 * positional; when the data says otherwise, `.loc` raises `KeyError: 3` (or "None of [Index([0, 1,
 * ...])] are in the [columns]"). From that error, on the failing line of a cell that had `.ix` in
 * the author's notebook, two candidates: the subscripts become `.iloc` (every key positional), or
 * only the column key is made positional (`.loc[rows, df.columns[k]]`, labels for rows).
 * Generate-and-verify keeps the one the stored outputs agree with.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import type { RuntimeFrame } from './context.js';
import type { TextEdit } from './types.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import { onFrameLines } from './traceback.js';

/** `KeyError: 3`, `KeyError: "None of [Index([0, 1], dtype='int64')] are in the [columns]"`, `[Int64Index([...])]`. */
const POSITIONAL_KEY = /^'?\d+'?$|None of \[(Int64|Range)?Index\(\[[\d,\s]+\], dtype='int64'\)\] are in the \[(columns|index)\]|^\(?\d+, \d+\)?$/;

export async function ixPositionalPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string }, original: Notebook | undefined, frames: readonly RuntimeFrame[] = []): Promise<Array<{ patch: Patch; label: string }>> {
  if (error.ename !== 'KeyError' || !POSITIONAL_KEY.test(error.evalue.trim().replace(/^"|"$/g, ''))) return [];
  const had = original?.cells[failingCell];
  if (!had || !/\.ix\s*\[/.test(sourceText(had.source))) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const cell = cells.find((c) => c.index === failingCell);
    if (!cell) return [];
    const onLine = onFrameLines(frames, failingCell, cell.tree.rootNode);
    const subs = cell.tree.rootNode.descendantsOfType('subscript').filter((s): s is SyntaxNode => !!s && onLine(s) && locAttr(s) !== undefined);
    const toIloc = new Map<number, TextEdit[]>();
    const colPositions = new Map<number, TextEdit[]>();
    for (const s of subs) {
      const attr = locAttr(s)!;
      const keys = s.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (keys.every(positionalish)) addCellEdit(toIloc, failingCell, { start: attr.startIndex, end: attr.endIndex, text: 'iloc' });
      const frame = s.childForFieldName('value')?.childForFieldName('object');
      const col = keys[1];
      if (frame && col && keys.length === 2 && positionalish(col) && col.type !== 'slice' && /^[\w.]+$/.test(frame.text)) {
        addCellEdit(colPositions, failingCell, { start: col.startIndex, end: col.endIndex, text: `${frame.text}.columns[${col.text}]` });
      }
    }
    const out: Array<{ patch: Patch; label: string }> = [];
    const push = (edits: Map<number, TextEdit[]>, label: string, summary: string) => {
      if (!edits.size) return;
      out.push({ label, patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['pandas-ix-positional-at-error'] }, edits: cellReplacements(nb, edits), summary } });
    };
    push(toIloc, `.ix positions: .iloc in cell ${failingCell}`, `.ix fell back to positions on a non-integer axis: .iloc where .loc raised KeyError (cell ${failingCell})`);
    push(colPositions, `.ix column positions: .loc[rows, df.columns[k]] in cell ${failingCell}`, `.ix fell back to positions for the columns: the column key made positional (cell ${failingCell})`);
    return out;
  } finally {
    disposeCells(cells);
  }
}

/** The `loc` name of `<frame>.loc[...]`, or undefined. */
function locAttr(s: SyntaxNode): SyntaxNode | undefined {
  const v = s.childForFieldName('value');
  const name = v?.type === 'attribute' ? v.childForFieldName('attribute') : undefined;
  return name?.text === 'loc' ? name : undefined;
}

/** A key that can be a position: an integer (or negative), a name, a slice of those, a list of ints, a call (range, np.arange). */
function positionalish(k: SyntaxNode): boolean {
  switch (k.type) {
    case 'integer': case 'identifier': case 'call':
      return true;
    case 'unary_operator':
      return k.childForFieldName('argument')?.type === 'integer';
    case 'slice':
      return k.namedChildren.every((c) => !c || ['integer', 'identifier', 'unary_operator', 'binary_operator'].includes(c.type));
    case 'list':
      return k.namedChildren.every((c) => !c || c.type === 'integer');
    case 'binary_operator':
      return !['<', '>', '==', '!=', '<=', '>=', '&', '|'].includes(k.child(1)?.type ?? '');
    default:
      return false;
  }
}

/**
 * `.ix` (removed in pandas 1.0) tried labels first and fell back to positions when the axis was
 * not integer-typed: `df.ix[:, 3]` on named columns, `df.ix[train_idx]` with positions from a
 * splitter on a non-integer index. The static pandas-ix rule writes `.loc` unless a key is visibly
 * positional; when the data says otherwise, `.loc` raises `KeyError: 3` (or "None of [Index([0, 1,
 * ...])] are in the [columns]"). From that error, on the failing line of a cell that had `.ix` in
 * the author's notebook, two candidates: the subscripts become `.iloc` (every key positional), or
 * only the column key is made positional (`.loc[rows, df.columns[k]]`, labels for rows), or only
 * the row key (`.loc[df.index[i], 'Age']`: a loop counter over the rows of a frame whose index is
 * not integer-typed — strings, or the MultiIndex of `concat(keys=...)` — where `.ix` took it as a
 * position and columns by label).
 *
 * Assigning through `.loc` with a row label the index lacks does not fail: it adds the row. What
 * `.ix[i, cols] = 1` wrote in place, `.loc` appends as new rows, and the frame fails later in the
 * same cell ("cannot reindex on an axis with duplicate labels" when it is joined). From that error,
 * the row keys of the cell's `.loc` assignments that were `.ix` become positions the same way.
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

/** `KeyError: 3`, `KeyError: -1`, `KeyError: "None of [Index([0, -1], dtype='int64')] are in the [columns]"`, `[Int64Index([...])]`. */
const POSITIONAL_KEY = /^'?-?\d+'?$|None of \[(Int64|Range)?Index\(\[(?:[-\d,\s]|\\n)+\],(?:\s|\\n)*dtype='int64'\)\] are in the \[(columns|index)\]|^\(?\d+, \d+\)?$/;
/** A frame grown by `.loc` assignments with row labels it did not have, then joined or aligned. */
const GROWN_ROWS = /cannot reindex on an axis with duplicate labels|cannot reindex from a duplicate axis|Reindexing only valid with uniquely valued Index objects/;

export async function ixPositionalPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string }, original: Notebook | undefined, frames: readonly RuntimeFrame[] = []): Promise<Array<{ patch: Patch; label: string }>> {
  const keyError = error.ename === 'KeyError' && POSITIONAL_KEY.test(error.evalue.trim().replace(/^"|"$/g, ''));
  const grown = (error.ename === 'ValueError' || error.ename === 'InvalidIndexError') && GROWN_ROWS.test(error.evalue);
  if (!keyError && !grown) return [];
  const had = original?.cells[failingCell];
  if (!had || !/\.ix\s*\[/.test(sourceText(had.source))) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const cell = cells.find((c) => c.index === failingCell);
    if (!cell) return [];
    const onLine = onFrameLines(frames, failingCell, cell.tree.rootNode);
    const locs = cell.tree.rootNode.descendantsOfType('subscript').filter((s): s is SyntaxNode => !!s && locAttr(s) !== undefined);
    // A KeyError is raised where the lookup is; grown rows surface away from the assignments that added them.
    const subs = keyError ? locs.filter(onLine) : locs.filter(isAssignmentTarget);
    const toIloc = new Map<number, TextEdit[]>();
    const colPositions = new Map<number, TextEdit[]>();
    const rowPositions = new Map<number, TextEdit[]>();
    for (const s of subs) {
      const rowEdit = rowPositionEdit(s);
      if (rowEdit) addCellEdit(rowPositions, failingCell, rowEdit);
      if (!keyError) continue;
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
    push(rowPositions, `.ix row positions: .loc[df.index[i], cols] in cell ${failingCell}`, `.ix fell back to positions for the rows of a non-integer index: the row key made positional (cell ${failingCell})`);
    return out;
  } finally {
    disposeCells(cells);
  }
}

/**
 * A drift, no error: `.ix[i, cols] = v` made `.loc` appends rows where `.ix` wrote in place (on a
 * non-integer index), and what the notebook prints later is off. One candidate for the cells up to
 * the drifted one that had `.ix` in the author's notebook: every `.loc` assignment whose row key is
 * one integer (a loop counter) takes it as a position. Kept only when the stored outputs then agree.
 */
export async function ixRowPositionDriftPatch(nb: Notebook, original: Notebook | undefined, target: number): Promise<{ patch: Patch; label: string } | undefined> {
  if (!original) return undefined;
  const withIx = original.cells.flatMap((c, i) => (i <= target && c.cell_type === 'code' && /\.ix\s*\[/.test(sourceText(c.source)) ? [i] : []));
  if (!withIx.length) return undefined;
  const cells = await parseNotebookCells(nb);
  try {
    const edits = new Map<number, TextEdit[]>();
    for (const cell of cells.filter((c) => withIx.includes(c.index))) {
      for (const s of cell.tree.rootNode.descendantsOfType('subscript')) {
        if (!s || locAttr(s) === undefined || !isAssignmentTarget(s)) continue;
        const edit = rowPositionEdit(s);
        if (edit) addCellEdit(edits, cell.index, edit);
      }
    }
    if (!edits.size) return undefined;
    const at = [...edits.keys()].sort((a, b) => a - b);
    return {
      label: `.ix row positions: .loc[df.index[i], cols] in cell${at.length > 1 ? 's' : ''} ${at.join(', ')}`,
      patch: { fixType: 'score-calibration', source: { kind: 'rule', ruleIds: ['pandas-ix-positional-at-error'] }, edits: cellReplacements(nb, edits), summary: `.ix wrote rows by position on a non-integer index; the .loc assignments' row counters made positions (cells ${at.join(', ')})` },
    };
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
      return k.namedChildren.every((c) => !c || c.type === 'integer' || (c.type === 'unary_operator' && c.childForFieldName('argument')?.type === 'integer'));
    case 'binary_operator':
      return !['<', '>', '==', '!=', '<=', '>=', '&', '|'].includes(k.child(1)?.type ?? '');
    default:
      return false;
  }
}

/**
 * `df.loc[i, cols]` with `i` one integer (a loop counter) and labels for columns -> the edit making
 * the row a position, `df.loc[df.index[i], cols]`; undefined for any other subscript.
 */
function rowPositionEdit(s: SyntaxNode): TextEdit | undefined {
  const keys = s.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
  const frame = s.childForFieldName('value')?.childForFieldName('object');
  const row = keys[0];
  if (!frame || !row || keys.length !== 2 || !/^[\w.]+$/.test(frame.text) || !rowCounter(row) || isIntLiteralKey(keys[1]!)) return undefined;
  return { start: row.startIndex, end: row.endIndex, text: `${frame.text}.index[${row.text}]` };
}

/** `x.loc[...] = v` (also augmented): the subscript is what an assignment writes. */
function isAssignmentTarget(s: SyntaxNode): boolean {
  const p = s.parent;
  return !!p && (p.type === 'assignment' || p.type === 'augmented_assignment') && p.childForFieldName('left')?.id === s.id;
}

/** An integer column key, or a slice or list of them: positions, the column-positions candidate's case (.iloc covers a lone row key). */
function isIntLiteralKey(k: SyntaxNode): boolean {
  if (k.type === 'integer' || k.type === 'unary_operator') return true;
  if (k.type === 'slice' || k.type === 'list') return k.namedChildren.some((c) => !!c && (c.type === 'integer' || c.type === 'unary_operator'));
  return false;
}

/** A row key that is one integer: an int literal, or a name (a loop counter); not a slice, list, mask or label. */
function rowCounter(k: SyntaxNode): boolean {
  return k.type === 'integer' || k.type === 'identifier' || (k.type === 'binary_operator' && ['+', '-'].includes(k.child(1)?.type ?? ''));
}

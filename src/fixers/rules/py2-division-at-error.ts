/**
 * Python 2's `/` floored two integers; in Python 3 it gives a float, and a float used where an
 * integer is required fails: "slice indices must be integers", "'float' object cannot be
 * interpreted as an integer" (range, np.zeros, reshape). The static py2-integer-division rule only
 * rewrites divisions whose operands it can prove to be ints; this one starts from the error: on the
 * failing line, the divisions inside a slice, an index or an integer argument become `//`, and so
 * do the divisions that computed a name used there (`half = len(df) / 2` in another cell).
 * Python 2 notebooks only for `//`; for any notebook, the float bounds on the failing line are also
 * truncated with int(), as numpy < 1.12 and old pandas did. Each a candidate;
 * generate-and-verify keeps it only if the cell then runs and the stored outputs agree.
 */
import type { Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, notebookInfo, parseNotebookCells } from './engine.js';
import type { ParsedCell, RuntimeFrame } from './context.js';
import type { TextEdit } from './types.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import { onFrameLines, statementRows } from './traceback.js';

// matplotlib < 3.5 also truncated float subplot numbers (`plt.subplot(n / 2, 2, i)`); 3.5 rejects them.
const FLOAT_INDEX = /Number of (rows|columns) must be a positive integer, not|num must be an integer with 1 <= num <= \d+, not|slice indices must be integers|'float' object cannot be interpreted as an integer|only integers, slices .* are valid indices|cannot do (slice|positional) indexing on \w+ with these indexers \[[^\]]*\] of type float|Cannot index by location index with a non-integer key/;
/** Calls whose arguments must be integers. */
const INT_ARG_CALLS = new Set(['range', 'xrange', 'zeros', 'ones', 'empty', 'full', 'reshape', 'islice', 'sample', 'randint', 'head', 'tail', 'nlargest', 'nsmallest', 'subplot', 'add_subplot', 'subplots']);

export interface DivisionCandidate {
  patch: Patch;
  label: string;
}

export async function floatIndexPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string }, frames: readonly RuntimeFrame[] = []): Promise<DivisionCandidate[]> {
  if (!['TypeError', 'IndexError', 'ValueError'].includes(error.ename) || !FLOAT_INDEX.test(error.evalue)) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const targets = indexTargets(cells, failingCell, frames);
    const py2 = notebookInfo(nb, cells, {}).pythonMajor === 2;
    return [...(py2 ? floorDivisionCandidate(nb, cells, failingCell, targets) : []), ...truncationCandidate(nb, cells, failingCell, targets)];
  } finally {
    disposeCells(cells);
  }
}

/** An expression that must be an integer, and the cell that holds it. */
interface Target { cell: number; node: SyntaxNode }

/**
 * Expressions on the failing lines that must be integers: slice bounds, indices, integer arguments.
 * The failing line is the innermost notebook frame's: a function defined in one cell and called from
 * another fails in the cell that defines it (`x[:-m/10]` inside `def load()` of cell 3, called from
 * cell 4), so every cell the traceback names is searched on its own frame lines.
 */
function indexTargets(cells: ParsedCell[], failingCell: number, frames: readonly RuntimeFrame[]): Target[] {
  const named = [...new Set(frames.map((f) => f.cell))];
  const targets: Target[] = [];
  for (const index of named.length ? named : [failingCell]) {
    const cell = cells.find((c) => c.index === index);
    if (cell) targets.push(...lineTargets(cell, frames).map((node) => ({ cell: index, node })));
  }
  return targets;
}

/**
 * The failing statement, and what follows it in its scope (the rest of its function, or of the cell at
 * top level): the error shows how the author's Python treated `/`, and the lines after it (`a[:-m/10]`,
 * then `b[:-m/10]`, `a[-m/10:]`) would fail one at a time with the same message, each fix then looking
 * like no progress. The lines before it ran without error and are left alone.
 */
function scopeTests(cell: ParsedCell, frames: readonly RuntimeFrame[]): { onLine: (n: SyntaxNode) => boolean; after: (n: SyntaxNode) => boolean } {
  const root = cell.tree.rootNode;
  const onLine = onFrameLines(frames, cell.index, root);
  const spans: Array<[number, number]> = [];
  // Only the innermost notebook frame's (where the error is); an outer frame's line is a call that
  // returned nothing yet.
  const inner = frames[frames.length - 1];
  for (const f of inner ? [inner] : []) {
    if (f.cell !== cell.index) continue;
    const from = statementRows(root, f.line)[0];
    let to = root.endPosition.row;
    if (f.function && f.function !== '<module>') {
      for (const def of root.descendantsOfType('function_definition')) {
        if (def && def.startPosition.row <= f.line - 1 && def.endPosition.row >= f.line - 1 && def.childForFieldName('name')?.text === f.function) to = Math.min(to, def.endPosition.row);
      }
    }
    spans.push([from, to]);
  }
  const after = (n: SyntaxNode) => onLine(n) || spans.some(([a, b]) => n.startPosition.row >= a && n.endPosition.row <= b);
  return { onLine, after };
}

function lineTargets(cell: ParsedCell, frames: readonly RuntimeFrame[]): SyntaxNode[] {
  const root = cell.tree.rootNode;
  const { onLine, after } = scopeTests(cell, frames);
  const targets: SyntaxNode[] = [];
  // Slice bounds and integer arguments are integers wherever they are; a subscript's key only where
  // the error is (a float key may be a label: `.loc[0.5]`).
  for (const s of root.descendantsOfType('slice')) if (s && after(s)) targets.push(...s.namedChildren.filter((c): c is SyntaxNode => !!c));
  for (const sub of root.descendantsOfType('subscript')) {
    if (!sub || !onLine(sub)) continue;
    for (const k of sub.childrenForFieldName('subscript')) if (k && k.type !== 'slice') targets.push(k);
  }
  for (const call of root.descendantsOfType('call')) {
    if (!call || !after(call)) continue;
    const fn = call.childForFieldName('function');
    const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
    if (name && INT_ARG_CALLS.has(name)) targets.push(...(call.childForFieldName('arguments')?.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'keyword_argument') ?? []));
  }
  return targets;
}

function floorDivisionCandidate(nb: Notebook, cells: ParsedCell[], failingCell: number, targets: Target[]): DivisionCandidate[] {
  const edits = new Map<number, TextEdit[]>();
  const add = (cell: number, op: SyntaxNode) => {
    const tok = op.child(1);
    if (tok?.type !== '/' || edits.get(cell)?.some((e) => e.start === tok.startIndex)) return;
    addCellEdit(edits, cell, { start: tok.startIndex, end: tok.endIndex, text: '//' });
  };
  const names = new Set<string>();
  for (const { cell, node: t } of targets) {
    for (const op of [t, ...t.descendantsOfType('binary_operator')]) if (op?.type === 'binary_operator') add(cell, op);
    for (const id of [t, ...t.descendantsOfType('identifier')]) if (id?.type === 'identifier') names.add(id.text);
  }
  // The divisions that computed those names (`n = len(x) / 2`), in any cell up to the failing one.
  for (const c of cells) {
    if (c.index > failingCell) continue;
    for (const a of c.tree.rootNode.descendantsOfType('assignment')) {
      const l = a?.childForFieldName('left');
      const r = a?.childForFieldName('right');
      if (!a || !r || l?.type !== 'identifier' || !names.has(l.text)) continue;
      for (const op of topLevelDivisions(r)) add(c.index, op);
    }
  }
  if (!edits.size) return [];
  const where = [...edits.keys()].sort((a, b) => a - b).join(', ');
  return [{
    label: `py2 floor division in cells ${where}`,
    patch: {
      fixType: 'error-repair',
      source: { kind: 'rule', ruleIds: ['py2-integer-division-at-error'] },
      edits: cellReplacements(nb, edits),
      summary: `Python 2 floored '/' on integers: the divisions behind the float index are '//' (cells ${where})`,
    },
  }];
}

/**
 * numpy before 1.12 and pandas before 0.2x truncated a float index or slice bound (with a
 * deprecation warning): `arr[:len(arr) * 0.8]`, `df[:n]` with `n = len(df) * 0.7`. On the failing
 * line, the bounds that are floats by construction (a `/`, a float literal, `np.floor`/`ceil`/`round`
 * or a name assigned from one) are truncated the same way: `int(...)`.
 */
function truncationCandidate(nb: Notebook, cells: ParsedCell[], failingCell: number, targets: Target[]): DivisionCandidate[] {
  const floatNames = new Set<string>();
  for (const c of cells) {
    if (c.index > failingCell) continue;
    for (const a of c.tree.rootNode.descendantsOfType('assignment')) {
      const l = a?.childForFieldName('left');
      const r = a?.childForFieldName('right');
      if (l?.type === 'identifier' && r && floaty(r, new Set())) floatNames.add(l.text);
    }
  }
  const edits = new Map<number, TextEdit[]>();
  for (const { cell, node: t } of targets) {
    if (!floaty(t, floatNames) || /^int\(/.test(t.text)) continue;
    addCellEdit(edits, cell, { start: t.startIndex, end: t.endIndex, text: `int(${t.text})` });
  }
  if (!edits.size) return [];
  const where = [...edits.keys()].sort((a, b) => a - b).join(', ');
  return [{
    label: `float index truncated with int() in cells ${where}`,
    patch: {
      fixType: 'error-repair',
      source: { kind: 'rule', ruleIds: ['numpy-float-index-at-error'] },
      edits: cellReplacements(nb, edits),
      summary: `numpy < 1.12 and old pandas truncated a float index or slice bound: int() where the error is (cells ${where})`,
    },
  }];
}

const FLOAT_CALLS = /^(np|numpy|math)\.(floor|ceil|round|sqrt|log)$|^round$/;

/** A float by construction: true division, a float literal, a float-valued call, or a name bound to one. */
function floaty(n: SyntaxNode, floatNames: ReadonlySet<string>): boolean {
  if (n.type === 'float') return true;
  if (n.type === 'identifier') return floatNames.has(n.text);
  if (n.type === 'parenthesized_expression') return n.namedChildren.some((c) => !!c && floaty(c, floatNames));
  if (n.type === 'binary_operator') {
    if (n.child(1)?.type === '/') return true;
    return floaty(n.childForFieldName('left')!, floatNames) || floaty(n.childForFieldName('right')!, floatNames);
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function')?.text ?? '';
    // round(x) with one argument is an int in Python 3; with ndigits, or numpy's, a float.
    if (fn === 'round') return (n.childForFieldName('arguments')?.namedChildren.length ?? 0) > 1;
    return FLOAT_CALLS.test(fn);
  }
  return false;
}

/** `/` operators of an expression outside calls and lambdas (`len(x) / 2`, `(a + b) / 2`; not `f(a / b)`). */
function topLevelDivisions(n: SyntaxNode): SyntaxNode[] {
  if (n.type === 'parenthesized_expression') return n.namedChildren.filter((c): c is SyntaxNode => !!c).flatMap(topLevelDivisions);
  if (n.type !== 'binary_operator') return [];
  const out = n.child(1)?.type === '/' ? [n] : [];
  return [...out, ...topLevelDivisions(n.childForFieldName('left')!), ...topLevelDivisions(n.childForFieldName('right')!)];
}

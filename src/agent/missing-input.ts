/**
 * An input the data provided does not hold: Forest Cover's data is train.csv only, yet nearly every
 * notebook of that competition reads test.csv too; an author reads a file made in another notebook.
 * What needs that input cannot run here, but what does not need it can, and its stored outputs can
 * still be held to the record. So, instead of stopping at the first read:
 *
 * - the failing cell is split into its top-level statements; the statements that name the file (or,
 *   when its path is built from variables, the one the traceback points at) and every later
 *   statement of the cell that reads what they bind or change are commented out, with a line saying
 *   why; when nothing else is left in the cell, the cell is skipped instead;
 * - every later cell (in run order) that reads or changes what those statements bound or changed, or
 *   what an earlier skipped cell bound or changed, is skipped (not run, its stored outputs unjudged,
 *   named in the verdict), the same forward slice as defuse.dependentCells;
 * - only when that slice is a small part of the notebook (at most MAX_SLICE_SHARE of its code cells):
 *   a test frame concatenated with the training frame for feature engineering taints everything
 *   after it, and then the notebook cannot be reproduced without the file, which the run says
 *   (`unfixable`) as before.
 */
import path from 'node:path';
import { sourceText, type Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import type { ExpectedError } from '../core/run-result.js';
import { analyzeCell, analyzeNotebook, type CellDefUse } from '../fixers/python/defuse.js';
import { maskIPythonLines } from '../fixers/python/ipython.js';
import { parsePython } from '../fixers/python/parser.js';
import { lastTopLevelStatement } from '../fixers/python/statements.js';

/** The largest share of the notebook's code cells the slice may skip (the failing cell included). */
export const MAX_SLICE_SHARE = 0.4;

export interface MissingInputSlice {
  /** The failing cell with the statements that need the input commented out (absent when the whole cell is skipped). */
  patch?: Patch;
  /** Cells not run: the later cells that need the input (and the failing cell when nothing of it is left). */
  skip: Array<{ cell: number; expected: ExpectedError }>;
}

/** A top-level statement of a cell, with the comment and blank lines above it: [first row, last row]. */
function statementRows(source: string): Array<[number, number]> | undefined {
  const { code } = maskIPythonLines(source);
  const tree = parsePython(code);
  try {
    const stmts = tree.rootNode.namedChildren.filter((c) => !!c && c.type !== 'comment');
    if (stmts.some((s) => s!.type === 'ERROR' || s!.hasError)) return undefined;
    const lines = source.split('\n').length;
    const out: Array<[number, number]> = [];
    let from = 0;
    stmts.forEach((s, i) => {
      const to = i === stmts.length - 1 ? lines - 1 : s!.endPosition.row;
      out.push([from, to]);
      from = to + 1;
    });
    return out;
  } finally {
    tree.delete();
  }
}

/** The row of the failing cell the traceback points at (`----> 3 ...` in the cell's own frame). */
function failingRow(traceback: readonly string[]): number | undefined {
  const frame = traceback.find((t) => /^(Cell In\[\d+\]|<ipython-input-)/.test(t.replace(/\u001b\[[0-9;]*m/g, '')));
  const m = frame && /^-+> (\d+)/m.exec(frame.replace(/\u001b\[[0-9;]*m/g, ''));
  return m ? Number(m[1]) - 1 : undefined;
}

export function missingInputSlice(nb: Notebook, cell: number, error: { ename: string; evalue: string; traceback?: readonly string[] }, missing: string, order?: readonly number[]): MissingInputSlice | undefined {
  const failing = nb.cells[cell];
  if (failing?.cell_type !== 'code') return undefined;
  const source = sourceText(failing.source);
  const rows = statementRows(source);
  if (!rows?.length) return undefined;
  const lines = source.split('\n');
  const units = rows.map(([a, b]) => ({ rows: [a, b] as [number, number], text: lines.slice(a, b + 1).join('\n') }));
  const base = path.basename(missing);
  let seeds = units.map((u, i) => (base && u.text.includes(base) ? i : -1)).filter((i) => i >= 0);
  if (!seeds.length) {
    const row = failingRow(error.traceback ?? []);
    const at = row === undefined ? -1 : units.findIndex((u) => row >= u.rows[0] && row <= u.rows[1]);
    if (at >= 0) seeds = [at];
  }
  if (!seeds.length) return undefined;

  // The forward slice: statements of the failing cell first, then the later cells in run order.
  const live = new Set<string>();
  const reads = (du: CellDefUse) => [...du.uses, ...du.mutates].some((n) => live.has(n));
  // A tainted unit that changes something in place may change it through an alias (`for df in
  // [train, test]: df['a'] = 1` changes train): then whatever it reads counts as changed too.
  const follow = (du: CellDefUse, tainted: boolean) => {
    if (tainted) for (const n of [...du.defines, ...du.mutates, ...(du.mutates.length ? du.uses : [])]) live.add(n);
    else for (const n of du.defines) live.delete(n);
  };
  const cut = new Set<number>();
  const analyses = units.map((u) => analyzeCell(u.text));
  analyses.forEach((du, i) => {
    const tainted = seeds.includes(i) || reads(du);
    if (tainted) cut.add(i);
    follow(du, tainted);
  });
  // A cut statement that shows something (a print, the cell's last expression) would leave the cell's
  // stored outputs without what made them: then the whole cell is not run (its outputs unjudged), and
  // what its other statements bind is not there for later cells either.
  const last = lastTopLevelStatement(source);
  const shows = [...cut].some((i) => /\b(print|display)\s*\(/.test(units[i]!.text))
    || (cut.has(units.length - 1) && last?.type === 'expression_statement' && !/assignment/.test(last.expression ?? '') && !last.semicolon);
  if (shows) for (const du of analyses) for (const n of du.defines) live.add(n);
  const analysis = analyzeNotebook(nb);
  const pos = (c: number): number => (order ? order.indexOf(c) : c);
  const later = analysis.cells.filter((c) => pos(c.cell) > pos(cell)).sort((a, b) => pos(a.cell) - pos(b.cell));
  const skipped: number[] = [];
  for (const du of later) {
    if (!live.size) break;
    const tainted = reads(du);
    if (tainted) skipped.push(du.cell);
    follow(du, tainted);
  }
  const wholeCell = shows || cut.size === units.length;
  const codeCells = analysis.cells.filter((c) => sourceText(nb.cells[c.cell]!.source).trim()).length;
  const share = (skipped.length + (wholeCell ? 1 : 0)) / Math.max(1, codeCells);
  if (share > MAX_SLICE_SHARE) return undefined;

  const reason = (what: string) => `${base} is not in the data provided (an input this run does not have); ${what}, so it is not run and its stored outputs are not judged`;
  const expected = (what: string): ExpectedError => ({ ename: error.ename, skipped: true, missingInput: base, reason: reason(what) });
  const skip = skipped.map((c) => ({ cell: c, expected: expected(`the cell reads what the statements that read ${base} made`) }));
  if (wholeCell) return { skip: [{ cell, expected: expected(`the cell needs ${base}`) }, ...skip] };
  const kept = units.map((u, i) => (cut.has(i) ? u.text.split('\n').map((l) => (l.trim() ? `# ${l}` : l)).join('\n') : u.text));
  const note = `# nbmodernize: ${base} is not in the data provided; the statements that need it are commented out`;
  const edited = `${note}\n${kept.join('\n')}`;
  const cutNames = [...cut].map((i) => units[i]!.rows[0] + 1);
  return {
    patch: {
      fixType: 'error-repair',
      source: { kind: 'rule', ruleIds: ['missing-input'] },
      edits: [{ cell, op: 'replace', newSource: edited }],
      summary: `cell ${cell}: ${base} is not in the data provided: the statement${cut.size > 1 ? 's' : ''} at line${cut.size > 1 ? 's' : ''} ${cutNames.join(', ')} that need${cut.size > 1 ? '' : 's'} it commented out${skip.length ? `; ${skip.length > 1 ? 'cells' : 'cell'} ${skip.map((s) => s.cell).join(', ')}, which ${skip.length > 1 ? 'read' : 'reads'} what they made, not run` : ''}`,
    },
    skip,
  };
}

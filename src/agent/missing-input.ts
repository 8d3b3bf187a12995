/**
 * Something a notebook needs that this run does not have: an input file the data provided does not
 * hold (Forest Cover's data is train.csv only, yet nearly every notebook of that competition reads
 * test.csv too; an author reads a file made in another notebook), or a module the fixed environment
 * lacks (lightgbm, keras, the author's own helper module). What needs it cannot run here, but what
 * does not need it can, and its stored outputs can still be held to the record. So, instead of
 * stopping at the first failure:
 *
 * - the failing cell is split into its top-level statements; the statements that need the missing
 *   thing (name the file, or import the module; else the one the traceback points at) are the seeds;
 * - the forward slice runs statement by statement, in run order, from the seeds through the failing
 *   cell and every later cell: a statement that reads or changes what a cut statement bound or
 *   changed is cut too, and what it binds joins the slice; a statement that rebinds a name from
 *   untouched values takes it out of the slice;
 * - a cell whose cut statements are all of it, or show something (a print, the cell's last
 *   expression: its stored outputs would be left without what made them), is skipped whole (not
 *   run, its stored outputs unjudged, named in the verdict), and everything it binds joins the slice;
 *   in any other cell the cut statements are commented out, with a line saying why;
 * - only when the slice is a small part of the notebook (at most MAX_SLICE_SHARE of its code cells,
 *   a partly cut cell counting by its share of cut statements): a test frame concatenated with the
 *   training frame for feature engineering taints everything after it, and then the notebook cannot
 *   be reproduced without the file, which the run says (`unfixable`) as before.
 */
import path from 'node:path';
import { sourceText, type CodeCell, type Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import type { ExpectedError } from '../core/run-result.js';
import { analyzeCell, analyzeNotebook, type CellDefUse } from '../fixers/python/defuse.js';
import { maskIPythonLines } from '../fixers/python/ipython.js';
import { parsePython } from '../fixers/python/parser.js';
import { lastTopLevelStatement } from '../fixers/python/statements.js';
import { escapeRe } from '../fixers/rules/helpers.js';
import { leadingBlankLines, outermostNotebookLine } from '../core/traceback.js';

/** The largest share of the notebook's code cells the slice may take (the failing cell included). */
export const MAX_SLICE_SHARE = 0.4;

/**
 * What this run does not have: a data file, a top-level module the environment lacks, or (for a cell
 * the author never ran that fails here and nothing repairs) the failing statement's effects.
 */
export type Absent = { kind: 'file'; path: string } | { kind: 'module'; name: string } | { kind: 'statement' };

export interface MissingInputSlice {
  /** The cells with the statements that need what is absent commented out (absent when whole cells only are skipped). */
  patch?: Patch;
  /** Cells not run: cells whose every statement (or a shown one) needs what is absent. */
  skip: Array<{ cell: number; expected: ExpectedError }>;
  /** The share of the notebook's code cells the slice takes (whole cells 1, partly cut cells their cut share). */
  share: number;
}

interface Unit {
  rows: [number, number];
  text: string;
}

/** A cell's top-level statements, each with the comment and blank lines above it; undefined when it does not parse. */
function statementUnits(source: string): Unit[] | undefined {
  const { code } = maskIPythonLines(source);
  const tree = parsePython(code);
  try {
    const stmts = tree.rootNode.namedChildren.filter((c) => !!c && c.type !== 'comment');
    if (stmts.some((s) => s!.type === 'ERROR' || s!.hasError)) return undefined;
    const lines = source.split('\n');
    const out: Unit[] = [];
    let from = 0;
    stmts.forEach((s, i) => {
      const to = i === stmts.length - 1 ? lines.length - 1 : s!.endPosition.row;
      out.push({ rows: [from, to], text: lines.slice(from, to + 1).join('\n') });
      from = to + 1;
    });
    return out;
  } finally {
    tree.delete();
  }
}

/**
 * The row of the failing cell the traceback points at (`----> 3 ...` in the cell's own frame, the
 * outermost notebook frame), counted in `source`: IPython numbers from its first line with code.
 */
function failingRow(traceback: readonly string[], source: string): number | undefined {
  const line = outermostNotebookLine(traceback);
  return line === undefined ? undefined : line - 1 + leadingBlankLines(source);
}

/** Does this statement need what is absent (name the file; import the module or load it as an extension)? */
function needs(text: string, absent: Absent): boolean {
  if (absent.kind === 'statement') return false; // the traceback's row is the seed
  if (absent.kind === 'file') return !!absent.path && text.includes(path.basename(absent.path));
  const m = escapeRe(absent.name);
  return new RegExp(`^[ \\t]*(?:import[ \\t][^\\n]*\\b${m}\\b(?!\\.)|import[ \\t]+${m}\\.|from[ \\t]+${m}(?:\\.|[ \\t])|%?(?:re)?load_ext[ \\t]+${m}\\b)`, 'm').test(text);
}

/**
 * Does a cut unit show something in the cell's stored outputs (a print or display, the cell's shown
 * last expression)? The author's record says what the cell showed: a recorded cell with no printed
 * text printed nothing, one with no result showed none (`df.drop(..., inplace=True)` is a call whose
 * value is None); a cell with no record is taken to show what it could.
 */
function showsOutput(cell: CodeCell, source: string, units: readonly Unit[], cut: ReadonlySet<number>): boolean {
  const recorded = cell.execution_count !== null;
  const has = (type: string) => !recorded || cell.outputs.some((o) => o.output_type === type);
  if ([...cut].some((i) => /\bprint\s*\(/.test(units[i]!.text)) && has('stream')) return true;
  if ([...cut].some((i) => /\bdisplay\s*\(/.test(units[i]!.text)) && (has('display_data') || has('execute_result'))) return true;
  if (!cut.has(units.length - 1) || !has('execute_result')) return false;
  const last = lastTopLevelStatement(source);
  return last?.type === 'expression_statement' && !/assignment/.test(last.expression ?? '') && !last.semicolon;
}

const label = (absent: Absent): string => (absent.kind === 'file' ? path.basename(absent.path) : absent.kind === 'module' ? absent.name : 'the failing statement');

export function missingInputSlice(nb: Notebook, cell: number, error: { ename: string; evalue: string; traceback?: readonly string[] }, absent: Absent, order?: readonly number[]): MissingInputSlice | undefined {
  const failing = nb.cells[cell];
  if (failing?.cell_type !== 'code') return undefined;
  const source = sourceText(failing.source);
  const units = statementUnits(source);
  if (!units?.length) return undefined;
  let seeds = units.map((u, i) => (needs(u.text, absent) ? i : -1)).filter((i) => i >= 0);
  if (!seeds.length) {
    const row = failingRow(error.traceback ?? [], source);
    const at = row === undefined ? -1 : units.findIndex((u) => row >= u.rows[0] && row <= u.rows[1]);
    if (at >= 0) seeds = [at];
  }
  if (!seeds.length) return undefined;

  const live = new Set<string>();
  const reads = (du: CellDefUse) => [...du.uses, ...du.mutates].some((n) => live.has(n));
  // A tainted unit that changes something in place may change it through an alias (`for df in
  // [train, test]: df['a'] = 1` changes train): then whatever it reads counts as changed too.
  const follow = (du: CellDefUse, tainted: boolean) => {
    if (tainted) for (const n of [...du.defines, ...du.mutates, ...(du.mutates.length ? du.uses : [])]) live.add(n);
    else for (const n of du.defines) live.delete(n);
  };
  const whole: number[] = [];
  const partial = new Map<number, { units: Unit[]; cut: Set<number> }>();
  let share = 0;
  /** One cell of the slice: its statements in order; undefined when the cell does not parse and reads the slice. */
  const visit = (c: number, text: string, cellUnits: Unit[] | undefined, seed: readonly number[]): void => {
    const codeCell = nb.cells[c] as CodeCell;
    if (!cellUnits) {
      const du = analyzeCell(text);
      const tainted = reads(du);
      if (tainted) {
        whole.push(c);
        share += 1;
      }
      follow(du, tainted);
      return;
    }
    const analyses = cellUnits.map((u) => analyzeCell(u.text));
    const cut = new Set<number>();
    analyses.forEach((du, i) => {
      const tainted = seed.includes(i) || reads(du);
      if (tainted) cut.add(i);
      follow(du, tainted);
    });
    if (!cut.size) return;
    if (cut.size === cellUnits.length || showsOutput(codeCell, text, cellUnits, cut)) {
      // Not run at all: what its other statements bind is not there for later cells either.
      for (const du of analyses) for (const n of du.defines) live.add(n);
      whole.push(c);
      share += 1;
    } else {
      partial.set(c, { units: cellUnits, cut });
      share += cut.size / cellUnits.length;
    }
  };
  visit(cell, source, units, seeds);
  const pos = (c: number): number => (order ? order.indexOf(c) : c);
  const codeCells = nb.cells.map((c, i) => ({ c, i })).filter(({ c }) => c.cell_type === 'code' && sourceText(c.source).trim());
  const later = codeCells.filter(({ i }) => pos(i) > pos(cell)).sort((a, b) => pos(a.i) - pos(b.i));
  for (const { c, i } of later) {
    if (!live.size) break;
    const text = sourceText(c.source);
    visit(i, text, statementUnits(text), []);
  }
  share /= Math.max(1, codeCells.length);
  if (share > MAX_SLICE_SHARE) return undefined;

  const what = label(absent);
  if (absent.kind === 'statement') {
    // Only cells the author never ran may go: a recorded cell set aside for a never-run cell's
    // failure would drop part of the record for code the author's own run never depended on.
    const recorded = (c: number) => c !== cell && (nb.cells[c] as CodeCell).execution_count !== null;
    if (whole.some(recorded) || [...partial.keys()].some(recorded)) return undefined;
  }
  const lacking = absent.kind === 'file' ? `${what} is not in the data provided (an input this run does not have)`
    : absent.kind === 'module' ? `module ${what} is not in the environment (nor in the notebook's project)`
    : `the author never ran cell ${cell} (no execution count, no outputs); here it raises ${error.ename} and no fix applies`;
  const expected = (why: string): ExpectedError => ({
    ename: error.ename, skipped: true,
    ...(absent.kind === 'file' ? { missingInput: what } : absent.kind === 'module' ? { missingLibrary: what } : { neverRun: true }),
    reason: `${lacking}; ${why}, so it is not run and its stored outputs are not judged`,
  });
  const skip = whole.map((c) => ({ cell: c, expected: expected(c === cell ? `the cell needs ${what}` : `the cell reads what the statements that need ${what} made`) }));
  if (!partial.size) return { skip, share };
  const noteWhat = absent.kind === 'file' ? `${what} is not in the data provided` : absent.kind === 'module' ? `module ${what} is not in the environment`
    : `cell ${cell}, which the author never ran, raises ${error.ename} here`;
  const note = `# nbmodernize: ${noteWhat}; the statements that need it are commented out`;
  const edits = [...partial].map(([c, { units: us, cut }]) => ({
    cell: c, op: 'replace' as const,
    newSource: `${note}\n${us.map((u, i) => (cut.has(i) ? u.text.split('\n').map((l) => (l.trim() ? `# ${l}` : l)).join('\n') : u.text)).join('\n')}`,
  }));
  const where = [...partial].map(([c, { units: us, cut }]) => `cell ${c} line${cut.size > 1 ? 's' : ''} ${[...cut].map((i) => us[i]!.rows[0] + 1).join(', ')}`).join('; ');
  const head = absent.kind === 'file' ? `${what} is not in the data provided` : absent.kind === 'module' ? `${what} is not in the environment` : `cell ${cell}, which the author never ran, raises ${error.ename} here and no fix applies`;
  return {
    patch: {
      fixType: 'error-repair',
      source: { kind: 'rule', ruleIds: [absent.kind === 'statement' ? 'never-run-statement' : 'missing-input'] },
      edits,
      summary: `${head}: the statements that need ${absent.kind === 'statement' ? 'what it makes' : 'it'} commented out (${where})${skip.length ? `; ${skip.length > 1 ? 'cells' : 'cell'} ${skip.map((s) => s.cell).join(', ')}, which need${skip.length > 1 ? '' : 's'} it or what it made, not run` : ''}`,
    },
    skip,
    share,
  };
}

/**
 * Would skipping this never-run cell whole strand a recorded cell after it? True when a cell the
 * author ran, later in run order, reads a name that only the failing cell's other statements (not
 * the one that fails) bind: skipped whole, `import pandas as pd` goes with a failing
 * `from rmsle import rmsle` and every recorded cell after it fails on `pd`.
 */
export function wholeSkipStrands(nb: Notebook, cell: number, error: { traceback?: readonly string[] }, order?: readonly number[]): boolean {
  const failing = nb.cells[cell];
  if (failing?.cell_type !== 'code') return false;
  const source = sourceText(failing.source);
  const units = statementUnits(source);
  const row = failingRow(error.traceback ?? [], source);
  const at = units && row !== undefined ? units.findIndex((u) => row >= u.rows[0] && row <= u.rows[1]) : -1;
  if (!units || at < 0) return false;
  const others = new Set(units.flatMap((u, i) => (i === at ? [] : analyzeCell(u.text).defines)));
  for (const n of analyzeCell(units[at]!.text).defines) others.delete(n);
  if (!others.size) return false;
  const pos = (c: number): number => (order ? order.indexOf(c) : c);
  const du = analyzeNotebook(nb);
  const code = du.cells.filter((c) => c.cell !== cell && pos(c.cell) >= 0);
  // Bound already by a cell before it: skipping it takes nothing away.
  for (const c of code.filter((c) => pos(c.cell) < pos(cell))) for (const n of c.defines) others.delete(n);
  const later = code.filter((c) => pos(c.cell) > pos(cell)).sort((a, b) => pos(a.cell) - pos(b.cell));
  for (const c of later) {
    if ((nb.cells[c.cell] as CodeCell).execution_count !== null && c.uses.some((n) => others.has(n))) return true;
    for (const n of c.defines) others.delete(n); // bound again before any recorded cell read it
    if (!others.size) return false;
  }
  return false;
}

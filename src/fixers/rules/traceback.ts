/**
 * The notebook frames of a kernel traceback. ipykernel names a cell's code by a hash of its source
 * (`/tmp/ipykernel_4/2142053953.py in ?(d)`; IPython 8 prints `Cell In[12], line 3`, older kernels
 * `<ipython-input-12-...>`), and every frame lists the numbered source lines around the failing one.
 * Those lines identify the cell directly, whatever the header's form: the frame is the cell whose
 * source has exactly these lines at these numbers.
 */
import type { CellContext, RuntimeFrame } from './context.js';
import type { SyntaxNode } from '../python/parser.js';

import { ANSI, leadingBlankLines } from '../../core/traceback.js';

export { ANSI };
const HEADER = /(?:ipykernel_\d+[\\/]\d+\.py|Cell In\s*\[\d*\]|<ipython-input-[^>]*>)/;

/** Notebook frames, outermost first; library frames are skipped. `sources[i]` is cell i's source ('' for non-code cells). */
export function notebookFrames(traceback: readonly string[], sources: readonly string[], preferCell?: number): RuntimeFrame[] {
  const frames: RuntimeFrame[] = [];
  const lineSets = sources.map((s) => s.split('\n'));
  const leads = sources.map(leadingBlankLines);
  for (const [i, raw] of traceback.entries()) {
    const entry = raw.replace(ANSI, '');
    const first = entry.split('\n')[0];
    if (!HEADER.test(first)) continue;
    // The library frame this line called into: `File .../pandas/core/frame.py:11049, in DataFrame.corr(self, ...)`.
    const next = (traceback[i + 1] ?? '').replace(ANSI, '').split('\n')[0];
    const called = !HEADER.test(next) ? /, in ([A-Z]\w*)\.(\w+)\(/.exec(next) : null;
    const fn = /in \??([\w<>?]*)\(/.exec(first)?.[1] || /, in (\w+)/.exec(first)?.[1];
    const listed: Array<{ n: number; text: string; arrow: boolean }> = [];
    for (const line of entry.split('\n').slice(1)) {
      const m = /^\s*(-*>)?\s*(\d+)\s(.*)$/.exec(line);
      if (m) listed.push({ n: Number(m[2]), text: m[3], arrow: !!m[1] });
    }
    const at = listed.find((l) => l.arrow);
    if (!at) continue;
    // IPython shows a function body's lines dedented (stack_data strips the common indent), so the
    // comparison ignores leading whitespace as well. Its numbers count from the cell's first line with
    // code (leadingBlankLines); a kernel without that transform counted from the first line itself.
    const fits = (lines: string[], shift: number) => listed.every((l) => (lines[l.n - 1 + shift] ?? '').trim() === l.text.trim());
    const matches = lineSets.flatMap((lines, cell) => {
      const lead = leads[cell]!;
      return fits(lines, lead) ? [{ cell, shift: lead }] : lead && fits(lines, 0) ? [{ cell, shift: 0 }] : [];
    });
    const match = matches.find((m) => m.cell === preferCell) ?? matches[0];
    if (match === undefined) continue;
    frames.push({ cell: match.cell, line: at.n + match.shift, ...(fn && fn !== '?' ? { function: fn } : {}), ...(called ? { callee: { type: called[1], method: called[2] } } : {}) });
  }
  return frames;
}

/** Compound statements: a line in their header is not the whole statement (their body is other lines). */
const COMPOUND = new Set(['if_statement', 'for_statement', 'while_statement', 'try_statement', 'with_statement', 'match_statement', 'function_definition', 'class_definition', 'decorated_definition']);

/**
 * The rows (0-based, inclusive) of the simple statement holding 1-based `line` under `root`, or that
 * line alone. Python names one line of a statement that spans several — 3.13 names the line of the
 * call being made, so `make_pipeline(LassoCV(max_iter=1e7,\n ...)).fit(X, y)` fails "at" the `.fit`
 * line while the argument at fault sits two lines above, in the same statement.
 */
export function statementRows(root: SyntaxNode, line: number): [number, number] {
  const row = line - 1;
  let node: SyntaxNode | null = root;
  while (node) {
    let next: SyntaxNode | null = null;
    for (const child of node.namedChildren) {
      if (child && child.startPosition.row <= row && child.endPosition.row >= row) { next = child; break; }
    }
    if (!next) break;
    if (next.type.endsWith('_statement') && !COMPOUND.has(next.type)) return [next.startPosition.row, next.endPosition.row];
    node = next;
  }
  return [row, row];
}

/**
 * A test that a node lies on a line the traceback's frames name in `cell` (any node when they name
 * none there): error-built repairs edit where the error is, not every look-alike in the cell. With the
 * cell's `root`, "the line" is the whole simple statement holding it (see statementRows).
 */
export function onFrameLines(frames: readonly RuntimeFrame[], cell: number, root?: SyntaxNode): (n: SyntaxNode) => boolean {
  const lines = frames.filter((f) => f.cell === cell).map((f) => f.line);
  if (!lines.length) return () => true;
  const spans = lines.map((l): [number, number] => (root ? statementRows(root, l) : [l - 1, l - 1]));
  return (n) => spans.some(([a, b]) => n.startPosition.row <= b && n.endPosition.row >= a);
}

/**
 * For a rule fired by one error: the message's match and the test for the traceback's lines, when the
 * runtime evidence is that error (else undefined: other errors at the same code are other rules').
 */
export function atRuntimeError(ctx: CellContext, pattern: RegExp): { match: RegExpExecArray; onLine: (n: SyntaxNode) => boolean } | undefined {
  const rt = ctx.nb.info.runtime;
  const match = rt ? pattern.exec(rt.evalue) : null;
  return match ? { match, onLine: onFrameLines(rt!.frames ?? [], ctx.index, ctx.root) } : undefined;
}

/** The cell is the failing one or a frame of the runtime error's traceback (error-built repairs edit only there). */
export function isTracedCell(ctx: CellContext): boolean {
  const rt = ctx.nb.info.runtime;
  return !!rt && (ctx.index === rt.failingCell || (rt.frames ?? []).some((f) => f.cell === ctx.index));
}

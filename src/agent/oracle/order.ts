/**
 * Cells the original run executed out of order, in a way that can change what they printed.
 *
 * A stored output was produced in the state left by every cell that had run before it, which for
 * a notebook run out of order includes cells further down (lower execution_count, later
 * position). An in-order run cannot reproduce such an output when one of those later cells
 * binds or mutates a name the cell reads (APO1979/titanic: cell 6 counts nulls after cell 7 had
 * filled them). Which names a cell binds and reads is estimated from its source with a few
 * regular expressions (no Python parser): assignments, augmented assignments, for/with/import/
 * def/class/del targets, receivers of mutating or statement-level method calls; reads are the
 * identifiers it mentions. Bodies of def/class are skipped (their names are local).
 */
import type { CodeCell, Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';

export interface OutOfOrder {
  /** This cell's execution count in the original. */
  count: number;
  /** A later cell that ran before it and binds or mutates a name it reads. */
  laterCell: number;
  laterCount: number;
  /** Those names (a few). */
  names: string[];
}

/** Method names that change their receiver wherever they are called (pandas' inplace=True aside). */
const MUTATING = new Set([
  'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'update', 'add', 'discard', 'setdefault', 'sort', 'reverse',
  'fit', 'partial_fit', 'fit_transform', 'fit_predict', 'set_params', 'compile', 'load_state_dict',
]);

/** Source without comments, string contents and IPython magics/shell lines. */
export function stripPython(src: string): string {
  return src
    .replace(/("""|''')[\s\S]*?\1/g, '""')
    .replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, '""')
    .replace(/#.*$/gm, '')
    .replace(/^\s*[%!].*$/gm, '');
}

/** Physical lines joined into logical ones (open brackets, backslash continuations). */
function logicalLines(src: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const line of src.split('\n')) {
    cur = cur ? `${cur} ${line.trim()}` : line;
    for (const ch of line) {
      if ('([{'.includes(ch)) depth++;
      else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
    }
    if (depth > 0 || /\\\s*$/.test(line)) { cur = cur.replace(/\\\s*$/, ''); continue; }
    out.push(cur);
    cur = '';
  }
  if (cur) out.push(cur);
  return out;
}

/** Leading identifiers of the assignment targets of a logical line (`a, b[0], c.x = ...`, `a += 1`). */
function assignmentTargets(line: string): string[] {
  const cuts: number[] = [];
  let depth = 0;
  for (let k = 0; k < line.length; k++) {
    const ch = line[k]!;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === '=' && depth === 0 && line[k + 1] !== '=' && !'=!<>'.includes(line[k - 1] ?? '')) cuts.push(k);
    else if (ch === ':' && depth === 0 && /^\s*lambda\b/.test(line.slice(0, k).split('=').pop() ?? '')) break;
  }
  const names: string[] = [];
  let start = 0;
  for (const k of cuts) {
    for (const target of line.slice(start, k).split(',')) {
      const m = /^\s*[(*\s]*([A-Za-z_]\w*)/.exec(target);
      if (m) names.push(m[1]!);
    }
    start = k + 1;
  }
  return names;
}

/**
 * Names a cell binds or mutates at top level. Names bound by imports are returned apart
 * (re-importing a module does not change the state a later cell sees).
 */
export function boundNames(source: string, imported = new Set<string>()): Set<string> {
  const names = new Set<string>();
  let bodyIndent = -1;
  for (const line of logicalLines(stripPython(source))) {
    if (!line.trim()) continue;
    const indent = /^\s*/.exec(line)![0].length;
    if (bodyIndent >= 0 && indent > bodyIndent) continue;
    bodyIndent = -1;
    let m = /^\s*(?:async\s+)?(?:def|class)\s+(\w+)/.exec(line);
    if (m) { names.add(m[1]!); bodyIndent = indent; continue; }
    if ((m = /^\s*import\s+(.+)$/.exec(line))) {
      for (const part of m[1]!.split(',')) {
        const as = /\bas\s+(\w+)/.exec(part);
        const first = /^\s*(\w+)/.exec(part);
        if (as) imported.add(as[1]!); else if (first) imported.add(first[1]!);
      }
      continue;
    }
    if ((m = /^\s*from\s+\S+\s+import\s+(.+)$/.exec(line))) {
      for (const part of m[1]!.replace(/[()]/g, '').split(',')) {
        const as = /\bas\s+(\w+)/.exec(part);
        const first = /^\s*(\w+)/.exec(part);
        if (as) imported.add(as[1]!); else if (first) imported.add(first[1]!);
      }
      continue;
    }
    for (const f of line.matchAll(/\bfor\s+([\w\s,()]+?)\s+in\b/g)) for (const id of f[1]!.match(/[A-Za-z_]\w*/g) ?? []) names.add(id);
    for (const w of line.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) names.add(w[1]!);
    if ((m = /^\s*del\s+(.+)$/.exec(line))) for (const id of m[1]!.match(/(?<![.\w])[A-Za-z_]\w*/g) ?? []) names.add(id);
    for (const t of assignmentTargets(line)) names.add(t);
    for (const c of line.matchAll(/(?<![.\w])([A-Za-z_]\w*)(?:\.\w+|\[[^\]]*\])*\.(\w+)\(/g)) {
      if (MUTATING.has(c[2]!)) names.add(c[1]!);
    }
    if (/inplace\s*=\s*True/.test(line) && (m = /(?<![.\w])([A-Za-z_]\w*)(?:\.\w+|\[[^\]]*\])*\.\w+\(/.exec(line))) names.add(m[1]!);
  }
  return names;
}

/** Identifiers a cell mentions (attributes after a dot excluded). */
export function readNames(source: string): Set<string> {
  return new Set(stripPython(source).match(/(?<![.\w])[A-Za-z_]\w*/g) ?? []);
}

export function outOfOrderCells(nb: Notebook): Map<number, OutOfOrder> {
  const code: Array<{ i: number; count: number; src: string }> = [];
  nb.cells.forEach((c, i) => {
    if (c.cell_type !== 'code') return;
    const count = (c as CodeCell).execution_count;
    if (typeof count === 'number') code.push({ i, count, src: sourceText(c.source) });
  });
  // Module aliases (plt, sns, np...): calls on them (plt.figure()) are not data changes.
  const modules = new Set<string>();
  nb.cells.forEach((c) => { if (c.cell_type === 'code') boundNames(sourceText(c.source), modules); });
  const bound = new Map<number, Set<string>>();
  const boundOf = (k: number): Set<string> => {
    let s = bound.get(k);
    if (!s) { s = new Set([...boundNames(code[k]!.src)].filter((n) => !modules.has(n))); bound.set(k, s); }
    return s;
  };
  const out = new Map<number, OutOfOrder>();
  code.forEach((cell, a) => {
    let reads: Set<string> | undefined;
    for (let b = a + 1; b < code.length; b++) {
      const later = code[b]!;
      if (later.count >= cell.count) continue;
      reads ??= readNames(cell.src);
      const names = [...boundOf(b)].filter((n) => reads!.has(n));
      if (names.length) {
        out.set(cell.i, { count: cell.count, laterCell: later.i, laterCount: later.count, names: names.slice(0, 5) });
        break;
      }
    }
  });
  return out;
}

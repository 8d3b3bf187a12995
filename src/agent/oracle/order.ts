/**
 * Cells the original run executed out of order, in a way that can change what they printed.
 *
 * A stored output was produced in the state left by every cell that had run before it, which for
 * a notebook run out of order includes cells further down (lower execution_count, later
 * position). An in-order run cannot reproduce such an output when one of those later cells
 * binds or mutates a name the cell reads (APO1979/titanic: cell 6 counts nulls after cell 7 had
 * filled them). Which names a cell binds (or mutates) and reads comes from the def-use analysis
 * of its parse tree (fixers/python/defuse.ts); reads are every name it mentions.
 */
import type { CodeCell, Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import { analyzeCell, mentionedNames } from '../../fixers/python/defuse.js';

export interface OutOfOrder {
  /** This cell's execution count in the original. */
  count: number;
  /**
   * A later cell that ran before it and binds or mutates a name it reads; or, with `earlierRanAfter`,
   * an earlier cell that last ran after it and changes such a name in place.
   */
  laterCell: number;
  laterCount: number;
  /** Those names (a few). */
  names: string[];
  /** The other cell comes first in the notebook but ran after this one (see outOfOrderCells). */
  earlierRanAfter?: true;
}

/**
 * Names a cell binds or mutates at top level (python/defuse.ts: scoping, mutating methods,
 * `inplace=True`). Names bound by imports are returned apart (re-importing a module does not change
 * the state a later cell sees).
 */
export function boundNames(source: string, imported = new Set<string>()): Set<string> {
  const du = analyzeCell(source);
  const fromImports = new Set(du.imports.map((i) => i.bound));
  for (const name of fromImports) imported.add(name);
  return new Set([...du.defines.filter((n) => !fromImports.has(n)), ...du.mutates]);
}

/** Names a cell mentions (attributes after a dot excluded). */
export function readNames(source: string): Set<string> {
  return mentionedNames(source);
}

/**
 * How soon after a cell an earlier one must have run to count as skipped over and returned to. A
 * cell above re-run much later (a cleaning step run again at the end) most often ran before too, in
 * the author's first pass: its effect was then already in the stored output, and the cell is judged.
 */
const SKIPPED_AND_RETURNED = 3;

/**
 * Which cells ran out of order. Two shapes:
 * - a later cell ran before this one (a lower count) and binds or mutates a name it reads: the stored
 *   output saw that cell's effect, which an in-order run gives only afterwards;
 * - an earlier cell last ran just after this one (a count at most SKIPPED_AND_RETURNED higher: the
 *   author skipped it and came back) and changes a name it reads in place
 *   (mutates it, or rebinds it from itself: `df[c] = enc.transform(df[c])`, `x = x.fillna(0)`): an
 *   in-order run applies that change first, and the stored output may not have seen it (Tommo565:
 *   `all_data.head()` shown before the cell above it label-encoded `MSSubClass`). A cell that only
 *   binds afresh (`train = pd.read_csv(...)`, re-run late) gives the same state either way: not counted.
 */
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
  const updated = new Map<number, Set<string>>();
  const updatedOf = (k: number): Set<string> => {
    let s = updated.get(k);
    if (!s) {
      const du = analyzeCell(code[k]!.src);
      const own = new Set(du.uses);
      s = new Set([...du.mutates, ...du.defines.filter((n) => own.has(n))].filter((n) => !modules.has(n)));
      updated.set(k, s);
    }
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
        return;
      }
    }
    for (let b = a - 1; b >= 0; b--) {
      const earlier = code[b]!;
      if (earlier.count <= cell.count || earlier.count - cell.count > SKIPPED_AND_RETURNED) continue;
      reads ??= readNames(cell.src);
      const names = [...updatedOf(b)].filter((n) => reads!.has(n));
      if (names.length) {
        out.set(cell.i, { count: cell.count, laterCell: earlier.i, laterCount: earlier.count, names: names.slice(0, 5), earlierRanAfter: true });
        return;
      }
    }
  });
  return out;
}

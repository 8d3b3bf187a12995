/**
 * The author's execution order. More than half of old notebooks with stored outputs have execution
 * counts that do not increase top to bottom: the author ran cells out of order, so a top-to-bottom
 * run raises `NameError` for a name defined in a later cell that the author had run earlier. The
 * stored counts are the author's real trajectory; when they show that the defining cell ran before the
 * failing one, running it first is the repair (the smallest move: the defining cell, and what it
 * needs that also sits later, go just before the failing cell).
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import { analyzeNotebook, type NotebookDefUse } from '../fixers/python/defuse.js';
import { codeCellIndices, deletedReason } from '../fixers/llm/structure.js';

export interface OrderRepair {
  /** Code cell indices in the order to run them. */
  order: number[];
  /** The cells that moved up, in the order they now run. */
  moved: number[];
  why: string;
  /** Import lines of cells left in place that the moved cells need (unproven moves; the replay runs them first). */
  imports?: string[];
}

export { codeCellIndices };

/** Stored execution counts by cell index (cells never run, or without a count, absent). */
export function storedCounts(nb: Notebook): Map<number, number> {
  const out = new Map<number, number>();
  nb.cells.forEach((c, i) => {
    if (c.cell_type === 'code' && typeof c.execution_count === 'number') out.set(i, c.execution_count);
  });
  return out;
}

/** Code cells sorted by stored execution count; cells without one stay right after their file-order predecessor. Undefined when that is file order. */
export function recordedOrder(nb: Notebook): number[] | undefined {
  const counts = storedCounts(nb);
  if (!counts.size) return undefined;
  let last = 0;
  const keyed = codeCellIndices(nb).map((i, k) => {
    const c = counts.get(i);
    if (c !== undefined) last = c;
    return { i, key: c ?? last + 0.5, k };
  });
  const order = [...keyed].sort((a, b) => a.key - b.key || a.k - b.k).map((x) => x.i);
  return order.every((v, k) => v === keyed[k].i) ? undefined : order;
}

/**
 * Run order for `NameError: name` at `failingCell`, or undefined when the stored counts do not show
 * that a later cell defining it ran first (then it is not an order problem, or we cannot know).
 * `original` holds the stored counts; `work` is the notebook as it stands (cells correspond by index).
 */
export async function orderForNameError(original: Notebook, work: Notebook, failingCell: number, name: string, currentOrder?: number[]): Promise<OrderRepair | undefined> {
  const du = analyzeNotebook(work);
  const counts = storedCounts(original);
  const order = currentOrder ?? codeCellIndices(work);
  return planMove(du, counts, order, failingCell, name);
}

/**
 * The same move without the counts' proof: the name is defined only in a later cell, but the stored
 * counts are missing or say it ran later (the author's kernel held an earlier version of it). Weaker
 * candidates, tried after the proven ones; the stored outputs decide whether one is kept. Which
 * definition the author's kernel held is unknown, so two are offered: the nearest later definition
 * first, the smallest move (every cell run before its time changes state the cells in between read:
 * a later `drop(columns, inplace=True)` run early empties the columns a `head()` in between shows),
 * then the last one in the file, as the file's end state.
 */
export async function unprovenOrdersForNameError(work: Notebook, failingCell: number, name: string, currentOrder?: number[]): Promise<OrderRepair[]> {
  const du = analyzeNotebook(work);
  const order = currentOrder ?? codeCellIndices(work);
  const failPos = order.indexOf(failingCell);
  const firstLater = order.findIndex((c, k) => k > failPos && (du.byCell.get(c)?.defines ?? []).includes(name));
  if (failPos < 0 || firstLater < 0) return [];
  const plans: OrderRepair[] = [];
  // Pretend each cell ran in file order and the failing one right after the nearest definition, or last.
  for (const cut of [firstLater + 0.5, order.length + 1]) {
    const counts = new Map(order.map((cell, k) => [cell, cell === failingCell ? cut : k]));
    const plan = planMove(du, counts, order, failingCell, name, true, work);
    if (!plan || plans.some((p) => p.moved.join() === plan.moved.join())) continue;
    const many = plan.moved.length > 1;
    plans.push({ ...plan, why: `run cell${many ? 's' : ''} ${plan.moved.join(', ')} before cell ${failingCell}: the only definition${many ? 's' : ''} of ${name} come${many ? '' : 's'} later in the file (the stored execution counts do not show the author's order; ${plans.length ? 'the last definition' : 'the nearest definition, the smallest move'})` });
  }
  return plans;
}

/**
 * `unproven`: the counts are made up from the file's order (unprovenOrdersForNameError), so the moved
 * cells' inputs are settled against the file (settleInputs); `work` supplies the import lines a replay needs.
 */
export function planMove(du: NotebookDefUse, counts: Map<number, number>, order: number[], failingCell: number, name: string, unproven = false, work?: Notebook): OrderRepair | undefined {
  const pos = (i: number) => order.indexOf(i);
  const failPos = pos(failingCell);
  const failCount = counts.get(failingCell);
  if (failPos < 0 || failCount === undefined) return undefined;
  const definers = (n: string) => du.cells.filter((c) => c.defines.includes(n)).map((c) => c.cell);
  const moved = new Set<number>();
  // Move `n`'s latest definition that the author ran before `beforeCount`, and (transitively) what it needs.
  // `requester`: the cell that reads `n`; a moved cell provides it only when it runs before the reader
  // (a lower count) and is not the reader itself (`X = f(X)` reads the X an earlier cell bound).
  const need = (n: string, beforeCount: number, depth: number, requester = failingCell): boolean => {
    const defs = definers(n);
    if (defs.some((d) => pos(d) < failPos || (moved.has(d) && d !== requester && (counts.get(d) ?? Infinity) < beforeCount))) return true; // already available
    const ran = defs.filter((d) => pos(d) > failPos && (counts.get(d) ?? Infinity) < beforeCount).sort((a, b) => counts.get(b)! - counts.get(a)!);
    const d = ran[0];
    if (d === undefined || depth > 20) return false;
    moved.add(d);
    const uses = du.byCell.get(d)?.uses ?? [];
    return uses.every((u) => definers(u).length === 0 || need(u, counts.get(d)!, depth + 1, d));
  };
  if (definers(name).some((d) => pos(d) < failPos)) return undefined;
  if (!need(name, failCount, 0) || moved.size === 0) return undefined;
  const essential = new Set(moved);
  companions(du, counts, order, failPos, moved, need);
  const settled = unproven ? settleInputs(du, work, order, failPos, moved, essential) : { imports: [] };
  if (!settled) return undefined;
  const up = [...moved].sort((a, b) => counts.get(a)! - counts.get(b)!);
  const rest = order.filter((i) => !moved.has(i));
  const at = rest.indexOf(failingCell);
  const next = [...rest.slice(0, at), ...up, ...rest.slice(at)];
  return { order: next, moved: up, why: describeMove(up, failingCell, name, counts), ...(settled.imports.length ? { imports: settled.imports } : {}) };
}

/**
 * With made-up counts, a moved cell must still read what it read in the file: the last cell before it
 * that binds or changes each of its inputs (`df` reloaded by a cell between) moves too, unless it is
 * above the failing cell or already moved. Where that cell is the failing one itself, or a cell that
 * reads its work (a plot of the columns it joins), the reader stays below it: a companion is left out,
 * and a plan whose needed definition would lose its input is no plan (undefined). An input a cell
 * between binds by an import (`import numpy as np` first written in a plotting cell) is not a reason
 * to move that cell: its import lines are returned, for the replay to run first.
 */
function settleInputs(du: NotebookDefUse, work: Notebook | undefined, order: number[], failPos: number, moved: Set<number>, essential: ReadonlySet<number>): { imports: string[] } | undefined {
  const pos = (i: number) => order.indexOf(i);
  const lastBinder = (c: number, u: string): number | undefined => {
    for (let k = pos(c) - 1; k >= 0; k--) {
      const x = du.byCell.get(order[k]!);
      if (x && (x.defines.includes(u) || x.mutates.includes(u))) return order[k];
    }
    return undefined;
  };
  const removed = new Set<number>([order[failPos]!]);
  const imports = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const c of [...moved]) {
      for (const u of du.byCell.get(c)?.uses ?? []) {
        const b = lastBinder(c, u);
        if (b === undefined || pos(b) < failPos || moved.has(b)) continue;
        if (b !== order[failPos] && du.byCell.get(b)?.imports.some((i) => i.bound === u)) {
          const lines = sourceText(work?.cells[b]?.source).split('\n').filter((l) => /^(from\s+\S+\s+)?import\s/.test(l) && new RegExp(`\\b${u}\\b`).test(l));
          if (lines.length) { lines.forEach((l) => imports.add(l)); continue; }
        }
        if (removed.has(b)) {
          if (essential.has(c)) return undefined;
          moved.delete(c);
          removed.add(c);
        } else {
          moved.add(b);
        }
        changed = true;
        break;
      }
    }
  }
  return moved.size > 0 ? { imports: [...imports] } : undefined;
}

/**
 * Cells the author ran before a moved cell that sit between the failing cell and it in the file, and
 * touch the state the moved cell reads (a cell filling `data`'s missing ages through a function
 * call, before the cell that builds features from `data`): in the author's kernel the moved cell saw
 * their effect, so they move with it, in recorded order. Def-use cannot see every in-place change
 * (a helper function mutating its argument), so a shared name is the test; the recorded counts
 * keep the move within the author's own order.
 */
function companions(du: NotebookDefUse, counts: Map<number, number>, order: number[], failPos: number, moved: Set<number>, need: (n: string, beforeCount: number, depth: number, requester?: number) => boolean): void {
  const pos = (i: number) => order.indexOf(i);
  const queue = [...moved];
  while (queue.length) {
    const m = queue.shift()!;
    const reads = new Set(du.byCell.get(m)?.uses ?? []);
    const mCount = counts.get(m)!;
    for (const c of order) {
      const cCount = counts.get(c);
      if (moved.has(c) || pos(c) <= failPos || pos(c) >= pos(m) || cCount === undefined || cCount >= mCount) continue;
      const info = du.byCell.get(c);
      const touches = [...(info?.defines ?? []), ...(info?.mutates ?? []), ...(info?.uses ?? [])].some((n) => reads.has(n));
      if (!touches) continue;
      // It must run where it lands: what it reads is available there, or moves too.
      const trial = new Set(moved);
      moved.add(c);
      if (!(info?.uses ?? []).every((u) => !du.cells.some((x) => x.defines.includes(u)) || need(u, cCount, 1, c))) { moved.clear(); for (const x of trial) moved.add(x); continue; }
      queue.push(c);
    }
  }
}

/** At most this many cells of the author's run-up are replayed before the failing cell. */
const MAX_RUN_UP = 8;

/**
 * The author's run-up to the failing cell: the cells with the execution counts just below its own
 * (consecutive: n-1, n-2, ...), which the author ran immediately before it, in that order. When the
 * file does not run them that way (`df_clean = df_raw.copy()` at [74] sits after the cell that adds
 * a column to it at [75], and the failing cell at [76] reads that column: a KeyError top to bottom),
 * running them in the author's order just before the failing cell is a candidate for any error that
 * depends on state. Unproven as a cause, so the stored outputs decide whether it is kept.
 */
export function runUpOrder(original: Notebook, failingCell: number, currentOrder: number[]): OrderRepair | undefined {
  const counts = storedCounts(original);
  const own = counts.get(failingCell);
  if (own === undefined) return undefined;
  const byCount = new Map<number, number>();
  for (const [cell, n] of counts) if (currentOrder.includes(cell)) byCount.set(n, cell);
  const chain: number[] = [];
  for (let n = own - 1; byCount.has(n) && chain.length < MAX_RUN_UP; n--) chain.unshift(byCount.get(n)!);
  if (!chain.length) return undefined;
  const rest = currentOrder.filter((c) => !chain.includes(c));
  const at = rest.indexOf(failingCell);
  if (at < 0) return undefined;
  const order = [...rest.slice(0, at), ...chain, ...rest.slice(at)];
  if (order.every((c, k) => c === currentOrder[k])) return undefined;
  const moved = chain.filter((c) => currentOrder.indexOf(c) !== order.indexOf(c));
  const cells = chain.map((c) => `cell ${c} [${counts.get(c)}]`).join(', ');
  return { order, moved, why: `run ${cells} just before cell ${failingCell} [${own}]: the author ran them immediately before it, in that order (consecutive execution counts)` };
}

/**
 * The run-up run again instead of moved: where a cell between a run-up cell's place and the failing
 * cell, which the author ran before the run-up cell's last run (a lower count), reads what the
 * run-up cell binds, the author ran it there too (an earlier run, the stored count being its last),
 * so moving it away breaks that reader. The same cells, their sources in
 * the run-up's order, as one cell inserted just before the failing one; undefined when no reader
 * stands between (moving them is then the same run-up).
 */
export function runUpReplay(original: Notebook, work: Notebook, runUp: OrderRepair, failingCell: number, currentOrder: number[]): { source: string; cells: number[] } | undefined {
  if (!runUp.moved.length) return undefined;
  const du = analyzeNotebook(work);
  const counts = storedCounts(original);
  const failPos = currentOrder.indexOf(failingCell);
  // A reader the author ran (a count), before the run-up cell's last run: it saw an earlier run of it.
  const readBetween = runUp.moved.some((m) => {
    const binds = new Set(du.byCell.get(m)?.defines ?? []);
    const from = currentOrder.indexOf(m);
    const last = counts.get(m) ?? -Infinity;
    return from >= 0 && currentOrder.slice(from + 1, failPos).some((c) => !runUp.moved.includes(c) && (counts.get(c) ?? Infinity) < last && (du.byCell.get(c)?.uses ?? []).some((u) => binds.has(u)));
  });
  if (!readBetween) return undefined;
  return replayOf(work, runUp.moved);
}

/** Cells run again as one inserted cell: their sources in order (after any import lines they need). */
function replayOf(work: Notebook, cells: number[], imports: string[] = []): { source: string; cells: number[] } {
  const head = imports.length ? [imports.join('\n')] : [];
  return { source: [...head, ...cells.map((c) => sourceText(work.cells[c]?.source))].join('\n\n'), cells };
}

/**
 * An unproven move run again instead of moved: the cells that bind the missing name, their sources in
 * the move's order, as one cell inserted just before the failing one, the originals left where they
 * stand. The author's kernel held the name from an earlier run of those cells, and their stored counts
 * (higher than the failing cell's) are their last run, where the file has them: both runs are kept,
 * so nothing between the failing cell and their place sees state it did not see before.
 */
export function unprovenReplay(work: Notebook, plan: OrderRepair): { source: string; cells: number[] } | undefined {
  return plan.moved.length ? replayOf(work, plan.moved, plan.imports) : undefined;
}

export function describeMove(moved: number[], failingCell: number, name: string, counts: Map<number, number>): string {
  const cells = moved.map((m) => `cell ${m} [${counts.get(m)}]`).join(', ');
  return `run ${cells} before cell ${failingCell} [${counts.get(failingCell)}], as the author's execution counts show (it defines ${name})`;
}

/**
 * The notebook with its code cells in `order`: code cells fill the code-cell slots in the new order,
 * markdown cells stay where they are. Returns the permutation (old index -> new index) too.
 */
export function reorderCells(nb: Notebook, order: number[]): { notebook: Notebook; newIndex: Map<number, number> } {
  const slots = codeCellIndices(nb);
  const out = structuredClone(nb);
  const newIndex = new Map<number, number>();
  order.forEach((oldIdx, k) => {
    out.cells[slots[k]] = structuredClone(nb.cells[oldIdx]);
    newIndex.set(oldIdx, slots[k]);
  });
  for (let i = 0; i < nb.cells.length; i++) if (!newIndex.has(i)) newIndex.set(i, i);
  return { notebook: out, newIndex };
}

/**
 * The written layout after structural edits (cells inserted, deleted, moved by a patch): the code
 * cells in `order`, deleted ones left out, each original code cell with the markdown that stood
 * above it (the author's explanation travels with its code), inserted cells bare, trailing
 * markdown last. `origin` maps each new position to the working number (the diff and the marks).
 */
export function layoutCells(nb: Notebook, order: number[] | undefined): { notebook: Notebook; newIndex: Map<number, number>; origin: Map<number, number> } {
  const code = order ?? codeCellIndices(nb);
  const above = new Map<number, number[]>();
  let pending: number[] = [];
  nb.cells.forEach((c, i) => {
    // An inserted cell (appended while the loop worked) has no markdown of its own.
    if ((c.metadata as any)?.nbmodernize?.inserted) above.set(i, []);
    else if (c.cell_type === 'code') {
      above.set(i, pending);
      pending = [];
    } else pending.push(i);
  });
  const seq: number[] = [];
  for (const i of code) {
    seq.push(...(above.get(i) ?? []));
    if (deletedReason(nb, i) === undefined) seq.push(i);
  }
  for (const i of codeCellIndices(nb)) if (!code.includes(i)) { seq.push(...(above.get(i) ?? [])); if (deletedReason(nb, i) === undefined) seq.push(i); }
  seq.push(...pending);
  const out = structuredClone(nb);
  out.cells = seq.map((i) => structuredClone(nb.cells[i]!));
  const newIndex = new Map(seq.map((old, k) => [old, k]));
  const origin = new Map(seq.map((old, k) => [k, old]));
  return { notebook: out, newIndex, origin };
}

/** Did a patch insert or delete cells (then the written notebook needs `layoutCells`)? */
export function hasStructuralEdits(nb: Notebook, originalCells: number): boolean {
  return nb.cells.length > originalCells || nb.cells.some((_, i) => deletedReason(nb, i) !== undefined);
}

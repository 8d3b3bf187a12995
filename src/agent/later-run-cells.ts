/**
 * Cells the author ran after the failing one that sit above it in the file. A cell's stored count
 * says when the author ran it: a cell above the failing one with a higher count ran later, so the
 * state the failing cell saw in the author's kernel did not yet hold its changes. When such a cell
 * changes what the failing cell reads (`train.loc[[61, 829], :] = 'Q'` run at [41], above a cell
 * taking `train.Fare.max()` at [24]: every column of two rows becomes a string, and `max` raises a
 * TypeError top to bottom), running it just after the failing cell is the author's order for that
 * pair. What the failing cell reads includes what the cells feeding it read (cells above it the
 * author ran before it), so a change to a frame that reaches the failing cell through a split or a
 * selection counts. The cells between that ran later too and read what it binds go with it (they ran
 * after it). Placed after the failing cell, and after the cells there that the author ran before it
 * (lower counts), so they keep the state they saw. Unproven as a cause, so the stored outputs decide
 * whether it is kept.
 */
import type { Notebook } from '../core/notebook.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { storedCounts, type OrderRepair } from './execution-order.js';

/**
 * `directOnly`: only the cells changing what the failing cell itself reads (not what reaches it
 * through the cells feeding it): the smaller move, which a drift tries first (cell-level def-use
 * over-approximates the feeding: `train.drop(...); test.drop(...)` in one cell ties both frames).
 */
export function laterRunOrder(original: Notebook, work: Notebook, failingCell: number, currentOrder: number[], directOnly = false): OrderRepair | undefined {
  const counts = storedCounts(original);
  const own = counts.get(failingCell);
  const failPos = currentOrder.indexOf(failingCell);
  if (own === undefined || failPos <= 0) return undefined;
  const du = analyzeNotebook(work);
  const upstream = upstreamReads(du.byCell, counts, currentOrder.slice(0, failPos), failingCell, own);
  const reads: ReadonlySet<string> & { direct: ReadonlySet<string> } = directOnly ? Object.assign(new Set(upstream.direct), { direct: upstream.direct }) : upstream;
  const defined = new Set<string>();
  const deferred: number[] = [];
  const touched = new Set<string>();
  const deferredBinds = new Set<string>();
  for (const cell of currentOrder.slice(0, failPos)) {
    const c = du.byCell.get(cell);
    const n = counts.get(cell);
    if (!c) continue;
    if (n !== undefined && n > own) {
      // A definition replaces state only where an earlier cell defined the name too (else the failing cell needs it).
      const writes = [...c.mutates, ...c.defines.filter((d) => defined.has(d))];
      const hit = writes.filter((w) => reads.has(w));
      const follows = deferred.length > 0 && c.uses.some((u) => deferredBinds.has(u));
      if (hit.length || follows) {
        deferred.push(cell);
        for (const w of hit) touched.add(w);
        // What it changes in place follows it too (a frame it transforms that a later-run cell encodes).
        for (const d of [...c.defines, ...c.mutates]) deferredBinds.add(d);
      }
    }
    for (const d of c.defines) defined.add(d);
  }
  if (!touched.size) return undefined;
  const rest = currentOrder.filter((c) => !deferred.includes(c));
  // After the failing cell, the cells the author ran before the deferred ones (lower counts) keep
  // the state they saw: the deferred cells go in before the first cell they ran before.
  const first = Math.min(...deferred.map((c) => counts.get(c)!));
  let at = rest.indexOf(failingCell) + 1;
  while (at < rest.length && (counts.get(rest[at]!) ?? -Infinity) < first) at++;
  const order = [...rest.slice(0, at), ...deferred, ...rest.slice(at)];
  const cells = deferred.map((c) => `cell ${c} [${counts.get(c)}]`).join(', ');
  const prev = rest[at - 1]!;
  const where = prev === failingCell ? `after cell ${failingCell} [${own}]` : `after cell ${prev}${counts.has(prev) ? ` [${counts.get(prev)}]` : ''}`;
  return { order, moved: deferred, why: `run ${cells} ${where}: the author ran ${deferred.length > 1 ? 'them' : 'it'} after cell ${failingCell} [${own}] (execution counts), and ${deferred.length > 1 ? 'they change' : 'it changes'} ${[...touched].join(', ')}, which cell ${failingCell} reads${reads.direct.has([...touched][0]!) ? '' : ' through the cells that feed it'}` };
}

/**
 * What the failing cell reads, and what the cells feeding it read: a cell above it that the author
 * ran before it (a lower count) and that binds or changes a name in the set adds its own reads
 * (`Y_train` <- `train_test_split(df_simple)` <- `df.loc[:, cols]`: a change to `df` reaches the
 * failing cell through them).
 */
export function upstreamReads(byCell: ReturnType<typeof analyzeNotebook>['byCell'], counts: ReadonlyMap<number, number>, above: readonly number[], failingCell: number, own: number): Set<string> & { direct: ReadonlySet<string> } {
  const direct = new Set(byCell.get(failingCell)?.uses ?? []);
  const reads = new Set(direct);
  for (let i = above.length - 1; i >= 0; i--) {
    const c = byCell.get(above[i]!);
    const n = counts.get(above[i]!);
    if (!c || n === undefined || n > own) continue;
    if ([...c.defines, ...c.mutates].some((d) => reads.has(d))) for (const u of c.uses) reads.add(u);
  }
  return Object.assign(reads, { direct });
}

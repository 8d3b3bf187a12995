/**
 * Cells the author ran after the failing one that sit above it in the file. A cell's stored count
 * says when the author ran it: a cell above the failing one with a higher count ran later, so the
 * state the failing cell saw in the author's kernel did not yet hold its changes. When such a cell
 * changes what the failing cell reads (`train.loc[[61, 829], :] = 'Q'` run at [41], above a cell
 * taking `train.Fare.max()` at [24]: every column of two rows becomes a string, and `max` raises a
 * TypeError top to bottom), running it just after the failing cell is the author's order for that
 * pair. The cells between that ran later too and read what it binds go with it (they ran after it).
 * Unproven as a cause, so the stored outputs decide whether it is kept.
 */
import type { Notebook } from '../core/notebook.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { storedCounts, type OrderRepair } from './execution-order.js';

export function laterRunOrder(original: Notebook, work: Notebook, failingCell: number, currentOrder: number[]): OrderRepair | undefined {
  const counts = storedCounts(original);
  const own = counts.get(failingCell);
  const failPos = currentOrder.indexOf(failingCell);
  if (own === undefined || failPos <= 0) return undefined;
  const du = analyzeNotebook(work);
  const reads = new Set(du.byCell.get(failingCell)?.uses ?? []);
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
        for (const d of c.defines) deferredBinds.add(d);
      }
    }
    for (const d of c.defines) defined.add(d);
  }
  if (!touched.size) return undefined;
  const rest = currentOrder.filter((c) => !deferred.includes(c));
  const at = rest.indexOf(failingCell) + 1;
  const order = [...rest.slice(0, at), ...deferred, ...rest.slice(at)];
  const cells = deferred.map((c) => `cell ${c} [${counts.get(c)}]`).join(', ');
  return { order, moved: deferred, why: `run ${cells} after cell ${failingCell} [${own}]: the author ran ${deferred.length > 1 ? 'them' : 'it'} later (execution counts), and ${deferred.length > 1 ? 'they change' : 'it changes'} ${[...touched].join(', ')}, which cell ${failingCell} reads` };
}

/**
 * After a patch: re-run from the patched cell in the live kernel, or restart from scratch?
 * Incremental is where we beat full re-runs, but only when the kernel state is trustworthy:
 *  - the kernel is alive (it did not die or ignore an interrupt),
 *  - nothing above the re-run point changed (the patch touches only cells >= the failing cell),
 *  - the failing cell did not mutate state before it failed: the runtime-state summary after it
 *    equals the one after the cell before it (names, types, shapes, columns), or every name that
 *    differs is one the cell binds before it reads it (in the code that ran and in the patched code),
 *    so running the cell again from its top binds them anew from what the cells above left.
 * Anything else restarts. The decision and its reason go into the trajectory.
 *
 * Why the second case: a cell that imports and sets up (`from sklearn... import X; alphas = [...];
 * model = X(max_iter=1e7).fit(...)`) binds names before its failing line. Restarting from cell 0 for
 * that re-ran everything above (9 minutes for one such fix in a house-prices notebook) although
 * re-running the cell itself rebinds those names exactly.
 */
import type { CellRecord } from '../core/run-result.js';

/** What def-use analysis says of the failing cell: the code that ran, and the patched code. */
export interface FailedCellBindings {
  /** Names the cell binds (assignments, imports, def/class, loop targets). */
  ranDefines: readonly string[];
  /** Names the cell reads before binding them (or never binds). */
  ranUses: readonly string[];
  nextDefines: readonly string[];
  nextUses: readonly string[];
  hasSyntaxErrors: boolean;
}

export type Reexecution = { mode: 'incremental' | 'restart'; fromCell: number; reason: string };

export function decideReexecution(input: {
  incrementalEnabled: boolean;
  kernelAlive: boolean;
  patchedCells: number[];
  /** First cell that did not complete in the last run (the one that failed), if any. */
  failedCell: number | undefined;
  lastRunCells: CellRecord[];
  lastRunWasComplete: boolean;
  /** Def-use of the failing cell, when its code is known (see FailedCellBindings). */
  failedCellBindings?: FailedCellBindings;
}): Reexecution {
  const first = Math.min(...input.patchedCells);
  if (!input.incrementalEnabled) return { mode: 'restart', fromCell: 0, reason: 'incremental re-execution disabled' };
  if (!input.kernelAlive) return { mode: 'restart', fromCell: 0, reason: 'the kernel died or was replaced: its state is gone' };
  if (input.failedCell === undefined || input.lastRunWasComplete) {
    return { mode: 'restart', fromCell: 0, reason: 'the last run completed: every cell already ran with the old code' };
  }
  if (first < input.failedCell) {
    return { mode: 'restart', fromCell: 0, reason: `the patch changes cell ${first}, above the failing cell ${input.failedCell}, which already ran` };
  }
  const failed = input.lastRunCells.find((c) => c.index === input.failedCell);
  const before = [...input.lastRunCells].filter((c) => c.index < input.failedCell! && c.status === 'ok').pop();
  if (failed?.state && (before?.state || !before)) {
    const a = stateKey(before?.state?.variables ?? []);
    const b = stateKey(failed.state.variables);
    if (a !== b) {
      const changed = changedNames(before?.state?.variables ?? [], failed.state.variables);
      const truncated = Boolean(before?.state?.truncated || failed.state.truncated);
      if (first === input.failedCell && !truncated && rebindsAll(changed, input.failedCellBindings)) {
        return { mode: 'incremental', fromCell: first, reason: `kernel alive, nothing above cell ${first} changed; cell ${input.failedCell} bound ${changed.join(', ')} before failing, which it binds anew before reading` };
      }
      return { mode: 'restart', fromCell: 0, reason: `cell ${input.failedCell} changed the namespace before failing (state summary differs: ${changed.slice(0, 6).join(', ')}${changed.length > 6 ? ', ...' : ''})` };
    }
    return { mode: 'incremental', fromCell: first, reason: `kernel alive, nothing above cell ${first} changed, cell ${input.failedCell} left the namespace as it was` };
  }
  return { mode: 'restart', fromCell: 0, reason: `no state summary for cell ${input.failedCell}: cannot tell whether it mutated state` };
}

type Variables = NonNullable<CellRecord['state']>['variables'];

/** Names added, removed or summarised differently between two state summaries. */
export function changedNames(before: Variables, after: Variables): string[] {
  const a = new Map(before.map((v) => [v.name, JSON.stringify(summaryOf(v))]));
  const b = new Map(after.map((v) => [v.name, JSON.stringify(summaryOf(v))]));
  const out = new Set<string>();
  for (const [n, k] of b) if (a.get(n) !== k) out.add(n);
  for (const n of a.keys()) if (!b.has(n)) out.add(n);
  return [...out].sort();
}

/** Every changed name is bound by the cell before any read of it, in the code that ran and in the patched code. */
function rebindsAll(changed: readonly string[], b: FailedCellBindings | undefined): boolean {
  if (!b || b.hasSyntaxErrors || !changed.length) return false;
  return changed.every((n) => b.ranDefines.includes(n) && !b.ranUses.includes(n) && b.nextDefines.includes(n) && !b.nextUses.includes(n));
}

/** What a state summary says of one name, besides the name: what the comparisons look at. */
function summaryOf(v: Variables[number]): unknown[] {
  return [v.type, v.shape, v.dtype, v.columns, v.length, v.value];
}

function stateKey(vars: Variables): string {
  return JSON.stringify(vars.map((v) => [v.name, ...summaryOf(v)]));
}

/**
 * After a patch: re-run from the patched cell in the live kernel, or restart from scratch?
 * Incremental is where we beat full re-runs, but only when the kernel state is trustworthy:
 *  - the kernel is alive (it did not die or ignore an interrupt),
 *  - nothing above the re-run point changed (the patch touches only cells >= the failing cell),
 *  - the failing cell did not mutate state before it failed: the runtime-state summary after it
 *    equals the one after the cell before it (names, types, shapes, columns).
 * Anything else restarts. The decision and its reason go into the trajectory.
 */
import type { CellRecord } from '../core/run-result.js';

export type Reexecution = { mode: 'incremental' | 'restart'; fromCell: number; reason: string };

export function decideReexecution(input: {
  incrementalEnabled: boolean;
  kernelAlive: boolean;
  patchedCells: number[];
  /** First cell that did not complete in the last run (the one that failed), if any. */
  failedCell: number | undefined;
  lastRunCells: CellRecord[];
  lastRunWasComplete: boolean;
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
    if (a !== b) return { mode: 'restart', fromCell: 0, reason: `cell ${input.failedCell} changed the namespace before failing (state summary differs)` };
    return { mode: 'incremental', fromCell: first, reason: `kernel alive, nothing above cell ${first} changed, cell ${input.failedCell} left the namespace as it was` };
  }
  return { mode: 'restart', fromCell: 0, reason: `no state summary for cell ${input.failedCell}: cannot tell whether it mutated state` };
}

function stateKey(vars: NonNullable<CellRecord['state']>['variables']): string {
  return JSON.stringify(vars.map((v) => [v.name, v.type, v.shape, v.dtype, v.columns, v.length, v.value]));
}

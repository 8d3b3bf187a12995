import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { changedNames, decideReexecution, type FailedCellBindings } from '../../../src/agent/reexecution.js';
import { analyzeCell } from '../../../src/fixers/python/defuse.js';
import type { CellRecord } from '../../../src/core/run-result.js';

type Var = NonNullable<CellRecord['state']>['variables'][number];
const v = (name: string, type = 'int', value?: string): Var => ({ name, type, ...(value ? { value } : {}) });
const rec = (index: number, status: CellRecord['status'], variables: Var[], truncated = false): CellRecord =>
  ({ index, codeIndex: index, status, executionCount: index + 1, durationMs: 1, startedAt: null, peakMemoryBytes: null, outputsTruncated: false, state: { variables, truncated } } as CellRecord);

function bindings(ran: string, next = ran): FailedCellBindings {
  const r = analyzeCell(ran);
  const n = analyzeCell(next);
  return { ranDefines: r.defines, ranUses: r.uses, nextDefines: n.defines, nextUses: n.uses, hasSyntaxErrors: r.hasSyntaxErrors || n.hasSyntaxErrors };
}

const X = v('X', 'DataFrame');
const before = rec(0, 'ok', [X]);
const base = { incrementalEnabled: true, kernelAlive: true, patchedCells: [1], failedCell: 1, lastRunWasComplete: false };

describe('re-execution after a patch', () => {
  it('changedNames: added, removed and re-summarised names', () => {
    assert.deepEqual(changedNames([v('a', 'int', '1'), v('b'), v('c')], [v('a', 'int', '2'), v('c'), v('d')]), ['a', 'b', 'd']);
    assert.deepEqual(changedNames([v('a')], [v('a')]), []);
  });

  it('an unchanged namespace resumes at the failing cell', () => {
    const d = decideReexecution({ ...base, lastRunCells: [before, rec(1, 'error', [X])] });
    assert.equal(d.mode, 'incremental');
  });

  it('names the failing cell bound afresh before failing do not force a restart', () => {
    const ran = 'from sklearn.linear_model import LassoCV\nalphas = [0.1, 0.2]\nmodel = LassoCV(max_iter=1e7, alphas=alphas).fit(X, y)';
    const next = ran.replace('1e7', '10000000');
    const failed = rec(1, 'error', [X, v('LassoCV', 'type'), v('alphas', 'list')]);
    const d = decideReexecution({ ...base, lastRunCells: [before, failed], failedCellBindings: bindings(ran, next) });
    assert.equal(d.mode, 'incremental', d.reason);
    assert.equal(d.fromCell, 1);
    assert.match(d.reason, /LassoCV, alphas/);
  });

  it('a name the cell reads before changing it (in place or by rebinding) restarts', () => {
    const failed = rec(1, 'error', [v('X', 'DataFrame', 'changed'), v('n', 'int')]);
    for (const src of ['X["a"] = 1\nn = 2\nX.fit()', 'X = X.dropna()\nn = 2\nboom()', 'n = 2\nfor c in X: X[c] = 0\nboom()']) {
      const d = decideReexecution({ ...base, lastRunCells: [before, failed], failedCellBindings: bindings(src) });
      assert.equal(d.mode, 'restart', src);
      assert.match(d.reason, /changed the namespace before failing/);
    }
  });

  it('restarts when the patched code no longer binds a changed name, the summary is truncated, the code is unknown, or the patch is above', () => {
    const failed = rec(1, 'error', [X, v('alphas', 'list')]);
    const ran = 'alphas = [1]\nboom()';
    assert.equal(decideReexecution({ ...base, lastRunCells: [before, failed], failedCellBindings: bindings(ran, 'boom()') }).mode, 'restart');
    assert.equal(decideReexecution({ ...base, lastRunCells: [before, rec(1, 'error', [X, v('alphas', 'list')], true)], failedCellBindings: bindings(ran) }).mode, 'restart');
    assert.equal(decideReexecution({ ...base, lastRunCells: [before, failed] }).mode, 'restart');
    assert.equal(decideReexecution({ ...base, patchedCells: [0, 1], lastRunCells: [before, failed], failedCellBindings: bindings(ran) }).mode, 'restart');
    assert.equal(decideReexecution({ ...base, lastRunCells: [before, failed], failedCellBindings: bindings('alphas = [1]\nboom(', 'alphas = [1]\nboom()') }).mode, 'restart');
  });
});

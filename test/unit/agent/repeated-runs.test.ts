import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_EXTRA_RUNS, RUN_AGAIN_MARK, repeatedRunCandidates } from '../../../src/agent/repeated-runs.js';
import { withCounts } from '../../support/notebooks.js';

describe('repeatedRunCandidates', () => {
  it('a cell feeding the drifted one that updates a value from itself, with counts missing below its own: 1..gap extra runs before it', () => {
    const nb = withCounts(['x = load()', 'x = np.log1p(x)', 'print(x.max())'], [1, 5, 6]);
    const c = repeatedRunCandidates(nb, nb, 2);
    assert.deepEqual(c.map((x) => x.label), ['run again: cell 1 2 times in all', 'run again: cell 1 3 times in all', 'run again: cell 1 4 times in all']);
    const edit = c[1]!.patch.edits[0] as { cell: number; op: string; position: string; newSource: string };
    assert.deepEqual([edit.cell, edit.op, edit.position], [1, 'insert', 'before']);
    assert.ok(edit.newSource.startsWith(RUN_AGAIN_MARK));
    assert.equal(edit.newSource.split('x = np.log1p(x)').length - 1, 2);
    assert.equal(c[0]!.patch.fixType, 'score-calibration');
  });

  it('at most MAX_EXTRA_RUNS, and no more than the gap', () => {
    const wide = withCounts(['x = load()', 'x = x * 2', 'print(x)'], [1, 40, 41]);
    assert.equal(repeatedRunCandidates(wide, wide, 2).length, MAX_EXTRA_RUNS);
    const one = withCounts(['x = load()', 'x = x * 2', 'print(x)'], [1, 3, 4]);
    assert.equal(repeatedRunCandidates(one, one, 2).length, 1);
  });

  it('none without a gap, for a cell that only binds afresh, for a loop variable of its own, or for a name the drifted cell does not read', () => {
    const noGap = withCounts(['x = load()', 'x = np.log1p(x)', 'print(x.max())'], [1, 2, 3]);
    assert.deepEqual(repeatedRunCandidates(noGap, noGap, 2), []);
    const fresh = withCounts(["x = pd.read_csv('a.csv')", "y = pd.read_csv('b.csv')", 'print(y.shape)'], [1, 5, 6]);
    assert.deepEqual(repeatedRunCandidates(fresh, fresh, 2), []);
    const loopVar = withCounts(['s = 0', 'for i in range(3):\n    i = i + 1', 'print(s)'], [1, 5, 6]);
    assert.deepEqual(repeatedRunCandidates(loopVar, loopVar, 2), []);
    const other = withCounts(['x = load()\nz = load()', 'z = z + 1', 'print(x)'], [1, 5, 6]);
    assert.deepEqual(repeatedRunCandidates(other, other, 2), []);
  });
});

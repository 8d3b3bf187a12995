import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pinCandidates, rankDriftTrial } from '../../../src/agent/generate-verify.js';
import type { Comparison } from '../../../src/agent/oracle/index.js';
import type { Patch } from '../../../src/core/patch.js';
import type { CellRecord } from '../../../src/core/run-result.js';

const pin = (cell: number, rule: string): Patch => ({
  fixType: 'score-calibration', source: { kind: 'rule', ruleIds: [rule] }, edits: [{ cell, op: 'replace', newSource: `pinned ${cell}` }], summary: rule,
});
const ok = (index: number): CellRecord => ({ index, status: 'ok', durationMs: 1 }) as CellRecord;
const cmp = (cell: number, good: boolean, original = 1, now = good ? 1 : 2): Comparison =>
  ({ cell, ok: good, original, new: now, kind: 'number' }) as unknown as Comparison;

describe('pinCandidates (verified pins for a drift)', () => {
  it('offers only pins at or before the drifted cell, nearest first, then all together', () => {
    const c = pinCandidates([pin(2, 'sklearn-pin-forest-n-estimators'), pin(5, 'sklearn-pin-logistic-solver'), pin(9, 'sklearn-pin-svm-gamma')], 6);
    assert.deepEqual(c.map((x) => x.label), [
      'sklearn-pin-logistic-solver in cell 5',
      'sklearn-pin-forest-n-estimators in cell 2',
      'all pins (cells 2, 5)',
    ]);
    assert.deepEqual(c[2].patch.edits.map((e) => e.cell), [2, 5]);
    assert.equal(c[2].patch.fixType, 'score-calibration');
  });

  it('offers no combined candidate for a single pin, and none past the target', () => {
    assert.equal(pinCandidates([pin(3, 'a')], 3).length, 1);
    assert.equal(pinCandidates([pin(4, 'a')], 3).length, 0);
  });

  it("in the author's run order, a later-placed cell that runs first is before the target, nearest in run order first", () => {
    const c = pinCandidates([pin(2, 'a'), pin(9, 'b'), pin(7, 'c')], 6, [0, 1, 2, 9, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(c.map((x) => x.label), ['b in cell 9', 'a in cell 2', 'all pins (cells 2, 9)']);
  });
});

describe('rankDriftTrial', () => {
  const cells = [ok(0), ok(1), ok(2)];
  it('agrees when the drifted cell now agrees and fewer values differ overall', () => {
    const o = rankDriftTrial(1, 2, cells, [cmp(1, true), cmp(2, false)], 3);
    assert.equal(o.rank, 'agrees');
    assert.equal(o.drifted, 1);
  });

  it('does not agree while the drifted cell still differs', () => {
    assert.equal(rankDriftTrial(1, 2, cells, [cmp(1, false), cmp(2, true)], 3).rank, 'runs-drifts');
  });

  it('does not agree when the target is fixed but as many values drift elsewhere', () => {
    assert.equal(rankDriftTrial(1, 1, cells, [cmp(1, true), cmp(2, false)], 3).rank, 'runs-drifts');
  });

  it('a candidate read from the record agrees once the drifted cell and every cell before it agree', () => {
    const four = [ok(0), ok(1), ok(2), ok(3)];
    const after = [cmp(0, true), cmp(1, true), cmp(2, false), cmp(3, false)];
    assert.equal(rankDriftTrial(1, 1, four, after, 3).rank, 'runs-drifts');
    assert.equal(rankDriftTrial(1, 1, four, after, 3, { earliestFirst: true }).rank, 'agrees');
    // Not while a cell before the drifted one differs.
    assert.equal(rankDriftTrial(1, 1, four, [cmp(0, false), cmp(1, true), cmp(2, false)], 3, { earliestFirst: true }).rank, 'runs-drifts');
  });

  it('a trial that breaks a cell is never agreement', () => {
    const broken = [ok(0), { index: 1, status: 'error', error: { ename: 'TypeError', evalue: 'x', traceback: [] } } as unknown as CellRecord];
    const o = rankDriftTrial(1, 1, broken, [], 2);
    assert.equal(o.rank, 'error-moved');
    assert.equal(o.reached, 1);
  });
});

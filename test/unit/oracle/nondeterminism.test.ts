import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { excuseUnstable, unstableValues } from '../../../src/agent/oracle/nondeterminism.js';
import type { Comparison, OracleVerdict } from '../../../src/agent/oracle/index.js';

const cmp = (cell: number, original: number, now: number, context = 'x'): Comparison => ({ cell, original, new: now, relDiff: Math.abs(now - original) / Math.abs(original), ok: Math.abs(now - original) / Math.abs(original) <= 0.1, context });
const verdict = (comparisons: Comparison[]): OracleVerdict => ({
  oracle: 'stored-outputs',
  matches: comparisons.every((c) => c.ok),
  comparisons,
  details: { cellsFailing: [...new Set(comparisons.filter((c) => !c.ok).map((c) => c.cell))] },
});

describe('nondeterminism', () => {
  it('a value that differs between two clean runs is unjudged and no longer fails the notebook', () => {
    const run1 = verdict([cmp(1, 0.8, 0.8, 'acc'), cmp(2, 0.42, 0.91, 'rand'), cmp(3, 12.5, 3.1, 'took')]);
    const run2 = verdict([cmp(1, 0.8, 0.8, 'acc'), cmp(2, 0.42, 0.17, 'rand'), cmp(3, 12.5, 2.9, 'took')]);
    const unstable = unstableValues(run1, run2);
    assert.equal(unstable.size, 2);
    const v = excuseUnstable(run2, unstable);
    assert.equal(v.matches, true);
    assert.deepEqual(v.comparisons.map((c: any) => c.unjudged ?? null), [null, 'nondeterministic', 'nondeterministic']);
  });

  it('a drift that is the same in both runs still fails', () => {
    const run1 = verdict([cmp(1, 0.8, 0.6, 'acc'), cmp(2, 0.42, 0.91, 'rand')]);
    const run2 = verdict([cmp(1, 0.8, 0.6, 'acc'), cmp(2, 0.42, 0.1, 'rand')]);
    const v = excuseUnstable(run2, unstableValues(run1, run2));
    assert.equal(v.matches, false);
    assert.equal(v.comparisons.filter((c) => !c.ok).length, 1);
  });

  it('repeated identical lines are told apart by occurrence', () => {
    const run1 = verdict([cmp(1, 1, 1, 'loss'), cmp(1, 1, 5, 'loss')]);
    const run2 = verdict([cmp(1, 1, 1, 'loss'), cmp(1, 1, 6, 'loss')]);
    const u = unstableValues(run1, run2);
    assert.equal(u.size, 1);
  });
});

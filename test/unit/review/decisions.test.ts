/** Accept / reject as pure logic: what depends on a change, what a set of decisions does to each cell, --reject names. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptAll, dependentsOf, matchChanges, resolve } from '../../../src/agent/review/decisions.js';
import type { ReviewChange } from '../../../src/agent/review/changes.js';

function change(id: string, over: Partial<ReviewChange>): ReviewChange {
  return { id, fix: 1, step: 0, cell: 0, fixType: 'error-repair', sourceKind: 'rule', source: 'r', rules: [], summary: '', trigger: 'static scan', before: '', after: '', ...over };
}

const ORIGINAL = ['import numpy as np\nx = np.float(1)\nprint x', 'df.ix[0]', 'y = 1'];
const CHANGES: ReviewChange[] = [
  // Static pass: two rules in cell 0 one after the other, one in cell 1.
  change('c1', { fix: 1, cell: 0, source: 'numpy-builtin-type-aliases', rules: [{ id: 'numpy-builtin-type-aliases', code: 'NP001', library: 'numpy' }], before: ORIGINAL[0]!, after: 'import numpy as np\nx = float(1)\nprint x' }),
  change('c2', { fix: 2, cell: 0, source: 'py2-print-statement', rules: [{ id: 'py2-print-statement', code: 'PY001', library: 'python' }], before: 'import numpy as np\nx = float(1)\nprint x', after: 'import numpy as np\nx = float(1)\nprint(x)' }),
  change('c3', { fix: 3, cell: 1, source: 'pandas-ix', rules: [{ id: 'pandas-ix', code: 'PD001', library: 'pandas' }], before: 'df.ix[0]', after: 'df.loc[0]' }),
  // Loop fixes: an LLM patch of two cells (one fix), then a later rule fix.
  change('c4', { fix: 4, step: 1, cell: 1, sourceKind: 'llm', source: 'gpt-4.1-mini', before: 'df.loc[0]', after: 'df.iloc[0]', error: { ename: 'KeyError', evalue: '0' } }),
  change('c5', { fix: 4, step: 1, cell: 2, sourceKind: 'llm', source: 'gpt-4.1-mini', before: 'y = 1', after: 'y = 2' }),
  change('c6', { fix: 5, step: 2, cell: 2, source: 'sklearn-x', rules: [{ id: 'sklearn-x', code: 'SK001', library: 'scikit-learn' }], before: 'y = 2', after: 'y = 3' }),
];
const original = (cell: number) => ORIGINAL[cell]!;

it('everything accepted gives the modernized sources, every change applied', () => {
  const r = resolve(original, CHANGES, acceptAll(CHANGES));
  assert.deepEqual([...r.sources], [[0, 'import numpy as np\nx = float(1)\nprint(x)'], [1, 'df.iloc[0]'], [2, 'y = 3']]);
  assert.ok([...r.effects.values()].every((e) => e === 'applied'));
});

it('a rejected change leaves its cell as it was; a later change of the cell whose edit still fits is rebased onto it', () => {
  const d = acceptAll(CHANGES);
  d.set('c1', 'rejected');
  const r = resolve(original, CHANGES, d);
  assert.equal(r.effects.get('c1'), 'rejected');
  assert.equal(r.effects.get('c2'), 'rebased');
  assert.equal(r.sources.get(0), 'import numpy as np\nx = np.float(1)\nprint(x)');
});

it('a later change whose edit no longer fits is blocked and the cell keeps the text before it', () => {
  const d = acceptAll(CHANGES);
  d.set('c3', 'rejected');
  const r = resolve(original, CHANGES, d);
  assert.equal(r.effects.get('c4'), 'blocked', 'c4 edits the line c3 wrote');
  assert.equal(r.sources.get(1), 'df.ix[0]');
});

it('rejecting everything gives back the original sources', () => {
  const d = new Map(CHANGES.map((c) => [c.id, 'rejected' as const]));
  const r = resolve(original, CHANGES, d);
  for (const [cell, src] of r.sources) assert.equal(src, ORIGINAL[cell]);
});

it('dependents: later changes of the same cell, the other cells of the same fix, later loop fixes', () => {
  assert.deepEqual(dependentsOf(CHANGES, 'c1'), [{ id: 'c2', why: 'same-cell' }]);
  assert.deepEqual(dependentsOf(CHANGES, 'c3'), [{ id: 'c4', why: 'same-cell' }], 'a static change: nothing was found after it');
  assert.deepEqual(dependentsOf(CHANGES, 'c4'), [{ id: 'c5', why: 'same-fix' }, { id: 'c6', why: 'found-after' }]);
  assert.deepEqual(dependentsOf(CHANGES, 'c5'), [{ id: 'c4', why: 'same-fix' }, { id: 'c6', why: 'same-cell' }]);
  assert.deepEqual(dependentsOf(CHANGES, 'c6'), []);
  assert.deepEqual(dependentsOf(CHANGES, 'nope'), []);
});

it('--reject names: rule ids, codes, code prefixes, a model, llm; unmatched ones are reported', () => {
  assert.deepEqual([...matchChanges(CHANGES, ['pandas-ix']).ids], ['c3']);
  assert.deepEqual([...matchChanges(CHANGES, ['np001']).ids], ['c1']);
  assert.deepEqual([...matchChanges(CHANGES, ['PY', 'SK0']).ids].sort(), ['c2', 'c6']);
  assert.deepEqual([...matchChanges(CHANGES, ['llm']).ids], ['c4', 'c5']);
  assert.deepEqual([...matchChanges(CHANGES, ['gpt-4.1-mini']).ids], ['c4', 'c5']);
  const none = matchChanges(CHANGES, ['P', 'PD002', 'XGB', 'nothing']);
  assert.equal(none.ids.size, 0, 'P is not a whole prefix; PD002 and XGB made nothing here');
  assert.deepEqual(none.unmatched, ['P', 'PD002', 'XGB', 'nothing']);
});

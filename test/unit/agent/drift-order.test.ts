import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorOrderDriftCandidates } from '../../../src/agent/drift-order.js';
import { withCounts } from '../../support/notebooks.js';

describe('authorOrderDriftCandidates', () => {
  it('a cell above run later that changes what the drifted cell reads: the author order, as a score-calibration candidate', () => {
    const nb = withCounts(["test = pd.read_csv('test.csv')", "test['Fare'] = test['Fare'].astype('int')", 'test.head()', 'model.fit(test)'], [1, 507, 494, 519]);
    const c = authorOrderDriftCandidates(nb, nb, 2);
    assert.equal(c.length, 1);
    assert.deepEqual(c[0]!.order, [0, 2, 1, 3]);
    assert.equal(c[0]!.patch.fixType, 'score-calibration');
    assert.deepEqual(c[0]!.patch.edits, []);
    assert.match(c[0]!.label, /run later by the author/);
  });

  it('a cell below run earlier that changes what it reads: moved above it', () => {
    const nb = withCounts(["df = pd.read_csv('train.csv')", 'df.describe()', "df['Age'] = df['Age'].fillna(28)"], [1, 9, 4]);
    const c = authorOrderDriftCandidates(nb, nb, 1);
    assert.deepEqual(c.map((x) => x.order), [[0, 2, 1]]);
    assert.match(c[0]!.label, /run earlier by the author/);
  });

  it('no candidate when the counts follow the file, or the out-of-order cell touches nothing it reads', () => {
    const inOrder = withCounts(["df = pd.read_csv('train.csv')", "df['a'] = 1", 'df.head()'], [1, 2, 3]);
    assert.deepEqual(authorOrderDriftCandidates(inOrder, inOrder, 2), []);
    const unrelated = withCounts(["df = pd.read_csv('train.csv')", "other['a'] = 1", 'df.head()'], [1, 9, 3]);
    assert.deepEqual(authorOrderDriftCandidates(unrelated, unrelated, 2), []);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { laterRunOrder } from '../../../src/agent/later-run-cells.js';
import { withCounts } from '../../support/notebooks.js';


describe('laterRunOrder', () => {
  it('runs a cell above the failing one that the author ran later, and that changes what it reads, after it (and after the cells below it the author ran first)', () => {
    const nb = withCounts([
      "train = pd.read_csv('train.csv')",
      "n = train[train.Embarked == 'C'].Embarked.count()",
      "train.loc[[61, 829], :] = 'Q'",
      "print(n)",
      "train[train.Fare == train.Fare.max()]",
      "train.head()",
    ], [1, 40, 41, 42, 24, 25]);
    const r = laterRunOrder(nb, nb, 4, [0, 1, 2, 3, 4, 5]);
    // train.head() [25] ran before the change [41] too: it keeps the frame it showed.
    assert.deepEqual(r?.order, [0, 1, 3, 4, 5, 2]);
    assert.deepEqual(r?.moved, [2]);
    assert.match(r!.why, /cell 2 \[41\] after cell 5 \[25\]: the author ran it after cell 4 \[24\].*changes train, which cell 4 reads$/);
  });

  it('takes along later-run cells that read what a deferred cell binds', () => {
    const nb = withCounts(['df = load()', 'df = df.dropna()\nk = 3', 'print(k)', 'df.describe()'], [1, 9, 10, 5]);
    assert.deepEqual(laterRunOrder(nb, nb, 3, [0, 1, 2, 3])?.order, [0, 3, 1, 2]);
    // And those that read what it changes in place (a frame it transforms, then encoded).
    const inPlace = withCounts(['df = load()\nall_data = load()', "df['y'] = df.y + 0.5\nall_data[['a']] = 1", 'all_data = pd.get_dummies(all_data)', 'fit(df.y)'], [1, 9, 10, 5]);
    assert.deepEqual(laterRunOrder(inPlace, inPlace, 3, [0, 1, 2, 3])?.order, [0, 3, 1, 2]);
  });

  it('a change that reaches the failing cell through the cells feeding it (a selection, a split)', () => {
    const nb = withCounts([
      "df = pd.read_csv('train.csv')",
      "df['SalePrice'] = np.log1p(df['SalePrice'])",
      "simple = df.loc[:, ['LotArea', 'SalePrice']]",
      "X, y = simple[['LotArea']], simple['SalePrice']",
      'LogisticRegression().fit(X, y)',
      'print(y.max())',
      'df.describe()',
    ], [30, 31, 13, 15, 18, 19, 40]);
    const r = laterRunOrder(nb, nb, 4, [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(r?.order, [0, 2, 3, 4, 5, 1, 6]);
    assert.match(r!.why, /changes df, which cell 4 reads through the cells that feed it/);
  });

  it('nothing when the cells above ran earlier, change nothing it reads, or give it its only definition', () => {
    assert.equal(laterRunOrder(withCounts(['df = load()', "df['a'] = 1", 'df.a.sum()'], [1, 2, 3]), withCounts(['df = load()', "df['a'] = 1", 'df.a.sum()'], [1, 2, 3]), 2, [0, 1, 2]), undefined);
    const other = withCounts(['df = load()', "x = {}\nx['a'] = 1", 'df.a.sum()'], [1, 9, 3]);
    assert.equal(laterRunOrder(other, other, 2, [0, 1, 2]), undefined);
    const only = withCounts(['df = load()', 'y = 2', 'df.a.sum() + y'], [1, 9, 3]);
    assert.equal(laterRunOrder(only, only, 2, [0, 1, 2]), undefined);
  });
});

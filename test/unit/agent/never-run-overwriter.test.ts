import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { neverRunOverwriter } from '../../../src/agent/never-run-overwriter.js';
import { analyzeNotebook } from '../../../src/fixers/python/defuse.js';
import { makeNotebook } from '../../support/notebooks.js';

const du = (cells: string[]) => analyzeNotebook(makeNotebook(cells));

describe('neverRunOverwriter', () => {
  it('the last binder of a name the failing cell reads is a never-run cell, and a recorded cell above binds it too: that cell', () => {
    const d = du(["train = read('train.csv')", 'print(1)', 'train = fill_ages(train)', "print(train['Cabin'])"]);
    const o = neverRunOverwriter(d, 3, 'TypeError', new Set([2]), new Set());
    assert.equal(o?.cell, 2);
    assert.deepEqual(o?.names, ['train']);
    assert.deepEqual(o?.expected.overwrites, { cell: 3, names: ['train'] });
    assert.ok(o?.expected.skipped && o.expected.neverRun && o.expected.ename === 'TypeError');
  });

  it('past a recorded cell that only changes the value in place, the never-run binder above it still counts', () => {
    // The author's test frame never lost Fare; the recorded drop of Embarked below keeps the never-run drop's effect.
    const d = du(["test = read('test.csv')", "test.drop(['Fare'], axis=1, inplace=True)", "test.drop('Embarked', axis=1, inplace=True)", 'model.predict(test)']);
    assert.equal(neverRunOverwriter(d, 3, 'ValueError', new Set([1]), new Set())?.cell, 1);
  });

  it('an in-place change counts as a binding (inplace=True, a method that mutates)', () => {
    const d = du(["df = read('t.csv')", "df.drop(['Cabin'], axis=1, inplace=True)", "print(df['Cabin'])"]);
    assert.equal(neverRunOverwriter(d, 2, 'KeyError', new Set([1]), new Set())?.cell, 1);
  });

  it('nothing when the nearest binder was run by the author, when the never-run cell is the only binder, or when the failing cell itself was never run', () => {
    const d = du(['x = 1', 'x = None', 'x = 2', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([1]), new Set()), undefined, 'cell 2 (recorded) binds x last');
    const only = du(['y = 1', 'x = None', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(only, 2, 'TypeError', new Set([1]), new Set()), undefined, 'skipping would leave x unbound');
    const d2 = du(['x = 1', 'x = None', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(d2, 2, 'TypeError', new Set([1, 2]), new Set()), undefined, 'the failing cell has no record');
    const unrelated = du(['x = 1', 'z = None', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(unrelated, 2, 'TypeError', new Set([1]), new Set()), undefined, 'a name the failing cell does not read');
  });

  it('a cell already skipped is no binder: the next never-run binder above is the candidate', () => {
    const d = du(['x = 1', 'x = None', 'x = [x]', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([1, 2]), new Set())?.cell, 2);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([1, 2]), new Set([2]))?.cell, 1);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([1, 2]), new Set([1, 2])), undefined);
  });

  it('follows the run order when it is not top to bottom', () => {
    // Run order 0, 2, 1, 3: cell 2 (never run) runs before cell 1 (recorded), which binds x last.
    const d = du(['x = 1', 'x = 2', 'x = None', 'print(x + 1)']);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([2]), new Set(), [0, 2, 1, 3]), undefined);
    assert.equal(neverRunOverwriter(d, 3, 'TypeError', new Set([2]), new Set(), [0, 1, 2, 3])?.cell, 2);
  });
  it('a never-run cell that removes the column the error names, reached through a never-run cell feeding the failing one', () => {
    const cells = ["X = pd.read_csv('train.csv')", "y = X['SalePrice']\nX.drop('SalePrice', axis=1, inplace=True)", 'X.info()', 'corr = X.corr()', "corr['SalePrice'].sort_values()"];
    const nb = makeNotebook(cells);
    const d = analyzeNotebook(nb);
    const text = (c: number) => cells[c]!;
    // Every binder of corr and X is a never-run cell: the name test finds nothing; the label does.
    assert.equal(neverRunOverwriter(d, 4, 'KeyError', new Set([0, 1, 3]), new Set()), undefined);
    const o = neverRunOverwriter(d, 4, 'KeyError', new Set([0, 1, 3]), new Set(), undefined, 'SalePrice', text);
    assert.equal(o?.cell, 1);
    assert.match(o!.expected.reason, /removes the column 'SalePrice', which cell 4/);
    // A recorded cell removing it is the author's own state; another column is not evidence.
    assert.equal(neverRunOverwriter(d, 4, 'KeyError', new Set([0, 3]), new Set(), undefined, 'SalePrice', text), undefined);
    assert.equal(neverRunOverwriter(d, 4, 'KeyError', new Set([0, 1, 3]), new Set(), undefined, 'Id', text), undefined);
  });
});

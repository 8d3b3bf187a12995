import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { earlierRunOrder, missingLabel } from '../../../src/agent/earlier-run-cells.js';
import { withCounts } from '../../support/notebooks.js';

describe('earlierRunOrder', () => {
  const cells = [
    "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')",
    "sns.pointplot(data=train, x='hour', y='count', hue='dayofweek')",
    'train.tail()',
    "train['hour'] = train.datetime.dt.hour\ntrain['dayofweek'] = train.datetime.dt.dayofweek",
    "test['hour'] = test.datetime.dt.hour",
    "train['weekend'] = train.dayofweek > 4",
    'model.fit(train[feats], y)',
  ];
  it('moves the cells below that the author ran before the failing one, and that change what it reads, above it in recorded order', () => {
    const nb = withCounts(cells, [1, 157, 160, 65, 66, 133, 200]);
    const r = earlierRunOrder(nb, nb, 1, [0, 1, 2, 3, 4, 5, 6], "Could not interpret value `dayofweek` for `hue`. An entry with this name does not appear in `data`.");
    // test's cell changes nothing the plot reads; the later cells ran after it.
    assert.deepEqual(r?.moved, [3, 5]);
    assert.deepEqual(r?.order, [0, 3, 5, 1, 2, 4, 6]);
    assert.match(r!.why, /^run cell 3 \[65\], cell 5 \[133\] before cell 1 \[157\]: the author ran them before it .*changes? train.*\(dayofweek is written there\)$/);
  });

  it('nothing when no moved cell writes the label the error names, or the cells below ran later', () => {
    const nb = withCounts(cells, [1, 157, 160, 65, 66, 133, 200]);
    assert.equal(earlierRunOrder(nb, nb, 1, [0, 1, 2, 3, 4, 5, 6], "'season'"), undefined);
    const inOrder = withCounts(cells, [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(earlierRunOrder(inOrder, inOrder, 1, [0, 1, 2, 3, 4, 5, 6], "'dayofweek'"), undefined);
  });

  it('a moved cell must find what it reads where it lands', () => {
    const nb = withCounts(["df = load()", "df.plot(y='ratio')", "k = 2", "df['ratio'] = df.a * k"], [1, 50, 20, 10]);
    // k is bound by cell 2, below the failing cell and run after cell 3: cell 3 cannot move alone.
    assert.equal(earlierRunOrder(nb, nb, 1, [0, 1, 2, 3], "'ratio'"), undefined);
  });

  it('reads the missing label from the usual messages', () => {
    assert.equal(missingLabel("'dayofweek'"), 'dayofweek');
    assert.equal(missingLabel("Could not interpret input 'hour'"), 'hour');
    assert.equal(missingLabel("['Title'] not in index"), 'Title');
    assert.equal(missingLabel(`"['Title'] not in index"`), 'Title');
    assert.equal(missingLabel("'DataFrame' object has no attribute 'Title'"), 'Title');
    assert.equal(missingLabel('could not convert string to float'), undefined);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { earlierSessionCells, earlierSessionPatch } from '../../../src/agent/earlier-session.js';
import { makeNotebook } from '../context/fixtures.js';

/** The shape of a notebook whose author restarted the kernel: counts 12 and 13 recur further down. */
function restarted() {
  const nb = makeNotebook([
    "import pandas as pd\ntrain = pd.DataFrame({'Sex': ['male', 'female'], 'Age': [22, 38]})",
    "train.loc[train['Sex'] == 'male', 'Sex'] = 0\ntrain.loc[train['Sex'] == 'female', 'Sex'] = 1",
    'train.head()',
    "other = pd.DataFrame({'Age': [1, 2]})",
    "other['Age'].mean()",
    "dummies = pd.get_dummies(train, columns=['Sex'])",
    'dummies.head()',
  ]);
  [1, 12, 13, 11, 12, 13, 14].forEach((n, i) => { (nb.cells[i] as any).execution_count = n; });
  return nb;
}

describe('earlier-session: cells run before a kernel restart and not after it', () => {
  it('a count two cells share marks the earlier one in the file as the earlier session', () => {
    assert.deepEqual([...earlierSessionCells(restarted())].sort(), [1, 2]);
    const plain = makeNotebook(['a = 1', 'b = a']);
    [1, 2].forEach((n, i) => { (plain.cells[i] as any).execution_count = n; });
    assert.equal(earlierSessionCells(plain).size, 0);
  });

  it('for a drift below them, those cells become comments (all of them), named with the count they share', () => {
    const nb = restarted();
    const c = earlierSessionPatch(nb, nb, 6);
    assert.ok(c);
    assert.deepEqual(c!.patch.edits.map((e) => e.cell), [1, 2]);
    const text = (c!.patch.edits[0] as { newSource: string }).newSource;
    assert.match(text, /^# nbmodernize: not run: it ran in an earlier kernel session \(count \[12\] belongs to cell 4 too/);
    assert.ok(text.split('\n').slice(1).every((l) => l.startsWith('# ')));
    assert.match(c!.patch.summary, /cell 1 changes what cell 6 reads/);
  });

  it('nothing when the earlier-session cells change nothing the drifted cell reads, or lie below it', () => {
    const nb = restarted();
    assert.equal(earlierSessionPatch(nb, nb, 4), undefined, 'cell 4 reads other, which no earlier-session cell binds');
    assert.equal(earlierSessionPatch(nb, nb, 1), undefined);
  });
});

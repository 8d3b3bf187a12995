import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ixPositionalPatches, ixRowPositionDriftPatch } from '../../../src/fixers/rules/pandas-ix-at-error.js';
import { notebookOf } from './support.js';

describe('ixPositionalPatches', () => {
  it('.loc from .ix raising KeyError: 2 -> .iloc, or the column key made positional', async () => {
    const original = notebookOf(['import pandas as pd', 'x = df.ix[:, 2]\ny = df.ix[rows, i]']);
    const nb = notebookOf(['import pandas as pd', 'x = df.loc[:, 2]\ny = df.loc[rows, i]']);
    const cands = await ixPositionalPatches(nb, 1, { ename: 'KeyError', evalue: '2' }, original, [{ cell: 1, line: 1 }]);
    assert.deepEqual(cands.map((c) => (c.patch.edits[0] as any).newSource), [
      'x = df.iloc[:, 2]\ny = df.loc[rows, i]',
      'x = df.loc[:, df.columns[2]]\ny = df.loc[rows, i]',
    ]);
  });
  it("pandas' 'None of [Index([...])] are in the [index]' for positions from a splitter", async () => {
    const original = notebookOf(['X_tr = X.ix[train_idx]']);
    const nb = notebookOf(['X_tr = X.loc[train_idx]']);
    const [c] = await ixPositionalPatches(nb, 0, { ename: 'KeyError', evalue: "\"None of [Index([0, 3, 4], dtype='int64')] are in the [index]\"" }, original);
    assert.equal((c!.patch.edits[0] as any).newSource, 'X_tr = X.iloc[train_idx]');
    // A negative position among the keys (the first and the last column).
    const [d] = await ixPositionalPatches(notebookOf(['f = f.loc[:, [0, -1]]']), 0, { ename: 'KeyError', evalue: "\"None of [Index([0, -1], dtype='int64')] are in the [columns]\"" }, notebookOf(['f = f.ix[:, [0, -1]]']));
    assert.equal((d!.patch.edits[0] as any).newSource, 'f = f.iloc[:, [0, -1]]');
  });
  it('a row counter on a non-integer index: .loc[df.index[i], cols], from a KeyError or from rows the assignments added', async () => {
    const original = notebookOf(['for i in range(3):\n    v = df.ix[i, "Age"]']);
    const nb = notebookOf(['for i in range(3):\n    v = df.loc[i, "Age"]']);
    const cands = await ixPositionalPatches(nb, 0, { ename: 'KeyError', evalue: '0' }, original, [{ cell: 0, line: 2 }]);
    assert.deepEqual(cands.map((c) => (c.patch.edits[0] as any).newSource), ['for i in range(3):\n    v = df.loc[df.index[i], "Age"]']);
    // `.ix[i, labels] = 1` wrote in place; `.loc` added rows, and the join below fails.
    const orig2 = notebookOf(['for i, c in enumerate(zip(f.a, f.b)):\n    d.ix[i, c] = 1\nf = pd.concat([f, d], axis=1)\nx = d.ix[:, 0]']);
    const nb2 = notebookOf(['for i, c in enumerate(zip(f.a, f.b)):\n    d.loc[i, c] = 1\nf = pd.concat([f, d], axis=1)\nx = d.loc[:, 0]']);
    const grown = await ixPositionalPatches(nb2, 0, { ename: 'ValueError', evalue: 'cannot reindex on an axis with duplicate labels' }, orig2, [{ cell: 0, line: 3 }]);
    assert.deepEqual(grown.map((c) => (c.patch.edits[0] as any).newSource), ['for i, c in enumerate(zip(f.a, f.b)):\n    d.loc[d.index[i], c] = 1\nf = pd.concat([f, d], axis=1)\nx = d.loc[:, 0]']);
    assert.deepEqual(await ixPositionalPatches(nb2, 0, { ename: 'ValueError', evalue: 'cannot reindex on an axis with duplicate labels' }, nb2), [], 'not without .ix in the original');
  });
  it('a drift: the .loc assignments that were .ix, up to the drifted cell, with row counters made positions', async () => {
    const original = notebookOf(['for i in range(3):\n    d.ix[i, "a"] = 1\n    v = d.ix[i, "b"]', 'x = 1', 'for j in range(2):\n    e.ix[j, "a"] = 2']);
    const nb = notebookOf(['for i in range(3):\n    d.loc[i, "a"] = 1\n    v = d.loc[i, "b"]', 'x = 1', 'for j in range(2):\n    e.loc[j, "a"] = 2']);
    const c = await ixRowPositionDriftPatch(nb, original, 1);
    assert.deepEqual(c?.patch.edits, [{ cell: 0, op: 'replace', newSource: 'for i in range(3):\n    d.loc[d.index[i], "a"] = 1\n    v = d.loc[i, "b"]' }]);
    assert.equal((await ixRowPositionDriftPatch(nb, original, 2))?.patch.edits.length, 2);
    assert.equal(await ixRowPositionDriftPatch(nb, nb, 2), undefined, 'no .ix in the original');
  });
  it('nothing when the author never used .ix there, for a label KeyError, or for a boolean mask', async () => {
    const nb = notebookOf(['x = df.loc[:, 2]']);
    assert.deepEqual(await ixPositionalPatches(nb, 0, { ename: 'KeyError', evalue: '2' }, notebookOf(['x = df.loc[:, 2]'])), []);
    assert.deepEqual(await ixPositionalPatches(nb, 0, { ename: 'KeyError', evalue: "'Age'" }, notebookOf(['x = df.ix[:, 2]'])), []);
    const mask = notebookOf(['x = df.loc[df.a > 1]']);
    assert.deepEqual(await ixPositionalPatches(mask, 0, { ename: 'KeyError', evalue: '1' }, notebookOf(['x = df.ix[df.a > 1]'])), []);
  });
});

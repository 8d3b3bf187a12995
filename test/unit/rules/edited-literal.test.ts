import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Notebook } from '../../../src/core/notebook.js';
import { editedLiteralPatches } from '../../../src/fixers/rules/edited-literal.js';
import { makeNotebook } from '../../support/notebooks.js';

/** The notebook as stored: cell i showed `results[i]` (text/plain), when given. */
function stored(cells: string[], results: Record<number, string>): Notebook {
  const nb = makeNotebook(cells);
  for (const [i, text] of Object.entries(results)) {
    (nb.cells[Number(i)] as any).outputs = [{ output_type: 'execute_result', execution_count: Number(i) + 1, data: { 'text/plain': text }, metadata: {} }];
  }
  return nb;
}

const CELLS = [
  "import pandas as pd\ntrain = pd.read_csv('train.csv')",
  '# features chosen after the plots\nfeature_names = ["season", "weather",\n                 "temp", "humidity"]\n\nfeature_names',
  'X = train[feature_names]\nprint(X.shape)',
  "unrelated = ['a', 'b']\nunrelated",
];

describe('edited-literal (a literal changed after its cell ran)', () => {
  it('puts back the list the stored result shows, in a cell feeding the drifted one', async () => {
    const original = stored(CELLS, { 1: "['season',\n 'weather',\n 'temp']", 3: "['a', 'c']" });
    const [c, ...rest] = await editedLiteralPatches(makeNotebook(CELLS), original, 2);
    assert.equal(rest.length, 0, 'cell 3 does not feed cell 2');
    assert.ok(c);
    assert.equal(c.patch.fixType, 'score-calibration');
    assert.deepEqual(c.patch.source, { kind: 'rule', ruleIds: ['edited-literal'] });
    assert.equal((c.patch.edits[0] as any).cell, 1);
    assert.equal((c.patch.edits[0] as any).newSource, "# features chosen after the plots\nfeature_names = ['season',\n 'weather',\n 'temp']\n\nfeature_names");
    assert.match(c.label, /feature_names as cell 1's stored result/);
  });

  it('nothing when the stored value is the literal (quotes, spacing, number spelling aside)', async () => {
    const same = stored(CELLS, { 1: "['season', 'weather', 'temp', 'humidity']" });
    assert.deepEqual(await editedLiteralPatches(makeNotebook(CELLS), same, 2), []);
    const nums = ['p = {"C": 0.10, "n": [1, -2]}\np', 'print(p)'];
    assert.deepEqual(await editedLiteralPatches(makeNotebook(nums), stored(nums, { 0: "{'n': [1, -2], 'C': 0.1}" }), 1), []);
    const changed = await editedLiteralPatches(makeNotebook(nums), stored(nums, { 0: "{'C': 1.0, 'n': [1, -2]}" }), 1);
    assert.equal(changed.length, 1);
  });

  it('nothing for a value the cell computes, a result that is not a literal, or no stored result', async () => {
    const computed = ['cols = list(df.columns)\ncols', 'print(cols)'];
    assert.deepEqual(await editedLiteralPatches(makeNotebook(computed), stored(computed, { 0: "['a']" }), 1), []);
    const rebound = ['cols = ["a"]\ncols = cols + ["b"]\ncols', 'print(cols)'];
    assert.deepEqual(await editedLiteralPatches(makeNotebook(rebound), stored(rebound, { 0: "['a']" }), 1), []);
    const index = ['cols = ["a", "b"]\ncols', 'print(cols)'];
    assert.deepEqual(await editedLiteralPatches(makeNotebook(index), stored(index, { 0: "Index(['a'], dtype='object')" }), 1), []);
    assert.deepEqual(await editedLiteralPatches(makeNotebook(index), makeNotebook(index), 1), []);
    assert.deepEqual(await editedLiteralPatches(makeNotebook(index), undefined, 1), []);
  });
});

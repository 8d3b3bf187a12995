/**
 * A cell whose inputs the author made again long after it ran: its stored output came from an
 * earlier state (an earlier version of the binding cell), so a drift there is set aside as stale.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reMadeInputs, staleInputsAside } from '../../../src/agent/stale-inputs.js';
import { notebookOf } from '../rules/support.js';

const nbOf = (cells: string[], counts: Array<number | null>) => {
  const nb = notebookOf(cells);
  nb.cells.forEach((c, i) => { if (c.cell_type === 'code') c.execution_count = counts[i] ?? null; });
  return nb;
};
const cells = [
  "import pandas as pd\ndf = pd.read_csv('train.csv')",
  "df['hour'] = df.datetime.str[11:13]",
  "clean = df.drop(['datetime'], axis=1)",
  'print(clean.shape)',
];

describe('stale inputs', () => {
  it('names the binder above that ran long after the cell and derives what it binds', () => {
    const s = reMadeInputs(nbOf(cells, [198, 200, 210, 11]), 3);
    assert.deepEqual(s, { cell: 3, count: 11, inputs: [{ cell: 2, count: 210, names: ['clean'] }] });
  });
  it('nothing when the binder ran before the cell or just after it, or binds afresh from a file', () => {
    assert.equal(reMadeInputs(nbOf(cells, [1, 2, 3, 4]), 3), undefined);
    assert.equal(reMadeInputs(nbOf(cells, [1, 2, 13, 11]), 3), undefined, 'a correction a few steps later');
    const fresh = ["import pandas as pd\ntrain = pd.read_csv('train.csv')", 'print(train.shape)'];
    assert.equal(reMadeInputs(nbOf(fresh, [90, 4]), 1), undefined);
    assert.equal(reMadeInputs(nbOf(cells, [198, 200, 210, null]), 3), undefined, 'a cell with no record');
  });
  it('sets aside only the drifted values of that cell, for a drift', () => {
    const nb = nbOf(cells, [198, 200, 210, 11]);
    const verdict = () => ({ comparisons: [{ cell: 3, ok: false, original: 16, new: 14, relDiff: 0.1 }, { cell: 1, ok: false, original: 1, new: 2, relDiff: 1 }] }) as any;
    const unstable = new Set<string>();
    const why = new Map();
    const drift = { kind: 'fix', fixType: 'score-calibration', cell: 3, signature: 's', why: 'w' } as any;
    const aside = staleInputsAside(nb, drift, verdict, unstable, why);
    assert.equal(aside?.unstable.length, 1);
    assert.deepEqual([...why.values()], ['stale']);
    assert.equal(staleInputsAside(nb, { ...drift, fixType: 'error-repair' }, verdict, new Set(), new Map()), undefined);
  });
});

/** PD140: grouped sums keep pandas < 0.22's NaN for groups with no valid value. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from './support.js';

const pin = async (cells: string[], pandas: string) => (await fixNotebook(notebookOf(['import pandas as pd', ...cells]), {
  kinds: ['score-calibration'], ruleIds: ['pandas-pin-groupby-sum-min-count'], era: { versions: { pandas } },
})).notebook.cells.slice(1).map((c) => sourceText(c.source));

describe('pandas-pin-groupby-sum-min-count', () => {
  it('pins grouped and resampled sums, agg("sum") and the dict aggregation\'s "sum"', async () => {
    assert.deepEqual(await pin([
      "d = df.groupby(['date'], as_index=False).agg({'casual': 'sum', 'temp': 'mean'})",
      "m = df.groupby('m')['v'].sum()\nw = s.resample('W').agg('sum')\nx = df.groupby('k').v.sum()",
    ], '0.20.3'), [
      "d = df.groupby(['date'], as_index=False).agg({'casual': lambda s: s.sum(min_count=1), 'temp': 'mean'})",
      "m = df.groupby('m')['v'].sum(min_count=1)\nw = s.resample('W').sum(min_count=1)\nx = df.groupby('k').v.sum(min_count=1)",
    ]);
  });

  it('leaves plain sums, lists of aggregations and notebooks of pandas 0.22+ alone', async () => {
    const cells = ['t = df.v.sum()\nu = df.sum()', "g = df.groupby('k').agg(['sum', 'mean'])"];
    assert.deepEqual(await pin(cells, '0.20.3'), cells);
    const newer = ["d = df.groupby('k').agg({'v': 'sum'})"];
    assert.deepEqual(await pin(newer, '0.23.4'), newer);
  });
});

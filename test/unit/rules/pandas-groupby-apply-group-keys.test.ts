/** pandas-groupby-apply-group-keys: the grouper kept in a name, its apply in that cell or a later one. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from './support.js';

const fix = async (cells: string[]) => (await fixNotebook(notebookOf(['import pandas as pd', ...cells]), {
  ruleIds: ['pandas-groupby-apply-group-keys'],
})).notebook.cells.slice(1).map((c) => sourceText(c.source));

describe('pandas-groupby-apply-group-keys', () => {
  it('puts group_keys=False on the call a name holds when a later cell sets its apply as a column', async () => {
    assert.deepEqual(await fix([
      "grouped = train.groupby(['MSSubClass'])",
      "train['LotFrontage'] = grouped['LotFrontage'].apply(lambda x: x.fillna(x.mean()))",
    ]), [
      "grouped = train.groupby(['MSSubClass'], group_keys=False)",
      "train['LotFrontage'] = grouped['LotFrontage'].apply(lambda x: x.fillna(x.mean()))",
    ]);
    assert.deepEqual(await fix(["g = df.groupby('t')\ndf['z'] = g.v.apply(lambda x: x - x.mean())"]), ["g = df.groupby('t', group_keys=False)\ndf['z'] = g.v.apply(lambda x: x - x.mean())"]);
  });

  it('leaves a grouper whose applies are not set as columns, or that is bound again first', async () => {
    const cells = ["g = df.groupby('t')", "s = g['v'].apply(list)", "g = other\ndf['z'] = g['v'].apply(lambda x: x)"];
    assert.deepEqual(await fix(cells), cells);
  });
});

/** PD143: a one-element tuple or list set into one column of several rows is its element. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from './support.js';

const fix = async (cells: string[]) => (await fixNotebook(notebookOf(['import pandas as pd', ...cells]), {
  ruleIds: ['pandas-loc-one-element-value'],
})).notebook.cells.slice(1).map((c) => sourceText(c.source));

describe('pandas-loc-one-element-value', () => {
  it('unwraps a trailing-comma tuple, (v,) and [v] where rows are a mask, a slice or computed', async () => {
    assert.deepEqual(await fix([
      "df.loc[df['a'] <= 5, 'a'] = 0,\ndf.loc[(df.a > 5) & (df.a < 9), 'a'] = (1,)\ndf.loc[df.a.isnull(), 'a'] = [df.a.mean()]\ndf.iloc[2:, 0] = 9,",
    ]), [
      "df.loc[df['a'] <= 5, 'a'] = 0\ndf.loc[(df.a > 5) & (df.a < 9), 'a'] = 1\ndf.loc[df.a.isnull(), 'a'] = df.a.mean()\ndf.iloc[2:, 0] = 9",
    ]);
  });

  it('leaves scalar or named row keys, lists of columns, longer values and plain assignments alone', async () => {
    const cells = [
      "df.loc[0, 'tags'] = ['a']\ndf.loc[i, 'tags'] = ('a',)\ndf.loc[i + 1, 'a'] = [1]",
      "df.loc[df.a > 1, ['a']] = [0]\ndf.loc[df.a > 1, 'a'] = [0, 1]\nx = 1,\ndf['a'] = [0]",
    ];
    assert.deepEqual(await fix(cells), cells);
  });
});

/** PD139: a resampler used as the frame it stood for before pandas 0.18 gets its implicit mean back. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from './support.js';

// Library rules run in notebooks that import the library: a first cell does.
const fix = async (cells: string[]) => (await fixNotebook(notebookOf(['import pandas as pd', ...cells]))).notebook.cells.slice(1).map((c) => sourceText(c.source));

describe('pandas-resample-implicit-mean', () => {
  it('takes the mean where the resampler is masked, read as a frame, an operand or displayed', async () => {
    const out = await fix([
      "ts.resample('W')[ts.resample('W').count().a == 0].index",
      "ts.resample('M').plot()\nx = (ts.resample('D') * 2)",
      "ts.resample('W')",
    ]);
    assert.deepEqual(out, [
      "ts.resample('W').mean()[ts.resample('W').count().a == 0].index",
      "ts.resample('M').mean().plot()\nx = (ts.resample('D').mean() * 2)",
      "ts.resample('W').mean()",
    ]);
  });

  it('rewrites a bound resampler only when every use of the name is a frame use', async () => {
    assert.deepEqual(await fix(["weekly = df.resample('W')", 'weekly.plot()\nweekly.head()']), ["weekly = df.resample('W').mean()", 'weekly.plot()\nweekly.head()']);
    const mixed = ["weekly = df.resample('W')", 'weekly.sum().plot()\nweekly.head()'];
    assert.deepEqual(await fix(mixed), mixed);
  });

  it('leaves code written for the new API alone', async () => {
    const cells = ["df.resample('W')['a'].sum()", "r = df.resample('W')\nr.agg({'a': 'sum'})", "df.resample('W', on='d').count()", "x = df.resample('W')\nprint(x)"];
    assert.deepEqual(await fix(cells), cells);
  });
});

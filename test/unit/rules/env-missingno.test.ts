/** ENV006: missingno's plots, called through the notebook's alias in other cells, drawn with pandas / matplotlib. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from './support.js';

const error = { ename: 'ModuleNotFoundError', evalue: "No module named 'missingno'", traceback: [] };
const repair = (cells: string[]) => rulesForError(notebookOf(cells), 0, error, { runtime: { failingCell: 0, ...error, frames: [], types: {} } });

describe('env-missingno-substitute', () => {
  it('removes the import and redraws every call, in every cell, through the alias', async () => {
    const patches = await repair([
      'import pandas as pd\nimport matplotlib.pyplot as plt\nimport missingno as msno',
      "df = pd.read_csv('train.csv')",
      'msno.matrix(df, figsize=(12, 5))',
      'msno.bar(df[cols])\nmsno.heatmap(df)',
    ]);
    const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-missingno-substitute'));
    assert.ok(p, JSON.stringify(patches.map((x) => x.summary)));
    const after = new Map(p.edits.map((e) => [e.cell, e.op === 'replace' ? e.newSource : '']));
    assert.deepEqual([...after.keys()], [0, 2, 3]);
    assert.equal(after.get(0), 'import pandas as pd\nimport matplotlib.pyplot as plt\n');
    assert.equal(after.get(2), "plt.imshow(df.notnull(), aspect='auto', interpolation='none', cmap='gray')");
    assert.equal(after.get(3), "df[cols].notnull().sum().plot.bar()\nplt.imshow(df.isnull().corr(), cmap='RdBu', vmin=-1, vmax=1)");
  });

  it('leaves the notebook alone when the module is used for anything but its four plots', async () => {
    const patches = await repair(['import missingno as msno', 'msno.matrix(df)', 'f = msno.nullity_filter(df, n=5)']);
    assert.ok(!patches.some((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-missingno-substitute')));
  });

  it('without plt, every plot is the bar of non-null counts (pandas alone)', async () => {
    const patches = await repair(['import missingno as msno', 'msno.matrix(train.sample(100))']);
    const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-missingno-substitute'))!;
    assert.equal(sourceText((p.edits[1] as { newSource: string }).newSource), 'train.sample(100).notnull().sum().plot.bar()');
  });
  it('draws the bar, not imshow, where pyplot is imported only in a later cell', async () => {
    const patches = await repair(['import pandas as pd\nimport missingno as msno', 'msno.matrix(df)', 'import matplotlib.pyplot as plt']);
    const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-missingno-substitute'));
    assert.ok(p);
    assert.equal(new Map(p.edits.map((e) => [e.cell, e.op === 'replace' ? e.newSource : ''])).get(1), 'df.notnull().sum().plot.bar()');
  });
});

/** ENV010: plotly.plotly (moved out of plotly in 4.0) drawn with plotly.offline, its uses in other cells too. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

const ID = 'env-plotly-online-to-offline';
const error = { ename: 'ImportError', evalue: 'The plotly.plotly module is deprecated,\nplease install the chart-studio package and use the\nchart_studio.plotly module instead.', traceback: [] };
const repair = (cells: string[]) => rulesForError(notebookOf(cells), 0, error, { runtime: { failingCell: 0, ...error, frames: [], types: {} } });
const ours = (patches: Awaited<ReturnType<typeof repair>>) => patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes(ID));

describe(ID, () => {
  it('points the import at plotly.offline and drops upload-only keywords and sign-in, in every cell', async () => {
    const p = ours(await repair([
      'import plotly.plotly as py\nimport plotly.graph_objs as go',
      "py.sign_in('me', 'key')\nfig = go.Figure()",
      "py.iplot(fig, filename='a', world_readable=True)",
      "py.plot(fig, filename='b.html', auto_open=False)",
    ]));
    assert.ok(p);
    const after = new Map(p.edits.map((e) => [e.cell, e.op === 'replace' ? e.newSource : '']));
    assert.deepEqual([...after.keys()], [0, 1, 2]);
    assert.equal(after.get(0), 'import plotly.offline as py\nimport plotly.graph_objs as go');
    assert.equal(after.get(1), 'fig = go.Figure()');
    assert.equal(after.get(2), "py.iplot(fig, filename='a')");
  });

  it('leaves the notebook alone when the module is used for anything but drawing and signing in', async () => {
    assert.equal(ours(await repair(['import plotly.plotly as py', 'py.iplot(fig)', "f = py.get_figure('me', 3)"])), undefined);
    assert.equal(ours(await repair(['import plotly.plotly as py', 'show(py)'])), undefined);
  });

  it('does nothing for another ImportError', async () => {
    const other = { ename: 'ImportError', evalue: "cannot import name 'x' from 'plotly.graph_objs'", traceback: [] };
    const nb = notebookOf(['import plotly.plotly as py', 'py.iplot(fig)']);
    const patches = await rulesForError(nb, 0, other, { runtime: { failingCell: 0, ...other, frames: [], types: {} } });
    assert.equal(ours(patches), undefined);
  });
});

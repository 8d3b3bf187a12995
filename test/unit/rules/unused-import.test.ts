import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

const evidence = (cell: number, ename: string, evalue: string) => ({ failingCell: cell, ename, evalue, traceback: [], frames: [], types: {} });

describe('env-drop-unused-failing-import', () => {
  it('drops a name the notebook never uses from a failing from-import, keeping the others', async () => {
    const nb = notebookOf(['import pandas as pd\nfrom pandas import DataFrame, Panel, Series\nprint(DataFrame, Series)', 'x = 1']);
    const error = { ename: 'ImportError', evalue: "cannot import name 'Panel' from 'pandas' (/usr/lib/python3/dist-packages/pandas/__init__.py)" };
    const patches = await rulesForError(nb, 0, error, { runtime: evidence(0, error.ename, error.evalue) });
    const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-drop-unused-failing-import'));
    assert.ok(p, JSON.stringify(patches));
    assert.equal((p!.edits[0] as any).newSource, 'import pandas as pd\nfrom pandas import DataFrame, Series\nprint(DataFrame, Series)');
  });

  it('keeps an import that is used in another cell, and drops a whole unused module import', async () => {
    const used = notebookOf(['from sklearn.cross_validation import KFold', 'kf = KFold(5)']);
    const e1 = { ename: 'ModuleNotFoundError', evalue: "No module named 'sklearn.cross_validation'" };
    const p1 = await rulesForError(used, 0, e1, { runtime: evidence(0, e1.ename, e1.evalue) });
    assert.ok(!p1.some((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-drop-unused-failing-import')));
    const unused = notebookOf(['import numpy as np\nimport ggplot\nfrom ggplot import ggplot as gg\nprint(np.pi)']);
    const e2 = { ename: 'ModuleNotFoundError', evalue: "No module named 'ggplot'" };
    const p2 = (await rulesForError(unused, 0, e2, { runtime: evidence(0, e2.ename, e2.evalue) })).find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('env-drop-unused-failing-import'));
    assert.equal((p2!.edits[0] as any).newSource, 'import numpy as np\nprint(np.pi)');
  });
});

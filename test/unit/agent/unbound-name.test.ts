import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unboundLeafExcuse, unboundName } from '../../../src/agent/unbound-name.js';
import { stuckMove, stuckStop } from '../../../src/agent/decisions.js';
import { notebookOf } from '../rules/support.js';

const nameError = (n: string) => ({ ename: 'NameError', evalue: `name '${n}' is not defined` });

describe('names no cell binds', () => {
  it('a name read but bound by no cell is the missing code of a deleted cell', () => {
    const nb = notebookOf(['import pandas as pd\ntrain = pd.DataFrame({"a": [1]})', 'print(submission.head())']);
    assert.equal(unboundName(nb, nameError('submission')), 'submission');
  });
  it('bound somewhere (any cell, a def, a with/except target, a global) is not claimed: order or rules may still fix it', () => {
    assert.equal(unboundName(notebookOf(['print(sub)', 'sub = 1']), nameError('sub')), undefined);
    assert.equal(unboundName(notebookOf(['f()', 'def f():\n    global sub\n    sub = 2']), nameError('sub')), undefined);
    assert.equal(unboundName(notebookOf(['print(sub)', 'with open("x") as sub:\n    pass']), nameError('sub')), undefined);
  });
  it('anything that binds invisibly, a Python 2 builtin or a comprehension variable keeps the claim back', () => {
    assert.equal(unboundName(notebookOf(['from helpers import *', 'print(sub)']), nameError('sub')), undefined);
    assert.equal(unboundName(notebookOf(['%run other.ipynb', 'print(sub)']), nameError('sub')), undefined);
    assert.equal(unboundName(notebookOf(['globals()["sub"] = 1', 'print(sub)']), nameError('sub')), undefined);
    assert.equal(unboundName(notebookOf(['print(xrange(3))']), nameError('xrange')), undefined);
    assert.equal(unboundName(notebookOf(['ys = [x * 2 for x in range(3)]', 'print(x)']), nameError('x')), undefined);
    assert.equal(unboundName(notebookOf(['print(sub)']), { ename: 'KeyError', evalue: "'sub'" }), undefined);
  });
  it('stuckStop says unfixable, with the name', () => {
    const nb = notebookOf(['x = 1', 'print(submission)']);
    const stop = stuckStop({
      diagnosis: { kind: 'fix', fixType: 'error-repair', cell: 1, error: { ...nameError('submission'), traceback: [] }, signature: 's', why: 'NameError' },
      findings: [], dataFiles: [], hasData: false, llm: { enabled: false, reason: '--no-llm' }, notebook: nb,
    });
    assert.equal(stop.reason, 'unfixable');
    assert.match(stop.detail, /NameError for `submission`, which no cell of the notebook binds/);
  });

  /** A notebook whose cells the author all ran, top to bottom. */
  const ran = (cells: string[]) => {
    const nb = notebookOf(cells);
    nb.cells.forEach((c, i) => { (c as any).execution_count = i + 1; });
    return nb;
  };

  it('a recorded cell on a name no cell binds is skipped when no later cell depends on it', () => {
    const nb = ran(['import seaborn as sns\nimport pandas as pd\ntrain = pd.DataFrame({"a": [1]})', 'sns.heatmap(corrmat)\ntop = corrmat.index[:3]', 'print(train.shape)']);
    const ex = unboundLeafExcuse(nb, 1, nameError('corrmat'));
    assert.equal(ex?.unbound, 'corrmat');
    assert.ok(ex?.skipped);
    assert.match(ex!.reason!, /no cell of the notebook binds/);
  });
  it('not skipped when a later cell reads what it binds or changes in place, or the author never ran it', () => {
    assert.equal(unboundLeafExcuse(ran(['x = 1', 'top = corrmat.index[:3]', 'print(top)']), 1, nameError('corrmat')), undefined);
    assert.equal(unboundLeafExcuse(ran(['import pandas as pd\ntrain = pd.DataFrame({"a": [1]})', "train['b'] = scaler.transform(train)", 'print(train.b)']), 1, nameError('scaler')), undefined);
    assert.equal(unboundLeafExcuse(ran(['x = 1', 'def f():\n    return corrmat', 'print(f())']), 1, nameError('corrmat')), undefined);
    assert.equal(unboundLeafExcuse(notebookOf(['x = 1', 'print(corrmat)']), 1, nameError('corrmat')), undefined);
    // A later cell reading the name the failing cell imports: fine only when an earlier cell imports it too.
    assert.equal(unboundLeafExcuse(ran(['x = 1', 'import numpy as np\nprint(score)', 'print(np.pi)']), 1, nameError('score')), undefined);
    assert.ok(unboundLeafExcuse(ran(['import numpy as np', 'import numpy as np\nprint(score)', 'print(np.pi)']), 1, nameError('score')));
  });
  it('run order decides what comes later', () => {
    // Cell 1 reads `top` before cell 2 binds it in notebook order, after it in the author's order.
    const nb = ran(['x = 1', 'print(top)', 'top = corrmat.index[:3]']);
    assert.ok(unboundLeafExcuse(nb, 2, nameError('corrmat')));
    assert.equal(unboundLeafExcuse(nb, 2, nameError('corrmat'), [0, 2, 1]), undefined);
  });
  it('stuckMove skips such a cell (at most MAX_UNBOUND_SKIPS) when the environment can skip', () => {
    const nb = ran(['x = 1', 'print(corrmat)', 'print(x)']);
    const diagnosis = { kind: 'fix' as const, fixType: 'error-repair' as const, cell: 1, error: { ...nameError('corrmat'), traceback: [] }, signature: 's', why: 'NameError' };
    const stop = stuckStop({ diagnosis, findings: [], dataFiles: [], hasData: false, llm: { enabled: false, reason: '--no-llm' }, notebook: nb });
    const move = stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: true });
    assert.equal(move.kind, 'excuse');
    assert.equal(stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: false }).kind, 'stop');
    assert.equal(stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: true, unboundSkips: 3 }).kind, 'stop');
  });
});

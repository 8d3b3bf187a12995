import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unboundName } from '../../../src/agent/unbound-name.js';
import { stuckStop } from '../../../src/agent/decisions.js';
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
});

/** PD141: df[int array] on named columns was positional before pandas 0.21; from the KeyError naming the integers. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

// As the kernel reports it: the repr of pandas' text, a long index wrapped with the two characters \n.
const EVALUE = "\"None of [Index([32, 224, 183, 16, 243, 36, 223, 12, 258, 376, 4, 377, 22, 6, 2, 8, 5,\\n       11, 15, 3],\\n      dtype='int64')] are in the [columns]\"";

describe('pandas-getitem-int-positions-at-error', () => {
  it('selects the positions with .iloc on the frame the run names, everywhere the cell uses that key on it', async () => {
    const cells = [
      'import numpy as np\nimport pandas as pd',
      'idx = np.argsort(m.feature_importances_)[-3:]\nplt.barh(np.arange(len(X[idx].columns)), m.feature_importances_[idx])\nplt.yticks(np.arange(len(X[idx].columns)), np.array(X.columns)[idx])\ny = X[other]',
    ];
    const error = { ename: 'KeyError', evalue: EVALUE, traceback: [] };
    const patches = await rulesForError(notebookOf(cells), 1, error, { runtime: { failingCell: 1, ...error, frames: [{ cell: 1, line: 2 }], types: { X: 'DataFrame', m: 'GradientBoostingRegressor' } } });
    const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('pandas-getitem-int-positions-at-error'));
    assert.ok(p, JSON.stringify(patches.map((x) => x.summary)));
    assert.equal((p.edits[0] as { newSource: string }).newSource,
      'idx = np.argsort(m.feature_importances_)[-3:]\nplt.barh(np.arange(len(X.iloc[:, idx].columns)), m.feature_importances_[idx])\nplt.yticks(np.arange(len(X.iloc[:, idx].columns)), np.array(X.columns)[idx])\ny = X[other]');
  });

  it('leaves a frame the run says is something else, and string keys, alone', async () => {
    const cells = ['import pandas as pd', "a = s[idx]\nb = X['Age']"];
    const error = { ename: 'KeyError', evalue: EVALUE, traceback: [] };
    const patches = await rulesForError(notebookOf(cells), 1, error, { runtime: { failingCell: 1, ...error, frames: [{ cell: 1, line: 1 }], types: { s: 'ndarray', X: 'DataFrame' } } });
    assert.ok(!patches.some((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('pandas-getitem-int-positions-at-error')));
  });
});

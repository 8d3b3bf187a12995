import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingInputSlice } from '../../../src/agent/missing-input.js';
import { stuckMove } from '../../../src/agent/decisions.js';
import { notebookOf } from '../rules/support.js';

const err = { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: 'test.csv'" };
// A notebook of a competition whose data has no test.csv: an analysis of train, then a submission.
const cells = [
  'import pandas as pd\nfrom sklearn.ensemble import RandomForestClassifier',
  "# load\ntrain = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nprint(train.shape)",
  "X = train.drop('Cover_Type', axis=1)\ny = train['Cover_Type']",
  'print(X.describe())',
  'model = RandomForestClassifier(random_state=0)\nmodel.fit(X, y)',
  'print(model.score(X, y))',
  'pred = model.predict(test)',
  "sub = pd.DataFrame({'Id': test.Id, 'Cover_Type': pred})\nsub.to_csv('sub.csv', index=False)",
  'print(y.value_counts())',
];

describe('missingInputSlice', () => {
  it('comments out what reads the absent file in the failing cell and skips the later cells that need it', () => {
    const s = missingInputSlice(notebookOf(cells), 1, err, 'test.csv')!;
    assert.ok(s);
    assert.equal((s.patch!.edits[0] as any).newSource,
      "# nbmodernize: test.csv is not in the data provided; the statements that need it are commented out\n# load\ntrain = pd.read_csv('train.csv')\n# test = pd.read_csv('test.csv')\nprint(train.shape)");
    assert.deepEqual(s.skip.map((x) => x.cell), [6, 7]);
    assert.ok(s.skip.every((x) => x.expected.skipped && x.expected.missingInput === 'test.csv'));
    assert.match(s.patch!.summary, /cells 6, 7/);
  });
  it('a path built from variables is found from the traceback; a cell that only reads the file is skipped whole', () => {
    const nb = notebookOf([...cells.slice(0, 1), "train = pd.read_csv('train.csv')", "d = '../input/'\nf = d + name\ntest = pd.read_csv(f)", ...cells.slice(2)]);
    const s = missingInputSlice(nb, 2, { ...err, traceback: ['FileNotFoundError                         Traceback (most recent call last)', "Cell In[3], line 3\n      1 d = '../input/'\n      2 f = d + name\n----> 3 test = pd.read_csv(f)\n"] }, '../input/test.csv')!;
    assert.match((s.patch!.edits[0] as any).newSource, /\nf = d \+ name\n# test = pd.read_csv\(f\)$/);
    assert.deepEqual(s.skip.map((x) => x.cell), [7, 8]);
    const only = notebookOf([...cells.slice(0, 1), "train = pd.read_csv('train.csv')", "test = pd.read_csv('test.csv')", ...cells.slice(2)]);
    const whole = missingInputSlice(only, 2, err, 'test.csv')!;
    assert.equal(whole.patch, undefined);
    assert.deepEqual(whole.skip.map((x) => x.cell), [2, 7, 8]);
  });
  it('nothing when the file feeds most of the notebook (train and test concatenated), or the cell does not parse', () => {
    const joined = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nfull = pd.concat([train, test])", "X = full.drop('Cover_Type', axis=1)", 'print(X.shape)', 'print(full.head())', 'm = 1']);
    assert.equal(missingInputSlice(joined, 1, err, 'test.csv'), undefined);
    const loop = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nfor df in [train, test]:\n    df['a'] = 1", 'print(train.a.sum())', 'print(train.shape)', 'm = train.mean()', 'z = 3']);
    assert.equal(missingInputSlice(loop, 1, err, 'test.csv'), undefined);
    assert.equal(missingInputSlice(notebookOf(['test = pd.read_csv("test.csv"', 'a', 'b', 'c']), 0, err, 'test.csv'), undefined);
    // What the cell shows needs the file: the whole cell is not run, so what it binds is missing below too.
    const shown = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\ntest.shape", 'print(train.shape)', 'a = train.mean()', 'b = train.sum()', 'c = 3']);
    assert.equal(missingInputSlice(shown, 1, err, 'test.csv'), undefined);
  });
  it('stuckMove offers the slice for an input the data lacks, once per input, only where cells can be skipped', () => {
    const diagnosis = { kind: 'fix', fixType: 'error-repair', cell: 1, signature: 's', why: 'w', error: { ...err, traceback: [] } } as any;
    const stop = { reason: 'unfixable' as const, detail: 'the notebook reads test.csv, which the data provided does not hold (data files: train.csv); an input this run does not have' };
    const nb = notebookOf(cells);
    const move = stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: true, slicedInputs: new Set() });
    assert.equal(move.kind, 'slice');
    assert.equal(stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: true, slicedInputs: new Set(['test.csv']) }).kind, 'stop');
    assert.equal(stuckMove({ diagnosis, stop, notebook: nb, skipped: new Set(), canSkip: false, slicedInputs: new Set() }).kind, 'stop');
    assert.equal(stuckMove({ diagnosis, stop: { reason: 'no-fix-available', detail: 'x' }, notebook: nb, skipped: new Set(), canSkip: true, slicedInputs: new Set() }).kind, 'stop');
  });
});

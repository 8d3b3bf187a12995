import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingInputSlice, wholeSkipStrands } from '../../../src/agent/missing-input.js';
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
    const s = missingInputSlice(notebookOf(cells), 1, err, { kind: 'file', path: 'test.csv' })!;
    assert.ok(s);
    assert.equal((s.patch!.edits[0] as any).newSource,
      "# nbmodernize: test.csv is not in the data provided; the statements that need it are commented out\n# load\ntrain = pd.read_csv('train.csv')\n# test = pd.read_csv('test.csv')\nprint(train.shape)");
    assert.deepEqual(s.skip.map((x) => x.cell), [6, 7]);
    assert.ok(s.skip.every((x) => x.expected.skipped && x.expected.missingInput === 'test.csv'));
    assert.match(s.patch!.summary, /cells 6, 7/);
  });
  it('a path built from variables is found from the traceback; a cell that only reads the file is skipped whole', () => {
    const nb = notebookOf([...cells.slice(0, 1), "train = pd.read_csv('train.csv')", "d = '../input/'\nf = d + name\ntest = pd.read_csv(f)", ...cells.slice(2)]);
    const s = missingInputSlice(nb, 2, { ...err, traceback: ['FileNotFoundError                         Traceback (most recent call last)', "Cell In[3], line 3\n      1 d = '../input/'\n      2 f = d + name\n----> 3 test = pd.read_csv(f)\n"] }, { kind: 'file', path: '../input/test.csv' })!;
    assert.match((s.patch!.edits[0] as any).newSource, /\nf = d \+ name\n# test = pd.read_csv\(f\)$/);
    assert.deepEqual(s.skip.map((x) => x.cell), [7, 8]);
    const only = notebookOf([...cells.slice(0, 1), "train = pd.read_csv('train.csv')", "test = pd.read_csv('test.csv')", ...cells.slice(2)]);
    const whole = missingInputSlice(only, 2, err, { kind: 'file', path: 'test.csv' })!;
    assert.equal(whole.patch, undefined);
    assert.deepEqual(whole.skip.map((x) => x.cell), [2, 7, 8]);
  });
  it('nothing when the file feeds most of the notebook (train and test concatenated), or the cell does not parse', () => {
    const joined = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nfull = pd.concat([train, test])", "X = full.drop('Cover_Type', axis=1)", 'print(X.shape)', 'print(full.head())', 'm = 1']);
    assert.equal(missingInputSlice(joined, 1, err, { kind: 'file', path: 'test.csv' }), undefined);
    const loop = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nfor df in [train, test]:\n    df['a'] = 1", 'print(train.a.sum())', 'print(train.shape)', 'm = train.mean()', 'z = 3']);
    assert.equal(missingInputSlice(loop, 1, err, { kind: 'file', path: 'test.csv' }), undefined);
    assert.equal(missingInputSlice(notebookOf(['test = pd.read_csv("test.csv"', 'a', 'b', 'c']), 0, err, { kind: 'file', path: 'test.csv' }), undefined);
    // What the cell shows needs the file: the whole cell is not run, so what it binds is missing below too.
    const shown = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\ntest.shape", 'print(train.shape)', 'a = train.mean()', 'b = train.sum()', 'c = 3']);
    assert.equal(missingInputSlice(shown, 1, err, { kind: 'file', path: 'test.csv' }), undefined);
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
  it('cuts statement by statement in later cells too: what does not need the file keeps running', () => {
    const nb = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')", "Id = test['Id']\ny = train['Cover_Type']", "train = train.drop(['Id'], axis=1)\ntest = test.drop(['Id'], axis=1)", 'm = RandomForestClassifier().fit(train, y)', 'print(m.score(train, y))', 'pred = m.predict(test)\nprint(pred)', 'c = 1', 'd = 2']);
    const s = missingInputSlice(nb, 1, err, { kind: 'file', path: 'test.csv' })!;
    assert.deepEqual(s.patch!.edits.map((e) => e.cell), [1, 2, 3]);
    assert.match((s.patch!.edits[1] as any).newSource, /\n# Id = test\['Id'\]\ny = train\['Cover_Type'\]$/);
    assert.match((s.patch!.edits[2] as any).newSource, /\ntrain = train.drop\(\['Id'\], axis=1\)\n# test = test.drop/);
    // The prediction cell prints what needs the file: skipped whole; the model cells run.
    assert.deepEqual(s.skip.map((x) => x.cell), [6]);
    assert.ok(s.share > 0 && s.share < 0.4);
  });
  it("the author's record says whether a cut statement showed anything: an in-place call shows no result", () => {
    const nb = notebookOf([cells[0]!, "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')", "y = train['Cover_Type']\ntrain.drop('Id', axis=1, inplace=True)\ntest.drop('Id', axis=1, inplace=True)", 'print(train.shape)', 'a = 1', 'b = 2']);
    nb.cells.forEach((c, i) => { if (c.cell_type === 'code') c.execution_count = i + 1; });
    const s = missingInputSlice(nb, 1, err, { kind: 'file', path: 'test.csv' })!;
    assert.deepEqual(s.patch!.edits.map((e) => e.cell), [1, 2]);
    assert.deepEqual(s.skip, []);
    // With no record, the last expression is taken to have shown something: the cell is not run.
    const unrecorded = missingInputSlice(notebookOf(nb.cells.map((c) => (c.source as string[]).join(''))), 1, err, { kind: 'file', path: 'test.csv' })!;
    assert.deepEqual(unrecorded.skip.map((x) => x.cell), [2]);
  });
  it('a module the environment lacks: its imports and what uses them are cut, a magic loading it too', () => {
    const nb = notebookOf(['import pandas as pd\nimport lightgbm as lgb\nfrom sklearn.linear_model import Ridge', '%load_ext autotime\nX = pd.DataFrame({"a": [1, 2]})\ny = X.a', 'r = Ridge().fit(X, y)\nprint(r.score(X, y))', 'g = lgb.LGBMRegressor().fit(X, y)', 'blend = (r.predict(X) + g.predict(X)) / 2\nprint(blend)', 'print(r.coef_)', 'a = 1', 'b = 2']);
    const lib = { ename: 'ModuleNotFoundError', evalue: "No module named 'lightgbm'" };
    const s = missingInputSlice(nb, 0, lib, { kind: 'module', name: 'lightgbm' })!;
    assert.equal((s.patch!.edits[0] as any).newSource, '# nbmodernize: module lightgbm is not in the environment; the statements that need it are commented out\nimport pandas as pd\n# import lightgbm as lgb\nfrom sklearn.linear_model import Ridge');
    assert.deepEqual(s.skip.map((x) => x.cell), [3, 4]);
    assert.ok(s.skip.every((x) => x.expected.missingLibrary === 'lightgbm' && !x.expected.missingInput));
    const ext = missingInputSlice(nb, 1, { ename: 'ModuleNotFoundError', evalue: "No module named 'autotime'" }, { kind: 'module', name: 'autotime' })!;
    assert.equal((ext.patch!.edits[0] as any).newSource.split('\n')[1], '# %load_ext autotime');
    assert.deepEqual(ext.skip, []);
    // `import lightgbm_tools` or `from mylightgbm import x` is not lightgbm.
    const other = notebookOf(['import lightgbm_tools\nimport lightgbm.sklearn as ls', 'x = 1', 'y = 2', 'z = 3']);
    assert.deepEqual(missingInputSlice(other, 0, lib, { kind: 'module', name: 'lightgbm' })!.patch!.edits.map((e) => (e as any).newSource.split('\n').slice(1)), [['import lightgbm_tools', '# import lightgbm.sklearn as ls']]);
  });
  it('stuckMove slices a top-level module the environment lacks, never a dotted one, within the share all slices may take', () => {
    const nb = notebookOf(['import pandas as pd\nimport lightgbm as lgb', 'x = 1', 'g = lgb.LGBMRegressor()', 'y = 2', 'z = 3']);
    const diagnosis = (evalue: string) => ({ kind: 'fix', fixType: 'error-repair', cell: 0, signature: 's', why: 'w', error: { ename: 'ModuleNotFoundError', evalue, traceback: [] } }) as any;
    const stop = { reason: 'unfixable' as const, detail: 'lightgbm is not in the environment' };
    const base = { stop, notebook: nb, skipped: new Set<number>(), canSkip: true };
    const move = stuckMove({ ...base, diagnosis: diagnosis("No module named 'lightgbm'"), slicedInputs: new Set() });
    assert.equal(move.kind, 'slice');
    assert.equal(move.kind === 'slice' && move.input, 'module:lightgbm');
    assert.equal(stuckMove({ ...base, diagnosis: diagnosis("No module named 'lightgbm'"), slicedInputs: new Set(['module:lightgbm']) }).kind, 'stop');
    assert.equal(stuckMove({ ...base, diagnosis: diagnosis("No module named 'sklearn.cross_validation'"), slicedInputs: new Set() }).kind, 'stop');
    assert.equal(stuckMove({ ...base, diagnosis: diagnosis("No module named 'lightgbm'"), slicedInputs: new Set(), slicedShare: 0.3 }).kind, 'stop');
  });
});

describe('a never-run cell that fails: skipped whole only when that strands no recorded cell', () => {
  // The author never ran cell 0 (an import cell with a name its library no longer has); the others are recorded.
  // (A module the environment lacks altogether is the module slice's, which comes first.)
  const tb = (row: number) => [`Cell In[1], line ${row}\n----> ${row} from metrics import rmsle`];
  const lib = { ename: 'ImportError', evalue: "cannot import name 'rmsle' from 'metrics'", traceback: tb(3) };
  const record = (nb: ReturnType<typeof notebookOf>, never: number[]) => {
    nb.cells.forEach((c, i) => { if (c.cell_type === 'code' && !never.includes(i)) c.execution_count = i + 1; });
    return nb;
  };
  it('wholeSkipStrands: a recorded later cell reads what another statement of the failing cell binds', () => {
    const nb = record(notebookOf(['import numpy as np\nimport pandas as pd\nfrom metrics import rmsle', "df = pd.DataFrame({'a': [1]})", 'print(df.a.sum())']), [0]);
    assert.equal(wholeSkipStrands(nb, 0, lib), true);
    // Bound again by an earlier cell, or only names of the failing statement read later: nothing stranded.
    const again = record(notebookOf(['import pandas as pd', 'import numpy as np\nimport pandas as pd\nfrom metrics import rmsle', "df = pd.DataFrame({'a': [1]})"]), [1]);
    assert.equal(wholeSkipStrands(again, 1, lib), false);
    const own = record(notebookOf(['x = 1\ny = 2\nfrom metrics import rmsle', 'print(rmsle(1, 2))']), [0]);
    assert.equal(wholeSkipStrands(own, 0, lib), false);
    // No traceback row: whether it strands anything is not known, the whole-cell excuse stands.
    assert.equal(wholeSkipStrands(nb, 0, { traceback: [] }), false);
    // ipykernel's file-name header, and a cell whose blank top line IPython dropped (it says line 2 for line 3).
    const blank = record(notebookOf(['\nimport pandas as pd\nfrom metrics import rmsle\nimport numpy as np', "df = pd.DataFrame({'a': [1]})"]), [0]);
    assert.equal(wholeSkipStrands(blank, 0, { traceback: ['/tmp/ipykernel_9/123.py in ?()\n      1 import pandas as pd\n----> 2 from metrics import rmsle\n'] }), true);
    // Pointing at `import pandas` itself (the unshifted row) would find nothing stranded by the others.
    assert.equal(wholeSkipStrands(blank, 0, { traceback: ['/tmp/ipykernel_9/123.py in ?()\n----> 1 import pandas as pd\n'] }), false);
  });
  it('stuckMove cuts the failing statement of the never-run cell; stops when what needs it reaches a recorded cell', () => {
    const stop = { reason: 'no-fix-available' as const, detail: 'no rule' };
    const diagnosis = { kind: 'fix', fixType: 'error-repair', cell: 0, signature: 's', why: 'w', error: lib } as any;
    // rmsle is used by nothing recorded: the statement goes, pandas stays.
    const nb = record(notebookOf(['import numpy as np\nimport pandas as pd\nfrom metrics import rmsle', "df = pd.DataFrame({'a': [1]})", 'print(df.a.sum())', 'print(rmsle(df.a, df.a))']), [0, 3]);
    const move = stuckMove({ diagnosis, stop, notebook: nb, neverRun: new Set([0, 3]), skipped: new Set(), canSkip: true, slicedInputs: new Set() });
    assert.equal(move.kind, 'slice');
    if (move.kind !== 'slice') return;
    assert.equal((move.slice.patch!.edits[0] as any).newSource.split('\n').slice(1).join('\n'), 'import numpy as np\nimport pandas as pd\n# from metrics import rmsle');
    assert.deepEqual(move.slice.skip.map((s) => s.cell), [3]);
    assert.ok(move.slice.skip.every((s) => s.expected.neverRun && !s.expected.missingLibrary && !s.expected.missingInput));
    assert.equal(move.slice.patch!.source.kind === 'rule' && move.slice.patch!.source.ruleIds[0], 'never-run-statement');
    // A recorded cell needs rmsle: cutting it would drop part of the record, so the loop stops on the real failure.
    const used = record(notebookOf(['import numpy as np\nimport pandas as pd\nfrom metrics import rmsle', "df = pd.DataFrame({'a': [1]})", 'print(rmsle(df.a, df.a))', 'x = 1', 'y = 2']), [0]);
    assert.deepEqual(stuckMove({ diagnosis, stop, notebook: used, neverRun: new Set([0]), skipped: new Set(), canSkip: true, slicedInputs: new Set() }), { kind: 'stop', stop });
    // Nothing stranded: the whole-cell excuse as before.
    const alone = record(notebookOf(['from metrics import rmsle\nimport numpy as np', 'x = 1']), [0]);
    const whole = stuckMove({ diagnosis: { ...diagnosis, error: { ...lib, traceback: tb(1) } }, stop, notebook: alone, neverRun: new Set([0]), skipped: new Set(), canSkip: true, slicedInputs: new Set() });
    assert.equal(whole.kind, 'excuse');
  });
});

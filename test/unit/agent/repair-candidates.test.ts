import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { repairCandidates } from '../../../src/agent/repair-candidates.js';
import { makeNotebook } from '../../support/notebooks.js';

// The fixed kernel's traceback format (captured from a real run), for a helper defined in cell 0.
const TB = [
  'AttributeError                            Traceback (most recent call last)',
  '/tmp/ipykernel_4/1901470577.py in ?()\n      1 x = 1\n----> 2 f(pd.DataFrame({"a":[1]}))\n',
  '/tmp/ipykernel_4/2142053953.py in ?(d)\n      2 def f(d):\n----> 3     return d.sort()\n',
  "AttributeError: 'DataFrame' object has no attribute 'sort'",
];

describe('repairCandidates (runtime evidence)', () => {
  it('a removed DataFrame method on an untyped parameter, inside a function defined in another cell', async () => {
    // `d.sort()` is also list.sort(): only the runtime message says d is a DataFrame.
    const nb = makeNotebook(['import pandas as pd\ndef f(d):\n    return d.sort()', 'x = 1\nf(pd.DataFrame({"a":[1]}))']);
    const error = { ename: 'AttributeError', evalue: "'DataFrame' object has no attribute 'sort'", traceback: TB };
    const cands = await repairCandidates({ notebook: nb, cell: 1, error, dataFiles: [] });
    const inDef = cands.find((c) => c.patch.edits.some((e) => e.cell === 0));
    assert.ok(inDef, JSON.stringify(cands.map((c) => c.label)));
    assert.equal((inDef!.patch.edits[0] as any).newSource, 'import pandas as pd\ndef f(d):\n    return d.sort_index()');
    assert.match(inDef!.label, /cell 0, where the traceback points/);
  });

  it("a receiver typed by the traceback's next frame (DataFrame.corr), when the message names no type", async () => {
    const nb = makeNotebook(['import pandas as pd\nimport pickle\ndef load():\n    return pickle.load(open("d.pkl", "rb"))', 'train_data = load()\ncorr_matrix = train_data.corr()']);
    const evalue = "could not convert string to float: 'RL'";
    const frame = 'Cell In[13], line 2\n      1 train_data = load()\n----> 2 corr_matrix = train_data.corr()\n';
    const lib = 'File /usr/lib/python3/dist-packages/pandas/core/frame.py:11049, in DataFrame.corr(self, method, min_periods, numeric_only)\n> 11049 mat = data.to_numpy(dtype=float)\n';
    const fixed = 'train_data = load()\ncorr_matrix = train_data.corr(numeric_only=True)';
    const found = async (traceback: string[]) => (await repairCandidates({ notebook: nb, cell: 1, error: { ename: 'ValueError', evalue, traceback }, dataFiles: [] }))
      .some((c) => c.patch.edits.some((e) => (e as any).newSource === fixed));
    assert.equal(await found([frame, `ValueError: ${evalue}`]), false, 'without the library frame the receiver is untyped');
    assert.equal(await found([frame, lib, `ValueError: ${evalue}`]), true);
  });

  it('bool arithmetic on get_dummies columns: the uint8 default is pinned upstream, in every cell that builds them', async () => {
    const nb = makeNotebook([
      "import pandas as pd\ndf = pd.DataFrame({'s': ['a', 'b']})\nd = pd.get_dummies(df['s'])",
      "e = pd.get_dummies(df['s'], prefix='x')",
      'print((1 - d).sum())',
      "late = pd.get_dummies(df['s'])",
    ]);
    const error = { ename: 'TypeError', evalue: 'numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.', traceback: [] };
    const cands = await repairCandidates({ notebook: nb, cell: 2, error, dataFiles: [] });
    const pin = cands.find((c) => c.label.startsWith('pandas-pin-get-dummies-uint8'));
    assert.ok(pin, JSON.stringify(cands.map((c) => c.label)));
    assert.deepEqual(pin!.patch.edits.map((e) => e.cell), [0, 1]);
    assert.match((pin!.patch.edits[1] as any).newSource, /get_dummies\(df\['s'\], prefix='x', dtype='uint8'\)/);
    const other = await repairCandidates({ notebook: nb, cell: 2, error: { ...error, evalue: 'unsupported operand' }, dataFiles: [] });
    assert.ok(!other.some((c) => c.label.startsWith('pandas-pin-get-dummies-uint8')));
    // pandas' own refusal of / on two bool columns points at the same change.
    const div = await repairCandidates({ notebook: nb, cell: 2, error: { ename: 'NotImplementedError', evalue: "operator 'truediv' not implemented for bool dtypes", traceback: [] }, dataFiles: [] });
    assert.ok(div.some((c) => c.label.startsWith('pandas-pin-get-dummies-uint8')), JSON.stringify(div.map((c) => c.label)));
    // Bool dummies next to floats make an object array: statsmodels' refusal and numpy's isfinite say so.
    for (const e of [{ ename: 'ValueError', evalue: 'Pandas data cast to numpy dtype of object. Check input data with np.asarray(data).' }, { ename: 'TypeError', evalue: "ufunc 'isfinite' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''" },
      // numpy 2.2 on that object array: np.corrcoef / np.cov, np.log and friends, linalg.
      { ename: 'AttributeError', evalue: "'float' object has no attribute 'shape'" },
      { ename: 'TypeError', evalue: 'loop of ufunc does not support argument 0 of type float which has no callable log method' },
      { ename: 'UFuncTypeError', evalue: "Cannot cast ufunc 'inv' input from dtype('O') to dtype('float64') with casting rule 'same_kind'" }]) {
      const c = await repairCandidates({ notebook: nb, cell: 2, error: { ...e, traceback: [] }, dataFiles: [] });
      assert.ok(c.some((x) => x.label.startsWith('pandas-pin-get-dummies-uint8')), JSON.stringify(c.map((x) => x.label)));
    }
  });

  it("a NaN the author never had (pandas 2 reads the field value 'None' as missing): the pandas 1 NA strings are pinned at the reads upstream, only where the data holds such fields", async () => {
    const nb = makeNotebook([
      "import pandas as pd\ntrain = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv', na_values=['?'])",
      "from sklearn.preprocessing import OneHotEncoder\nenc = OneHotEncoder().fit(train[['MasVnrType']])\nenc.transform(test[['MasVnrType']])",
      "late = pd.read_csv('other.csv')",
    ]);
    const facts = { newlyMissingTokens: { 'train.csv': ['None'] } };
    const label = (c: { label: string }) => c.label.startsWith('pandas-pin-read-csv-none-na');
    const errors = [
      { ename: 'ValueError', evalue: 'Found unknown categories [nan] in column 0 during transform' },
      { ename: 'ValueError', evalue: 'Input X contains NaN.' },
      { ename: 'IntCastingNaNError', evalue: 'Cannot convert non-finite values (NA or inf) to integer' },
      { ename: 'AttributeError', evalue: "'float' object has no attribute 'lower'" },
      { ename: 'TypeError', evalue: "'<' not supported between instances of 'float' and 'str'" },
      { ename: 'TypeError', evalue: "object of type 'float' has no len()" },
    ];
    for (const e of errors) {
      const cands = await repairCandidates({ notebook: nb, cell: 1, error: { ...e, traceback: [] }, dataFiles: ['train.csv', 'test.csv'], dataFacts: facts });
      const pin = cands.find(label);
      assert.ok(pin, `${e.evalue}: ${JSON.stringify(cands.map((c) => c.label))}`);
      // Only the read that left the choice to the default, and not one after the failing cell.
      assert.deepEqual(pin!.patch.edits.map((x) => x.cell), [0]);
      assert.match((pin!.patch.edits[0] as any).newSource, /read_csv\('train\.csv', keep_default_na=False, na_values=\[''/);
      assert.match((pin!.patch.edits[0] as any).newSource, /read_csv\('test\.csv', na_values=\['\?'\]\)/);
    }
    const error = { ...errors[0]!, traceback: [] };
    // No evidence in the data, no pin; an unrelated error, no pin.
    assert.ok(!(await repairCandidates({ notebook: nb, cell: 1, error, dataFiles: [] })).some(label));
    assert.ok(!(await repairCandidates({ notebook: nb, cell: 1, error, dataFiles: [], dataFacts: { newlyMissingTokens: {} } })).some(label));
    assert.ok(!(await repairCandidates({ notebook: nb, cell: 1, error: { ename: 'ValueError', evalue: 'could not convert string to float', traceback: [] }, dataFiles: [], dataFacts: facts })).some(label));
  });

  it("penalty='l1' refused by the new default solver: the old solver is pinned at the constructor upstream", async () => {
    const nb = makeNotebook(["from sklearn.linear_model import LogisticRegression\nclf = LogisticRegression(penalty='l1', C=0.5)", 'clf.fit([[0.0], [1.0]], [0, 1])']);
    const error = { ename: 'ValueError', evalue: "Solver lbfgs supports only 'l2' or None penalties, got l1 penalty.", traceback: [] };
    const pin = (await repairCandidates({ notebook: nb, cell: 1, error, dataFiles: [] })).find((c) => c.label.startsWith('sklearn-pin-logistic-solver'));
    assert.ok(pin);
    assert.equal((pin!.patch.edits[0] as any).newSource, "from sklearn.linear_model import LogisticRegression\nclf = LogisticRegression(penalty='l1', C=0.5, solver='liblinear')");
  });

  it('when the message names another type, the same receiver is left alone', async () => {
    const nb = makeNotebook(['import pandas as pd\ndef f(d):\n    return d.sort()', 'x = 1\nf(pd.DataFrame({"a":[1]}))']);
    const error = { ename: 'AttributeError', evalue: "'tuple' object has no attribute 'sort'", traceback: TB };
    const cands = await repairCandidates({ notebook: nb, cell: 1, error, dataFiles: [] });
    assert.ok(!cands.some((c) => c.patch.edits.some((e) => e.cell === 0)), JSON.stringify(cands.map((c) => c.label)));
  });
});

describe('repairCandidates (missing labels)', () => {
  it("KeyError: ['x'] not in index on an untyped frame, at the traceback's line only", async () => {
    const nb = makeNotebook(["import pandas as pd\ncols = ['OverallQual ', 'GrLivArea']\ndef pick(d):\n    keep = d[['Id', 'Name']]\n    return d[cols]"]);
    const TB2 = ["/tmp/ipykernel_4/1.py in ?(d)\n      4     keep = d[['Id', 'Name']]\n----> 5     return d[cols]\n"];
    const error = { ename: 'KeyError', evalue: `"['OverallQual '] not in index"`, traceback: TB2 };
    const cands = await repairCandidates({ notebook: nb, cell: 0, error, dataFiles: [] });
    const c = cands.find((x) => x.label.includes('pandas-missing-labels-reindex'));
    assert.ok(c, JSON.stringify(cands.map((x) => x.label)));
    assert.equal((c!.patch.edits[0] as any).newSource, "import pandas as pd\ncols = ['OverallQual ', 'GrLivArea']\ndef pick(d):\n    keep = d[['Id', 'Name']]\n    return d.reindex(columns=cols)");
  });
});

describe('repairCandidates (1-D X)', () => {
  it('both readings of a 1-D X are candidates, the old single-sample one first', async () => {
    const nb = makeNotebook(['import numpy as np\nfrom sklearn.preprocessing import StandardScaler\nsc = StandardScaler()\ny_std = sc.fit_transform(y_train)']);
    const error = { ename: 'ValueError', evalue: 'Expected 2D array, got 1D array instead:\narray=[1. 2.].\nReshape your data either using array.reshape(-1, 1)', traceback: [] };
    const cands = (await repairCandidates({ notebook: nb, cell: 0, error, dataFiles: [] })).filter((c) => c.patch.source.kind === 'rule' && c.patch.source.ruleIds.includes('sklearn-1d-reshape'));
    assert.deepEqual(cands.map((c) => (c.patch.edits[0] as any).newSource.split('\n').pop()), ['y_std = sc.fit_transform(np.asarray(y_train).reshape(1, -1))', 'y_std = sc.fit_transform(np.asarray(y_train).reshape(-1, 1))']);
  });
  it('through a scaler (one feature in 0.17-0.18, 1-D back): one feature, flattened, then one feature kept 2-D', async () => {
    const nb = makeNotebook(['import numpy as np\nfrom sklearn.preprocessing import StandardScaler\nsc = StandardScaler()\ny_std = sc.fit_transform(y_train)\nsc.fit(y_train)']);
    const traceback = [
      'Cell In[4], line 4\n      2 from sklearn.preprocessing import StandardScaler\n      3 sc = StandardScaler()\n----> 4 y_std = sc.fit_transform(y_train)\n',
      '\u001b[0;31mFile \u001b[0;32m/usr/lib/python3/dist-packages/sklearn/preprocessing/_data.py:912\u001b[0m, in \u001b[0;36mStandardScaler.partial_fit\u001b[0;34m(self, X, y, sample_weight)\u001b[0m\n',
      'ValueError: Expected 2D array, got 1D array instead:',
    ];
    const error = { ename: 'ValueError', evalue: 'Expected 2D array, got 1D array instead:\narray=[1. 2.].\nReshape your data either using array.reshape(-1, 1)', traceback };
    const cands = (await repairCandidates({ notebook: nb, cell: 0, error, dataFiles: [] })).filter((c) => c.patch.source.kind === 'rule' && c.patch.source.ruleIds.includes('sklearn-1d-reshape'));
    assert.deepEqual(cands.map((c) => (c.patch.edits[0] as any).newSource.split('\n')[3]), ['y_std = sc.fit_transform(np.asarray(y_train).reshape(-1, 1)).ravel()', 'y_std = sc.fit_transform(np.asarray(y_train).reshape(-1, 1))']);
  });
});

/** The rule engine beyond single fixtures: masking, imports across cells, fixpoint, metadata, error/pin entry points. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText, type CodeCell } from '../../../src/core/notebook.js';
import { fixNotebook, scanNotebook, rulesForError, pinDefaults, ALL_RULES } from '../../../src/fixers/rules/index.js';
import { maskIPython, logicalLineRanges } from '../../../src/fixers/python/ipython.js';
import { applyFindings } from '../../../src/fixers/rules/engine.js';
import { rule } from '../../../src/fixers/rules/helpers.js';
import { stringValue } from '../../../src/fixers/rules/tree.js';
import type { CellContext } from '../../../src/fixers/rules/context.js';
import type { RuleGate } from '../../../src/fixers/rules/types.js';
import { notebookOf, fixSource } from './support.js';

const src = (nb: { cells: any[] }, i: number) => sourceText(nb.cells[i].source);

describe('IPython masking', () => {
  it('masks magics, shell commands and help with same-length text', () => {
    const text = "%matplotlib inline\n!ls -la\nx = !ls\ndf.head?\n?np.mean\nfiles = %sx ls\nprint('%d' % 3)\n";
    const m = maskIPython(text);
    assert.equal(m.text.length, text.length);
    assert.ok(m.python);
    assert.equal(m.masked.length, 6);
    assert.ok(m.text.includes("print('%d' % 3)"), 'python with % untouched');
    assert.ok(!/%matplotlib|!ls|\?/.test(m.text.split('\n').slice(0, 6).join('\n')));
  });

  it('does not mask inside strings, brackets or continuation lines', () => {
    const text = 's = """\n%not a magic\n!nor this\n"""\nf(a,\n  !b)\n';
    assert.deepEqual(maskIPython(text).masked, []);
    assert.deepEqual(logicalLineRanges('a = (1,\n 2)\nb = 3').map(([s]) => s), [0, 12]);
  });

  it('parses the body of Python cell magics and skips non-Python ones', () => {
    assert.ok(maskIPython('%%time\nx = 1').python);
    assert.equal(maskIPython('%%bash\nls -la').python, false);
    assert.equal(maskIPython('%%writefile helper.py\nprint "x"').python, false);
  });

  it('rewrites code around magics and restores them unchanged', async () => {
    const { out } = await fixSource('%matplotlib inline\nimport numpy as np\n!pip install foo\nprint np.float(2)\ndf.describe?', {});
    assert.equal(out, '%matplotlib inline\nimport numpy as np\n!pip install foo\nprint(float(2))\ndf.describe?');
  });

  it('leaves %%bash cells alone', async () => {
    const { out } = await fixSource('%%bash\nprint "x" <> y', {});
    assert.equal(out, '%%bash\nprint "x" <> y');
  });

  it('inserts imports after a %%time line', async () => {
    const { out } = await fixSource('%%time\nprint(reduce(lambda a, b: a + b, [1, 2]))', {});
    assert.equal(out, '%%time\nfrom functools import reduce\nprint(reduce(lambda a, b: a + b, [1, 2]))');
  });
});

describe('imports and aliases across cells', () => {
  it('follows the alias a notebook used, in later cells', async () => {
    const nb = notebookOf(['import numpy as n\nfrom sklearn.cross_validation import KFold as KF', 'x = n.float(1)\nkf = KF(10, n_folds=5)\nprint(cross_val_score(m, X, y, cv=kf))']);
    const res = await fixNotebook(nb);
    assert.equal(src(res.notebook, 0), 'import numpy as n\nfrom sklearn.model_selection import KFold as KF');
    assert.equal(src(res.notebook, 1), 'x = float(1)\nkf = KF(n_splits=5)\nprint(cross_val_score(m, X, y, cv=kf))');
  });

  it('does not touch names the notebook defines itself', async () => {
    const { out } = await fixSource('def xrange(n):\n    return [n]\nfile = "train.csv"\nprint(xrange(2), file)', {});
    assert.equal(out, 'def xrange(n):\n    return [n]\nfile = "train.csv"\nprint(xrange(2), file)');
  });

  it('does not rewrite attributes of objects that are not the module', async () => {
    const { out } = await fixSource('class A:\n    float = 1\nnp = A()\nprint(np.float)', {});
    assert.equal(out, 'class A:\n    float = 1\nnp = A()\nprint(np.float)');
  });

  it('rewrites a loop over an old-style KFold defined in another cell', async () => {
    const nb = notebookOf(['from sklearn.cross_validation import KFold\nkf = KFold(len(X), n_folds=3)', 'for tr, te in kf:\n    pass']);
    const res = await fixNotebook(nb);
    assert.equal(src(res.notebook, 0), 'from sklearn.model_selection import KFold\nkf = KFold(n_splits=3)');
    assert.equal(src(res.notebook, 1), 'for tr, te in kf.split(range(len(X))):\n    pass');
  });
});

describe('fixpoint and conflicts', () => {
  it('applies nested rewrites across passes (print statement around has_key and iteritems)', async () => {
    const { out } = await fixSource("for k, v in d.iteritems():\n    print k, d.has_key(k), `v`", {});
    assert.equal(out, 'for k, v in d.items():\n    print(k, k in d, repr(v))');
  });

  it('resolves overlapping edits by rule order, deterministically', () => {
    const f = (id: string, start: number, end: number, text: string) => ({ rule: ALL_RULES.find((r) => r.id === id)!, cell: 0, match: { node: null as any }, edits: [{ start, end, text }] });
    const a = applyFindings('abcdef', [f('py2-xrange', 1, 3, 'X'), f('py2-unicode', 2, 4, 'Y'), f('py2-long', 4, 4, '+'), f('py2-basestring', 4, 4, '-')]);
    assert.equal(a.text, 'aXd+-ef');
    assert.deepEqual(a.accepted.map((x) => x.rule.id), ['py2-xrange', 'py2-long', 'py2-basestring']);
  });

  it('is idempotent on a mixed notebook', async () => {
    const cells = ['import numpy as np\nimport pandas as pd\nfrom sklearn.cross_validation import train_test_split', "df = pd.read_csv('data/train.csv')\nprint df.ix[0, 'a'], np.NaN\ndf = df.append(df, ignore_index=True)", 'for c, s in df.iteritems():\n    print c'];
    const once = await fixNotebook(notebookOf(cells), { dataFiles: ['train.csv'] });
    const twice = await fixNotebook(once.notebook, { dataFiles: ['train.csv'] });
    assert.deepEqual(twice.changes, []);
    assert.equal(src(once.notebook, 1), "df = pd.read_csv('../input/train.csv')\nprint(df.loc[0, 'a'], np.nan)\ndf = pd.concat([df, df], ignore_index=True)");
  });
});

describe('fixNotebook output', () => {
  it('clears outputs of changed cells only, marks them, and does not mutate the input', async () => {
    const nb = notebookOf(['print "a"', 'print("b")']);
    for (const c of nb.cells as CodeCell[]) {
      c.outputs = [{ output_type: 'stream', name: 'stdout', text: 'x' }];
      c.execution_count = 3;
    }
    const before = JSON.stringify(nb);
    const res = await fixNotebook(nb);
    assert.equal(JSON.stringify(nb), before, 'input untouched');
    const [c0, c1] = res.notebook.cells as CodeCell[];
    assert.deepEqual(c0.outputs, []);
    assert.equal(c0.execution_count, null);
    assert.deepEqual(c0.metadata.nbmodernize, { changed: true, fixType: 'error-repair', rules: ['py2-print-statement'] });
    assert.equal(c1.outputs.length, 1);
    assert.equal(c1.execution_count, 3);
    assert.equal(c1.metadata.nbmodernize, undefined);
    assert.equal(res.patches.length, 1);
    assert.deepEqual(res.patches[0].edits, [{ cell: 0, op: 'replace', newSource: 'print("a")' }]);
    assert.deepEqual(res.patches[0].source, { kind: 'rule', ruleIds: ['py2-print-statement'] });
  });

  it('returns the report-only findings that remain', async () => {
    const res = await fixNotebook(notebookOf(['import lightgbm as lgb\nimport pandas as pd\np = pd.Panel(data)']));
    assert.deepEqual(res.findings.map((f) => f.ruleId).sort(), ['env-unavailable-library', 'pandas-panel']);
    assert.match(res.findings.find((f) => f.ruleId === 'env-unavailable-library')!.message, /lightgbm is not available in debian13; candidates: xgboost/);
  });
});

describe('data paths', () => {
  it('keeps paths that already point at the mount, rewrites the rest', async () => {
    const code = "import pandas as pd\na = pd.read_csv('../input/train.csv')\nb = pd.read_csv('/kaggle/input/titanic/train.csv')\nc = pd.read_csv('../input/titanic-data/train.csv')\nd = pd.read_csv('other.csv')";
    const { out } = await fixSource(code, { dataFiles: ['train.csv'], competition: 'titanic' });
    assert.equal(out, "import pandas as pd\na = pd.read_csv('../input/train.csv')\nb = pd.read_csv('/kaggle/input/titanic/train.csv')\nc = pd.read_csv('../input/train.csv')\nd = pd.read_csv('other.csv')");
  });

  it('rewrites a path variable assigned once in another cell than the read', async () => {
    const nb = notebookOf(["import os\nimport pandas as pd\ndata_dir = '../data/raw'\ntrain_filename = os.path.join(data_dir, 'train.csv')", 'train_df = pd.read_csv(train_filename)']);
    const res = await fixNotebook(nb, { dataFiles: ['train.csv'] });
    assert.equal(src(res.notebook, 0), "import os\nimport pandas as pd\ndata_dir = '../data/raw'\ntrain_filename = '../input/train.csv'");
    assert.deepEqual(res.changes.map((c) => c.cell), [0]);
  });

  it('rewrites f-strings and os.path.join with a directory variable', async () => {
    const code = "import os\nimport pandas as pd\nD = get_dir()\na = pd.read_csv(f'{D}/train.csv')\nb = pd.read_csv(os.path.join(D, 'test.csv'))";
    const { out } = await fixSource(code, { dataFiles: ['train.csv', 'test.csv'] });
    assert.equal(out, "import os\nimport pandas as pd\nD = get_dir()\na = pd.read_csv('../input/train.csv')\nb = pd.read_csv('../input/test.csv')");
  });
});

describe('rulesForError', () => {
  it('proposes the rules whose error signature matches the failing cell', async () => {
    const nb = notebookOf(['import numpy as np', 'x = np.float(3)\ny = np.NaN']);
    const patches = await rulesForError(nb, 1, { ename: 'AttributeError', evalue: "module 'numpy' has no attribute 'float'.\n`np.float` was a deprecated alias" });
    assert.ok(patches.length >= 1);
    assert.deepEqual(patches[0].source, { kind: 'rule', ruleIds: ['numpy-builtin-type-aliases'] });
    assert.equal((patches[0].edits[0] as any).newSource, 'x = float(3)\ny = np.NaN');
    // The second candidate applies every static rule to the cell.
    assert.equal((patches.at(-1)!.edits[0] as any).newSource, 'x = float(3)\ny = np.nan');
  });

  it('repairs a boolean flag where the estimator is built, a cell above the fit that raises', async () => {
    const nb = notebookOf(['from sklearn.preprocessing import StandardScaler\nsc = StandardScaler(with_mean=0.0)', 'sc.fit([[1.0], [2.0]])']);
    const error = { ename: 'InvalidParameterError', evalue: "The 'with_mean' parameter of StandardScaler must be an instance of 'bool' or an instance of 'numpy.bool'. Got 0.0 instead." };
    const patches = await rulesForError(nb, 1, error, { runtime: { failingCell: 1, ...error, traceback: [], frames: [{ cell: 1, line: 1 }], types: {} } });
    assert.deepEqual(patches[0].source, { kind: 'rule', ruleIds: ['sklearn-bool-parameter-truthy'] });
    assert.deepEqual(patches[0].edits, [{ cell: 0, op: 'replace', newSource: 'from sklearn.preprocessing import StandardScaler\nsc = StandardScaler(with_mean=False)' }]);
  });

  it('includes rules that are only recognised from runtime errors', async () => {
    const nb = notebookOf(['from scipy.sparse import csr_matrix\nX = csr_matrix([[1, 0]])\nprint(X.A.sum())']);
    assert.deepEqual(await scanNotebook(nb), []);
    const patches = await rulesForError(nb, 0, { ename: 'AttributeError', evalue: "'csr_matrix' object has no attribute 'A'" });
    assert.deepEqual(patches[0].source, { kind: 'rule', ruleIds: ['scipy-sparse-toarray'] });
    assert.equal((patches[0].edits[0] as any).newSource, 'from scipy.sparse import csr_matrix\nX = csr_matrix([[1, 0]])\nprint(X.toarray().sum())');
  });

  it('fixes reductions over mixed-type frames statically and for the matching error', async () => {
    const nb = notebookOf(["import pandas as pd\ndf = pd.read_csv('x.csv')\nm = df.groupby('k').mean()\nc = df.corr()"]);
    assert.deepEqual((await scanNotebook(nb)).map((f) => f.ruleId), ['pandas-numeric-only', 'pandas-numeric-only']);
    const patches = await rulesForError(nb, 0, { ename: 'ValueError', evalue: "could not convert string to float: 'RL'" });
    assert.deepEqual(patches[0].source, { kind: 'rule', ruleIds: ['pandas-numeric-only'] });
    assert.match((patches[0].edits[0] as any).newSource, /mean\(numeric_only=True\)\nc = df\.corr\(numeric_only=True\)/);
  });

  it('repairs every call of the class a validation error names, in any cell, as one patch', async () => {
    const nb = notebookOf([
      'from sklearn.linear_model import ElasticNetCV, LassoCV\nenet = ElasticNetCV(max_iter=1e7, cv=3)\nlasso = LassoCV(max_iter=1e6)',
      "grid = {'max_iter': [1e3, 2e3]}",
      'model = enet.fit(X, y)',
      'enet2 = ElasticNetCV(max_iter=5e6, l1_ratio=[0.5, 1.0])',
    ]);
    const evalue = "The 'max_iter' parameter of ElasticNetCV must be an int in the range [1, inf). Got 10000000.0 instead.";
    const runtime = { failingCell: 2, ename: 'InvalidParameterError', evalue, traceback: [], frames: [{ cell: 2, line: 1 }], types: {} };
    const patches = await rulesForError(nb, 2, { ename: 'InvalidParameterError', evalue }, { runtime });
    assert.deepEqual(patches[0].source, { kind: 'rule', ruleIds: ['sklearn-integral-float-parameter'] });
    // ElasticNetCV's calls in cells 0 and 3; not LassoCV's (another class: its own error says so), not a grid away from the traceback.
    assert.deepEqual(patches[0].edits.map((e: any) => [e.cell, e.newSource]), [
      [0, 'from sklearn.linear_model import ElasticNetCV, LassoCV\nenet = ElasticNetCV(max_iter=10000000, cv=3)\nlasso = LassoCV(max_iter=1e6)'],
      [3, 'enet2 = ElasticNetCV(max_iter=5000000, l1_ratio=[0.5, 1.0])'],
    ]);
  });

  it('maps a SyntaxError to the Python 2 syntax rules', async () => {
    const nb = notebookOf(['print "hi"']);
    const patches = await rulesForError(nb, 0, { ename: 'SyntaxError', evalue: "Missing parentheses in call to 'print'. Did you mean print(...)?" });
    assert.equal((patches[0].edits[0] as any).newSource, 'print("hi")');
  });

  it('returns nothing when no rule applies', async () => {
    assert.deepEqual(await rulesForError(notebookOf(['x = 1']), 0, { ename: 'ValueError', evalue: 'boom' }), []);
  });
});

describe('pinDefaults (score calibration)', () => {
  const code = 'from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(random_state=0)';

  it('pins old defaults when the era is known', async () => {
    const patches = await pinDefaults(notebookOf([code]), { era: { date: '2017-05-01' } });
    assert.equal(patches.length, 1);
    assert.equal(patches[0].fixType, 'score-calibration');
    assert.equal((patches[0].edits[0] as any).newSource, 'from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(random_state=0, n_estimators=10)');
  });

  it('does nothing when the era is unknown or after the change', async () => {
    assert.deepEqual(await pinDefaults(notebookOf([code])), []);
    assert.deepEqual(await pinDefaults(notebookOf([code]), { era: { date: '2021-01-01' } }), []);
  });

  it('infers the era from removed APIs and from the Python version', async () => {
    const withOld = notebookOf(['from sklearn.cross_validation import train_test_split\n' + code]);
    assert.equal((await pinDefaults(withOld)).length, 1);
    const py2 = notebookOf([code], { pythonMajor: 2 });
    assert.equal((await pinDefaults(py2)).length, 1);
  });

  it('is not applied by fixNotebook unless asked', async () => {
    const res = await fixNotebook(notebookOf([code]), { era: { date: '2017-05-01' } });
    assert.deepEqual(res.changes, []);
    const pinned = await fixNotebook(notebookOf([code]), { era: { date: '2017-05-01' }, kinds: ['error-repair', 'score-calibration'] });
    assert.equal((pinned.notebook.cells[0].metadata as any).nbmodernize.fixType, 'score-calibration');
  });
});

describe('version gating', () => {
  it('skips rules the environment has not reached', async () => {
    const nb = notebookOf(['import numpy as np\nx = np.NaN\ny = np.float(1)']);
    const old = await scanNotebook(nb, { versions: { numpy: '1.26.4' } });
    assert.deepEqual(old.map((f) => f.ruleId), ['numpy-builtin-type-aliases']);
    const now = await scanNotebook(nb);
    assert.deepEqual(now.map((f) => f.ruleId).sort(), ['numpy-builtin-type-aliases', 'numpy-nan-aliases']);
  });
});

describe('rule dispatch gates', () => {
  /** A rule that records the cells it ran on and reports string literals `'mse'`, print statements and identifiers `kf`. */
  const probe = (gate: RuleGate, triggers?: string[]) => {
    const ran: number[] = [];
    const r = rule({
      id: 'test-probe', library: 'python', title: 'probe', old: 'a', new: 'b', link: 'https://example.org', fixtures: [],
      gate, ...(triggers ? { triggers } : {}),
      *find(ctx: CellContext) {
        ran.push(ctx.index);
        for (const s of ctx.nodes('string')) if (stringValue(s) === 'mse') yield { node: s };
        for (const p of ctx.nodes('print_statement')) yield { node: p };
        for (const id of ctx.identifiers('kf')) yield { node: id };
      },
    });
    return { r, ran };
  };
  const cellsOf = async (cells: string[], p: ReturnType<typeof probe>) => {
    const found = await scanNotebook(notebookOf(cells), { rules: [p.r] });
    return { found: found.map((f) => f.cell), ran: p.ran };
  };

  it('runs a literal-gated rule only where the value is written as a string, also with escapes around', async () => {
    const p = probe({ literals: ['mse'] });
    const cells = ["grid = {'criterion': ['mse']}", 'mse = 1', "mse = 'a\\n'", 'print("x\\t", """mse""")'];
    assert.deepEqual(await cellsOf(cells, p), { found: [0, 3], ran: [0, 3] });
  });

  it('runs a node-type-gated rule only on cells with such a node', async () => {
    const p = probe({ nodeTypes: ['print_statement'] });
    assert.deepEqual(await cellsOf(['print "a"', 'print("b")'], p), { found: [0], ran: [0] });
  });

  it('runs a source-gated rule only where the text occurs', async () => {
    const p = probe({ source: ['mse'] });
    assert.deepEqual(await cellsOf(["x = 'mse'", 'y = 2'], p), { found: [0], ran: [0] });
  });

  it('runs a rule with notebook triggers on the cells that use those names, and its triggers still count', async () => {
    const p = probe({ notebookTriggers: () => ['kf'] }, ['KFold']);
    const cells = ['kf = make()', 'for a in kf: pass', 'x = 1', 'KFold'];
    assert.deepEqual(await cellsOf(cells, p), { found: [0, 1], ran: [0, 1, 3] });
  });

  it('finds with the gates what running every rule on every cell finds', async () => {
    const cells = ['print "a"', "from sklearn.ensemble import GradientBoostingRegressor as G\nm = G(loss='ls')", "p = {'max_features': ['auto']}", 'x = `y`', "s = ur'x'\nreturn_url = 1"];
    const gated = await scanNotebook(notebookOf(cells));
    const everywhere = await scanNotebook(notebookOf(cells), { rules: ALL_RULES.map(({ triggers: _t, gate: _g, ...r }) => r) });
    assert.deepEqual(gated, everywhere);
    assert.ok(gated.length >= 5);
  });
});

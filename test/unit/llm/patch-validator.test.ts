import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatchEdits, contentProblems, syntaxProblems, validatePatch, validationReflection } from '../../../src/fixers/llm/patch-validator.js';
import type { CellEdit, Patch } from '../../../src/core/patch.js';
import { makeNotebook } from '../context/fixtures.js';

const NB = makeNotebook([
  { md: '# Titanic' }, // 0
  "import pandas as pd\n!pip install xgboost\ntrain = pd.read_csv('../input/train.csv')", // 1
  'X = train[["Pclass"]].as_matrix()\ny = train["Survived"]\nX = X', // 2
  'best_score = 0\nfor d in [2, 4]:\n    best_score = max(best_score, d)', // 3
]);

function patch(edits: CellEdit[]): Patch {
  return { fixType: 'error-repair', source: { kind: 'llm', model: 'm', provider: 'p' }, edits, summary: 's' };
}

async function kinds(edits: CellEdit[], opts = {}): Promise<string[]> {
  return (await validatePatch(patch(edits), NB, opts)).problems.map((p) => p.kind);
}

test('a good whole-cell patch passes and returns the new source', async () => {
  const r = await validatePatch(patch([{ cell: 2, op: 'replace', newSource: 'X = train[["Pclass"]].to_numpy()\ny = train["Survived"]' }]), NB, { allowedCells: [2] });
  assert.equal(r.ok, true, r.reasons.join('\n'));
  assert.equal(r.newSources.get(2), 'X = train[["Pclass"]].to_numpy()\ny = train["Survived"]');
});

test('search/replace applies exactly once; loose match ignores trailing spaces; ambiguity and misses are reported', () => {
  const good = applyPatchEdits(NB, [{ cell: 2, op: 'search-replace', search: '.as_matrix()', replace: '.to_numpy()' }]);
  assert.deepEqual(good.problems, []);
  assert.equal(good.sources.get(2), 'X = train[["Pclass"]].to_numpy()\ny = train["Survived"]\nX = X');
  const loose = applyPatchEdits(NB, [{ cell: 2, op: 'search-replace', search: 'y = train["Survived"]   \n', replace: 'y = train.Survived' }]);
  assert.deepEqual(loose.problems, []);
  assert.equal(loose.sources.get(2), 'X = train[["Pclass"]].as_matrix()\ny = train.Survived\nX = X');
  const amb = applyPatchEdits(NB, [{ cell: 2, op: 'search-replace', search: 'X = ', replace: 'Z = ' }]);
  assert.equal(amb.problems[0]!.kind, 'search-ambiguous');
  assert.match(amb.problems[0]!.message, /occurs 2 times/);
  const miss = applyPatchEdits(NB, [{ cell: 2, op: 'search-replace', search: 'X = train[["Pclass"]].values', replace: 'x' }]);
  assert.equal(miss.problems[0]!.kind, 'search-not-found');
  assert.match(miss.problems[0]!.message, /closest line: "X = train\[\[\\"Pclass\\"\]\]\.as_matrix\(\)"/);
  // Sequential edits on one cell see each other's result.
  const seq = applyPatchEdits(NB, [
    { cell: 2, op: 'search-replace', search: 'as_matrix', replace: 'to_numpy' },
    { cell: 2, op: 'search-replace', search: 'to_numpy()', replace: 'values' },
  ]);
  assert.equal(seq.sources.get(2)!.split('\n')[0], 'X = train[["Pclass"]].values');
});

test('cells: unknown, markdown, not allowed, unchanged, empty patch', async () => {
  assert.deepEqual(await kinds([{ cell: 9, op: 'replace', newSource: 'x' }]), ['unknown-cell']);
  assert.deepEqual(await kinds([{ cell: 0, op: 'replace', newSource: 'x = 1' }]), ['not-code-cell']);
  assert.deepEqual(await kinds([{ cell: 1, op: 'replace', newSource: 'import pandas as pd' }], { allowedCells: [2] }), ['cell-not-allowed']);
  assert.deepEqual(await kinds([{ cell: 3, op: 'replace', newSource: 'best_score = 0\nfor d in [2, 4]:\n    best_score = max(best_score, d)' }]), ['no-change']);
  assert.deepEqual(await kinds([]), ['empty-patch']);
});

test('syntax: tree-sitter errors, missing tokens and Python 2 constructs, with magics masked', async () => {
  assert.deepEqual(await syntaxProblems('%matplotlib inline\n!ls\nx = 1\nif x:\n    %time y = 2\n'), []);
  const broken = await syntaxProblems('def f(:\n    pass\n');
  assert.equal(broken[0]!.kind, 'syntax');
  assert.match(broken[0]!.message, /line 1: missing "\)"/);
  assert.match((await syntaxProblems('x = (1,\ny = 2\n'))[0]!.message, /invalid syntax/);
  const py2 = await syntaxProblems('print "a"\nexec "x=1"\ntry:\n    pass\nexcept ValueError, e:\n    pass\nraise E, "m"\nif a <> b: pass\nn = 0777\nm = 10L\ns = ur"x"\nok = 0o777\nz = 0\n');
  assert.deepEqual(py2.map((p) => [p.kind, p.line]), [
    ['python2', 1], ['python2', 2], ['python2', 5], ['python2', 7], ['python2', 8], ['python2', 9], ['python2', 10], ['python2', 11],
  ]);
});

test('content policy looks only at added lines: install, network, forbidden paths', async () => {
  // The author's `!pip install` line kept as is is not the patch's doing.
  assert.deepEqual(await contentProblems(String(NB.cells[1]!.source), String(NB.cells[1]!.source) + '\ntrain = train.dropna()', 1), []);
  const k = async (src: string, forbidden: string[] = []): Promise<string[]> => (await contentProblems('x = 1', src, 1, forbidden)).map((p) => p.kind);
  assert.deepEqual(await k('!pip install lightgbm'), ['install']);
  assert.deepEqual(await k('%pip install lightgbm'), ['install']);
  assert.deepEqual(await k("import os\nos.system('pip install lightgbm')"), ['install']);
  assert.deepEqual(await k('!wget https://example.com/train.csv'), ['network']);
  assert.deepEqual(await k('import requests'), ['network']);
  assert.deepEqual(await k('from urllib.request import urlopen'), ['network']);
  assert.deepEqual(await k("df = pd.read_csv('https://example.com/train.csv')"), ['network']);
  assert.deepEqual(await k("from sklearn.datasets import fetch_openml\nd = fetch_openml('titanic')"), ['network']);
  assert.deepEqual(await k("nltk.download('punkt')"), ['network']);
  assert.deepEqual(await k("y = pd.read_csv('/data/titanic/ground_truth/test_labels_derived_from_titanic3.csv')", ['/data/titanic/ground_truth/test_labels_derived_from_titanic3.csv']), ['forbidden-path']);
  assert.deepEqual(await k("y = pd.read_csv('answers.csv')", ['/secret/answers.csv']), ['forbidden-path']);
  assert.deepEqual(await k("y = pd.read_csv('../input/titanic3.csv')"), ['forbidden-path']);
  assert.deepEqual(await k("# we do not read ground_truth files\ndf = pd.read_csv('../input/test.csv')"), []);
});

test('content policy: hard-coded scores and predictions, not initial values', async () => {
  const k = async (src: string): Promise<string[]> => (await contentProblems('pass', src, 3)).map((p) => p.kind);
  assert.deepEqual(await k('acc_log = 81.03'), ['hard-coded-score']);
  assert.deepEqual(await k('accuracy = round(0.8103, 4)'), ['hard-coded-score']);
  assert.deepEqual(await k("results['auc'] = 0.87"), ['hard-coded-score']);
  assert.deepEqual(await k("scores = {'rmse': 0.1234}"), ['hard-coded-score']);
  assert.deepEqual(await k("print('Validation accuracy:', 0.8103)"), ['hard-coded-score']);
  assert.deepEqual(await k('best_score = 0\nbest_loss = 1e9\nmin_error = 1.0\nscore = model.score(X, y)\nn = 0.5'), []);
  const preds = Array.from({ length: 30 }, (_, i) => i % 2).join(', ');
  assert.deepEqual(await k(`y_pred = [${preds}]`), ['hard-coded-predictions']);
  assert.deepEqual(await k(`submission['Survived'] = np.array([${preds}])`), ['hard-coded-predictions']);
  assert.deepEqual(await k(`grid = {'max_depth': [2, 4, 6, 8]}`), []);
});

test('validatePatch collects every problem and the reflection lists them', async () => {
  const r = await validatePatch(patch([{ cell: 2, op: 'replace', newSource: 'print "x"\n!pip install xgboost\naccuracy = 0.83' }]), NB);
  assert.equal(r.ok, false);
  assert.deepEqual(r.problems.map((p) => p.kind).sort(), ['hard-coded-score', 'install', 'python2']);
  const msg = validationReflection(r);
  assert.match(msg, /^Your patch was rejected/);
  assert.match(msg, /- cell 2: line 1: `print x`/);
  assert.match(msg, /- cell 2: line 2: installs packages/);
});

test('structural edits: a later helper moved up, an insert, a harmless delete pass; each bad one says why', async () => {
  const { patchedOrder, withPatchedSources } = await import('../../../src/fixers/llm/structure.js');
  const nb = makeNotebook([
    { md: '# Doubling' }, // 0
    'import numpy as np', // 1
    { code: 'res = f(np.arange(3))\nprint(res)', outputs: [{ output_type: 'stream', name: 'stdout', text: '[0 2 4]\n' }] }, // 2
    'print("debug", tmp)', // 3
    'def f(x):\n    return x * 2', // 4
    'total = res.sum()', // 5
  ]);
  const v = async (edits: CellEdit[], opts = {}) => validatePatch(patch(edits), nb, opts);
  const kindsOf = async (edits: CellEdit[], opts = {}) => (await v(edits, opts)).problems.map((p) => `${p.kind}@${p.cell}`);

  const move: CellEdit[] = [{ cell: 4, op: 'move', before: 2 }];
  assert.deepEqual(await kindsOf(move), []);
  assert.deepEqual(patchedOrder(nb, undefined, move), [1, 4, 2, 3, 5]);
  assert.deepEqual(patchedOrder(nb, [1, 2, 3, 5, 4], move), [1, 4, 2, 3, 5], 'from the current run order');

  const insert: CellEdit[] = [{ cell: 2, op: 'insert', position: 'before', newSource: 'def f(x):\n    return x * 2' }];
  const ins = await v(insert);
  assert.equal(ins.ok, true, ins.reasons.join('; '));
  assert.equal(ins.newSources.get(6), 'def f(x):\n    return x * 2', 'the new cell is numbered past the last one');
  assert.deepEqual(patchedOrder(nb, undefined, insert), [1, 6, 2, 3, 4, 5]);
  const after = withPatchedSources(nb, ins.newSources, insert);
  assert.equal(after.cells.length, 7);
  assert.equal(after.cells[6]!.cell_type, 'code');

  const del: CellEdit[] = [{ cell: 3, op: 'delete', reason: 'a debug print of a name nothing defines' }];
  const d = await v(del);
  assert.equal(d.ok, true, d.reasons.join('; '));
  assert.equal((withPatchedSources(nb, d.newSources, del).cells[3]!.metadata as any).nbmodernize.deleted, 'a debug print of a name nothing defines');

  // Deleting computation a later cell uses, or results the original printed; no reason; a move past the user.
  const usesNp = await v([{ cell: 1, op: 'delete', reason: 'unused' }]);
  assert.deepEqual(usesNp.problems.map((p) => p.kind), ['bad-delete']);
  assert.match(usesNp.reasons[0]!, /cell 2 uses np, which deleted cell 1 defines/);
  assert.deepEqual(await kindsOf([{ cell: 2, op: 'delete', reason: 'slow' }]), ['bad-delete@2'], 'it printed results');
  assert.deepEqual(await kindsOf([{ cell: 3, op: 'delete', reason: ' ' }]), ['bad-delete@3']);
  const late = await v([{ cell: 1, op: 'move', before: 5 }]);
  assert.match(late.reasons[0]!, /cell 2 uses np, but after this patch it runs before cell 1 that defines it/);
  // Indices and kinds.
  assert.deepEqual(await kindsOf([{ cell: 9, op: 'move', before: 2 }]), ['unknown-cell@9']);
  assert.deepEqual(await kindsOf([{ cell: 0, op: 'move', before: 2 }]), ['not-code-cell@0']);
  assert.deepEqual(await kindsOf([{ cell: 2, op: 'move', before: 2 }]), ['bad-move@2']);
  assert.deepEqual(await kindsOf([{ cell: 99, op: 'insert', position: 'after', newSource: 'x = 1' }]), ['unknown-cell@99']);
  assert.deepEqual(await kindsOf([{ cell: 4, op: 'insert', position: 'after', newSource: 'print x' }]), ['python2@6'], 'a new cell is checked like any other');
  assert.match((await v([{ cell: 4, op: 'insert', position: 'after', newSource: 'print x' }])).reasons[0]!, /^the cell inserted after cell 4: line 1: `print x`/);
  assert.deepEqual(await kindsOf([{ cell: 3, op: 'delete', reason: 'r' }, { cell: 3, op: 'replace', newSource: 'x = 1' }]), ['bad-delete@3']);
  // A move touches the moved cell (allowedCells), not the one it goes before.
  assert.deepEqual(await kindsOf(move, { allowedCells: [2] }), ['cell-not-allowed@4']);
  assert.deepEqual(await kindsOf(move, { allowedCells: [2, 4] }), []);
});

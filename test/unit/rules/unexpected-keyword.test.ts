import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invalidParameterPatches, nameSimilarity, unexpectedKeywordPatches } from '../../../src/fixers/rules/unexpected-keyword.js';
import { notebookOf } from './support.js';

// Signatures in the shape symbol_index.py records (by __qualname__).
const SIGNATURES = {
  'SGDClassifier.__init__': ['loss', 'penalty', 'alpha', 'max_iter', 'tol', 'n_iter_no_change', 'random_state'],
  'Rectangle.set': ['alpha', 'color', 'edgecolor', 'facecolor', 'label'],
  'LinearRegression.__init__': ['fit_intercept', 'copy_X', 'n_jobs', 'positive'],
};
const newSources = (ps: Awaited<ReturnType<typeof unexpectedKeywordPatches>>) => ps.map((p) => (p.patch.edits[0] as any).newSource as string);

describe('unexpectedKeywordPatches', () => {
  it('renames to a similar current parameter first, then drops', async () => {
    const nb = notebookOf(['from sklearn.linear_model import SGDClassifier', 'clf = SGDClassifier(loss="log", n_iter=5, random_state=0)\nclf.fit(X, y)']);
    const ps = await unexpectedKeywordPatches(nb, 1, { ename: 'TypeError', evalue: "SGDClassifier.__init__() got an unexpected keyword argument 'n_iter'" }, SIGNATURES);
    assert.deepEqual(ps.map((p) => p.label), ['n_iter= -> max_iter=', 'n_iter= -> n_iter_no_change=', 'drop n_iter=']);
    assert.deepEqual(newSources(ps).map((s) => s.split('\n')[0]), [
      'clf = SGDClassifier(loss="log", max_iter=5, random_state=0)',
      'clf = SGDClassifier(loss="log", n_iter_no_change=5, random_state=0)',
      'clf = SGDClassifier(loss="log", random_state=0)',
    ]);
  });
  it('a keyword passed down to another callee (DataFrame.plot -> Rectangle.set): the call on the traceback line', async () => {
    const nb = notebookOf(["ax = df.plot(kind='bar', colors=['r', 'b'])\nother(colors=1)"]);
    const ps = await unexpectedKeywordPatches(nb, 0, { ename: 'TypeError', evalue: "Rectangle.set() got an unexpected keyword argument 'colors'" }, SIGNATURES, [{ cell: 0, line: 1 }]);
    assert.deepEqual(newSources(ps), ["ax = df.plot(kind='bar', color=['r', 'b'])\nother(colors=1)", "ax = df.plot(kind='bar')\nother(colors=1)"]);
  });
  it('only a drop when no current parameter is alike; nothing for an unknown callee or another error', async () => {
    const nb = notebookOf(['m = LinearRegression(normalize=True).fit(X, y)']);
    const ps = await unexpectedKeywordPatches(nb, 0, { ename: 'TypeError', evalue: "LinearRegression.__init__() got an unexpected keyword argument 'normalize'" }, SIGNATURES);
    assert.deepEqual(newSources(ps), ['m = LinearRegression().fit(X, y)']);
    assert.deepEqual(await unexpectedKeywordPatches(nb, 0, { ename: 'TypeError', evalue: "Mystery.__init__() got an unexpected keyword argument 'normalize'" }, SIGNATURES), []);
    assert.deepEqual(await unexpectedKeywordPatches(nb, 0, { ename: 'ValueError', evalue: 'x' }, SIGNATURES), []);
  });
  it('a keyword from a dict splatted into the call in a helper: the dict entry is renamed or dropped', async () => {
    const sigs = { ...SIGNATURES, 'GridSearchCV.__init__': ['estimator', 'param_grid', 'scoring', 'n_jobs', 'refit', 'cv', 'verbose'] };
    const nb = notebookOf([
      'def run_model(params):\n    search = GridSearchCV(**params)\n    return search',
      "grid_params = {\n    'estimator': m,\n    'iid': False,\n    'cv': 10\n}\nother = {'iid': 1}\nrun_model(grid_params)",
    ]);
    const err = { ename: 'TypeError', evalue: "GridSearchCV.__init__() got an unexpected keyword argument 'iid'" };
    const frames = [{ cell: 1, line: 7 }, { cell: 0, line: 2 }];
    const ps = await unexpectedKeywordPatches(nb, 1, err, sigs, frames);
    assert.deepEqual(ps.map((p) => p.label), ["drop 'iid' from the dict passed as **kwargs"]);
    // Only the dict that reaches the call (its name is on the traceback's line), not another with the same key.
    assert.equal((ps[0]!.patch.edits[0] as any).newSource, "grid_params = {\n    'estimator': m,\n    'cv': 10\n}\nother = {'iid': 1}\nrun_model(grid_params)");
    // No ** on the traceback's lines: the dict entries are not the call's keywords.
    assert.deepEqual(await unexpectedKeywordPatches(notebookOf(['def run_model(params):\n    return GridSearchCV(m, params)', "p = {'iid': False}\nrun_model(p)"]), 1, err, sigs, [{ cell: 1, line: 2 }, { cell: 0, line: 2 }]), []);
  });
  it('similarity: suffixed, plural, shared last token; unrelated names are not candidates', () => {
    assert.ok(nameSimilarity('sparse', 'sparse_output') > 0);
    assert.ok(nameSimilarity('colors', 'color') > 0);
    assert.ok(nameSimilarity('n_iter', 'max_iter') > nameSimilarity('n_iter', 'n_iter_no_change'));
    assert.equal(nameSimilarity('normalize', 'positive'), 0);
    assert.equal(nameSimilarity('normed', 'density'), 0);
  });
});

describe('invalidParameterPatches', () => {
  const ERR = { ename: 'ValueError', evalue: "Invalid parameter 'base_estimator' for estimator AdaBoostClassifier(estimator=DecisionTreeClassifier()). Valid parameters are: ['algorithm', 'estimator', 'learning_rate', 'n_estimators', 'random_state']." };
  it("renames the old name in grid keys (alone or as a path segment) and set_params keywords, from the message's valid list", async () => {
    const nb = notebookOf([
      "grid = {'base_estimator__max_depth': [1, 2], 'n_estimators': [5], 'ada__base_estimator__criterion': ['gini']}",
      'ada.set_params(base_estimator=tree)\nsearch.fit(X, y)',
    ]);
    const cands = await invalidParameterPatches(nb, 1, ERR);
    assert.deepEqual(cands.map((c) => c.label), ['parameter base_estimator -> estimator']);
    assert.deepEqual(cands[0]!.patch.edits.map((e: any) => e.newSource), [
      "grid = {'estimator__max_depth': [1, 2], 'n_estimators': [5], 'ada__estimator__criterion': ['gini']}",
      'ada.set_params(estimator=tree)\nsearch.fit(X, y)',
    ]);
  });
  it('nothing for another message or when the notebook never spells the name', async () => {
    assert.deepEqual(await invalidParameterPatches(notebookOf(['x = 1']), 0, ERR), []);
    assert.deepEqual(await invalidParameterPatches(notebookOf(["g = {'base_estimator__d': [1]}"]), 0, { ename: 'ValueError', evalue: 'other' }), []);
  });
});

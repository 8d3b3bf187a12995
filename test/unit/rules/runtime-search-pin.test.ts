import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Notebook } from '../../../src/core/notebook.js';
import { printedValues, searchPinPatch, storedResultText } from '../../../src/fixers/rules/runtime-search-pin.js';
import { notebookOf } from './support.js';

/** The notebook with stored outputs: stdout text or an execute_result's text/plain per cell. */
function withOutputs(nb: Notebook, outs: Record<number, { stdout?: string; result?: string; stderr?: string }>): Notebook {
  const copy: Notebook = JSON.parse(JSON.stringify(nb));
  for (const [i, o] of Object.entries(outs)) {
    const cell = copy.cells[Number(i)] as any;
    cell.outputs = [
      ...(o.stdout ? [{ output_type: 'stream', name: 'stdout', text: o.stdout }] : []),
      ...(o.stderr ? [{ output_type: 'stream', name: 'stderr', text: o.stderr }] : []),
      ...(o.result ? [{ output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': o.result } }] : []),
    ];
  }
  return copy;
}

const sources = (p: Awaited<ReturnType<typeof searchPinPatch>>) => p?.edits.map((e: any) => [e.cell, e.newSource]);

describe('searchPinPatch (sklearn-search-pin-stored-best)', () => {
  it("a grid bound to a name, given to GridSearchCV, best_params_ printed by the next cell: the search receives the grid with each key's printed value, in the author's spelling; the name keeps the author's grid", async () => {
    const cells = [
      "params = {'C': [1, 10, 100], 'kernel': ['linear', 'rbf'], 'gamma': [0.001, 0.0001]}\nsearch = GridSearchCV(SVC(), params, cv=10)\nsearch.fit(X, y)",
      'search.best_params_',
      'print(search.best_score_)',
    ];
    const original = withOutputs(notebookOf(cells), { 1: { result: "{'C': 10, 'gamma': 0.001, 'kernel': 'rbf'}" }, 2: { stdout: '0.8123\n' } });
    const p = await searchPinPatch(notebookOf(cells), original, 0);
    assert.ok(p);
    assert.equal(p.fixType, 'runtime-reduction');
    assert.deepEqual(p.source, { kind: 'rule', ruleIds: ['sklearn-search-pin-stored-best'] });
    assert.deepEqual(sources(p), [[0, "params = {'C': [1, 10, 100], 'kernel': ['linear', 'rbf'], 'gamma': [0.001, 0.0001]}\nsearch = GridSearchCV(SVC(), {'C': [10], 'kernel': ['rbf'], 'gamma': [0.001]}, cv=10)\nsearch.fit(X, y)"]]);
    assert.match(p.summary, /12 -> 1/);
  });

  it("a best_estimator_ repr (key=value) pins a computed grid to the printed value; a SearchCV repr's base-estimator defaults are not evidence", async () => {
    const cells = [
      "hyper = {'n_estimators': list(range(100, 1100, 100)), 'learning_rate': [0.05, 0.2, 0.6]}\ngd = GridSearchCV(estimator=AdaBoostClassifier(), param_grid=hyper, cv=10)\ngd.fit(X, y)\nprint(gd.best_score_)\nprint(gd.best_estimator_)",
    ];
    const original = withOutputs(notebookOf(cells), { 0: { stdout: "0.817\nAdaBoostClassifier(algorithm='SAMME.R', base_estimator=None,\n          learning_rate=0.6, n_estimators=400, random_state=None)\n", result: 'GridSearchCV(cv=10, estimator=AdaBoostClassifier(learning_rate=1.0, n_estimators=50))' } });
    const p = await searchPinPatch(notebookOf(cells), original, 0);
    assert.deepEqual(sources(p), [[0, "hyper = {'n_estimators': list(range(100, 1100, 100)), 'learning_rate': [0.05, 0.2, 0.6]}\ngd = GridSearchCV(estimator=AdaBoostClassifier(), param_grid={'n_estimators': [400], 'learning_rate': [0.6]}, cv=10)\ngd.fit(X, y)\nprint(gd.best_score_)\nprint(gd.best_estimator_)"]]);
  });

  it('a grid literal handed to a notebook function that runs the search (defined in an earlier cell), np.logspace printed in the old float repr (written as the same float, shortest form)', async () => {
    const cells = [
      'def train_test_model(model, grid, X, y):\n    s = GridSearchCV(model, grid, cv=5)\n    s.fit(X, y)\n    print("Optimized parameters:", s.best_params_)\n    return s',
      "svc = train_test_model(SVC(random_state=0), {'C': [0.01, 0.1, 1, 10], 'gamma': np.logspace(-9, 3, 13), 'kernel': ['rbf', 'linear']}, X, y)",
    ];
    const original = withOutputs(notebookOf(cells), { 1: { stdout: "Optimized parameters: {'C': 1, 'gamma': 0.10000000000000001, 'kernel': 'rbf'}\nModel accuracy: 80.00%\n" } });
    const p = await searchPinPatch(notebookOf(cells), original, 1);
    assert.deepEqual(sources(p), [[1, "svc = train_test_model(SVC(random_state=0), {'C': [1], 'gamma': [0.1], 'kernel': ['rbf']}, X, y)"]]);
  });

  it('a grid inside a function defined in an earlier cell, which the slow cell calls; the result shown as the cell value', async () => {
    const cells = [
      "def best_param_selection(X, y, nfolds):\n    param_grid = {'C': [1, 10], 'gamma': [0.1, 1]}\n    grid_search = GridSearchCV(SVC(kernel='rbf'), param_grid, cv=nfolds)\n    grid_search.fit(X, y)\n    return grid_search.best_params_",
      'best_param_selection(X_train, y_train, 10)',
    ];
    const original = withOutputs(notebookOf(cells), { 1: { result: "{'C': 1, 'gamma': 0.1}" } });
    const p = await searchPinPatch(notebookOf(cells), original, 1);
    assert.deepEqual(sources(p), [[0, "def best_param_selection(X, y, nfolds):\n    param_grid = {'C': [1, 10], 'gamma': [0.1, 1]}\n    grid_search = GridSearchCV(SVC(kernel='rbf'), {'C': [1], 'gamma': [0.1]}, cv=nfolds)\n    grid_search.fit(X, y)\n    return grid_search.best_params_"]]);
  });

  it("a grid value a rule rewrote ('auto' -> 1.0, scikit-learn 1.3): the author's value printed still picks its element, kept as rewritten", async () => {
    const author = ["params = {'n_estimators': [300, 400], 'max_features': ['auto', 'sqrt', 'log2']}\nrf = GridSearchCV(RandomForestRegressor(), param_grid=params)\nrf.fit(X, y)", 'rf.best_params_'];
    const now = ["params = {'n_estimators': [300, 400], 'max_features': [1.0, 'sqrt', 'log2']}\nrf = GridSearchCV(RandomForestRegressor(), param_grid=params)\nrf.fit(X, y)", 'rf.best_params_'];
    const original = withOutputs(notebookOf(author), { 1: { result: "{'max_features': 'auto', 'n_estimators': 300}" } });
    const p = await searchPinPatch(notebookOf(now), original, 0);
    assert.deepEqual(sources(p), [[0, "params = {'n_estimators': [300, 400], 'max_features': [1.0, 'sqrt', 'log2']}\nrf = GridSearchCV(RandomForestRegressor(), param_grid={'n_estimators': [300], 'max_features': [1.0]})\nrf.fit(X, y)"]]);
    // Without the author's cell to align with (the same source), 'auto' is in no list: no evidence for that key.
    assert.equal(await searchPinPatch(notebookOf(now), withOutputs(notebookOf(now), { 1: { result: "{'max_features': 'auto', 'n_estimators': 300}" } }), 0), undefined);
  });

  it('a ranked report of several candidates keeps every printed value of each key (the top candidates stay in the grid)', async () => {
    const cells = ["grid = {'max_depth': [1, 2, 4, None], 'n_estimators': [30, 50, 100]}\ngs = GridSearchCV(clf, param_grid=grid)\ngs.fit(X, y)\nreport(gs.cv_results_)"];
    const original = withOutputs(notebookOf(cells), { 0: { stdout: "Model with rank: 1\nParameters: {'max_depth': None, 'n_estimators': 100}\nModel with rank: 2\nParameters: {'max_depth': 4, 'n_estimators': 100}\n" } });
    const p = await searchPinPatch(notebookOf(cells), original, 0);
    assert.deepEqual(sources(p), [[0, "grid = {'max_depth': [1, 2, 4, None], 'n_estimators': [30, 50, 100]}\ngs = GridSearchCV(clf, param_grid={'max_depth': [4, None], 'n_estimators': [100]})\ngs.fit(X, y)\nreport(gs.cv_results_)"]]);
  });

  it('a list of grids: the grids the evidence covers are kept (pinned), the others not run', async () => {
    const cells = ["Cs = [1, 10, 100]\ngrid = [{'kernel': ['rbf', 'linear'], 'C': Cs}, {'kernel': ['poly'], 'C': Cs, 'degree': [3, 4, 5]}]\nsvm = GridSearchCV(SVC(), grid, cv=5)\nsvm.fit(X, y)", 'print(svm.best_params_)'];
    const original = withOutputs(notebookOf(cells), { 1: { stdout: "{'C': 10, 'kernel': 'rbf'}\n" } });
    const p = await searchPinPatch(notebookOf(cells), original, 0);
    assert.deepEqual(sources(p), [[0, "Cs = [1, 10, 100]\ngrid = [{'kernel': ['rbf', 'linear'], 'C': Cs}, {'kernel': ['poly'], 'C': Cs, 'degree': [3, 4, 5]}]\nsvm = GridSearchCV(SVC(), [{'kernel': ['rbf'], 'C': [10]}], cv=5)\nsvm.fit(X, y)"]]);
  });

  it("a search built in an earlier cell and fitted in the slow cell; a verbose log's [CV] lines (every candidate tried) are not evidence; a computed grid's size is unknown", async () => {
    const cells = [
      "Cs = [1, 10, 100, 1000]\nsvm = GridSearchCV(SVC(), {'kernel': ['rbf', 'linear'], 'C': Cs}, cv=5, verbose=3)",
      'svm.fit(X, y)',
      'svm.best_params_',
    ];
    const original = withOutputs(notebookOf(cells), {
      1: { stdout: '[CV] kernel=rbf, C=1 ....\n[CV] ..... kernel=linear, C=10, score=0.62, total=   8.7s\n' },
      2: { result: "{'C': 1000, 'kernel': 'rbf'}" },
    });
    const p = await searchPinPatch(notebookOf(cells), original, 1);
    assert.deepEqual(sources(p), [[0, "Cs = [1, 10, 100, 1000]\nsvm = GridSearchCV(SVC(), {'kernel': ['rbf'], 'C': [1000]}, cv=5, verbose=3)"]]);
    assert.match(p!.summary, /candidates \? -> 1; in cells 0/);
  });

  it('no patch: a key nothing printed, a printed value not in the grid, a dict no search receives, or another search’s output', async () => {
    const search = "grid = {'C': [1, 10], 'gamma': [0.1, 1]}\ns = GridSearchCV(SVC(), grid).fit(X, y)";
    // gamma never printed
    assert.equal(await searchPinPatch(notebookOf([search]), withOutputs(notebookOf([search]), { 0: { stdout: "best C: {'C': 10}\n" } }), 0), undefined);
    // a value outside the grid
    assert.equal(await searchPinPatch(notebookOf([search]), withOutputs(notebookOf([search]), { 0: { stdout: "{'C': 5, 'gamma': 0.1}\n" } }), 0), undefined);
    // not a grid: a frame's columns
    const frame = ["sub = pd.DataFrame({'PassengerId': ids, 'Survived': [0, 1]})\nsub.to_csv('s.csv')"];
    assert.equal(await searchPinPatch(notebookOf(frame), withOutputs(notebookOf(frame), { 0: { stdout: "{'PassengerId': 1, 'Survived': 0}\n" } }), 0), undefined);
    // the next cell runs another search: its printed parameters are not this one's
    const two = [search, "grid2 = {'C': [1, 10], 'gamma': [0.1, 1]}\ns2 = GridSearchCV(LinearSVC(), grid2).fit(X, y)\nprint(s2.best_params_)"];
    assert.equal(await searchPinPatch(notebookOf(two), withOutputs(notebookOf(two), { 1: { stdout: "{'C': 10, 'gamma': 0.1}\n" } }), 0), undefined);
    // stderr is not evidence
    assert.equal(await searchPinPatch(notebookOf([search]), withOutputs(notebookOf([search]), { 0: { stderr: "{'C': 10, 'gamma': 0.1}\n" } }), 0), undefined);
  });

  it('printedValues reads dict and keyword forms, numpy-wrapped scalars, and not a longer key that ends the same', () => {
    assert.deepEqual(printedValues("{'C': np.float64(0.5), 'kernel': 'rbf'}", 'C'), [{ kind: 'num', v: 0.5 }]);
    assert.deepEqual(printedValues('SVC(C=10, kernel="rbf")', 'kernel'), [{ kind: 'str', v: 'rbf' }]);
    assert.deepEqual(printedValues('LogisticRegression(max_C=3)', 'C'), []);
    assert.deepEqual(printedValues("{'max_depth': None}", 'max_depth'), [{ kind: 'const', v: 'None' }]);
    assert.equal(storedResultText(withOutputs(notebookOf(['x']), { 0: { result: 'GridSearchCV(estimator=SVC(C=1.0))' } }).cells[0]), '');
  });

  it('a loop over a list of model descriptions, one search each (the tutorial idiom): every grid pinned in place by the printed best parameters, tuples and dicts included; a grid without evidence for every key is left whole, none is dropped', async () => {
    const cells = [
      [
        'def select_model(X, y):',
        '    models = [',
        '        {"name": "LogisticRegression", "estimator": LogisticRegression(),',
        '         "hyperparameters": {"solver": ["newton-cg", "lbfgs"], "class_weight": ["balanced", None, {0: 2, 1: 3}]}},',
        '        {"name": "MLPClassifier", "estimator": MLPClassifier(),',
        '         "hyperparameters": {"hidden_layer_sizes": [(100,), (19,), (19, 2)], "activation": ["relu", "logistic"]}},',
        '        {"name": "DecisionTree", "estimator": DecisionTreeRegressor(),',
        '         "hyperparameters": {"criterion": ["squared_error", "friedman_mse"], "max_depth": [7, 9]}},',
        '    ]',
        '    for model in models:',
        '        grid = GridSearchCV(model["estimator"], param_grid=model["hyperparameters"], cv=10)',
        '        grid.fit(X, y)',
        '        print("Best Parameters: {}".format(grid.best_params_))',
        '    return models',
        'result = select_model(X, y)',
      ].join('\n'),
    ];
    const printed = [
      "Best Parameters: {'class_weight': {0: 2, 1: 3}, 'solver': 'newton-cg'}",
      "Best Parameters: {'activation': 'relu', 'hidden_layer_sizes': (19,)}",
      "Best Parameters: {'criterion': 'mse', 'max_depth': 7}",
    ].join('\n\n');
    const p = await searchPinPatch(notebookOf(cells), withOutputs(notebookOf(cells), { 0: { stdout: printed } }), 0);
    assert.ok(p);
    const out = sources(p)![0]![1] as string;
    assert.match(out, /"hyperparameters": \{"solver": \["newton-cg"\], "class_weight": \[\{0: 2, 1: 3\}\]\}/);
    assert.match(out, /"hyperparameters": \{"hidden_layer_sizes": \[\(19,\)\], "activation": \["relu"\]\}/);
    // 'mse' is not among the (renamed) criteria: that grid keeps all its candidates.
    assert.match(out, /"hyperparameters": \{"criterion": \["squared_error", "friedman_mse"\], "max_depth": \[7, 9\]\}/);
    assert.match(out, /param_grid=model\["hyperparameters"\]/, 'the loop itself is unchanged');
    assert.match(p.summary, /6 -> 1, 6 -> 1/);
  });

  it('a loop whose grid is read into a name first (params = spec["params"]), the model list bound at top level in an earlier cell', async () => {
    const cells = [
      "specs = [{'estimator': SVC(), 'params': {'C': [0.1, 1, 10]}}, {'estimator': KNeighborsClassifier(), 'params': {'n_neighbors': [3, 5, 7]}}]",
      "for spec in specs:\n    params = spec['params']\n    clf = GridSearchCV(estimator=spec['estimator'], param_grid=params)\n    clf.fit(X, y)\n    print(clf.best_params_)",
    ];
    const p = await searchPinPatch(notebookOf(cells), withOutputs(notebookOf(cells), { 1: { stdout: "{'C': 1}\n{'n_neighbors': 5}\n" } }), 1);
    assert.deepEqual(sources(p), [[0, "specs = [{'estimator': SVC(), 'params': {'C': [1]}}, {'estimator': KNeighborsClassifier(), 'params': {'n_neighbors': [5]}}]"]]);
  });

  it('best_params_ read back several cells after the search (a prediction and a score between) is evidence; another search in between ends it', async () => {
    const cells = [
      "parameters = {'learning_rate': [.03, 0.05, .07], 'max_depth': [4, 5, 6]}",
      'xgb_grid = GridSearchCV(XGBClassifier(), parameters, n_jobs=-1)',
      'xgb_grid.fit(X, y)',
      'best = xgb_grid.best_estimator_.n_estimators',
      'y_pred = xgb_grid.predict(X_test)',
      'from sklearn.metrics import accuracy_score',
      'accuracy_score(y_test, y_pred)',
      'print(len(y_pred))',
      'xgb_grid.best_params_',
    ];
    const outs = { 6: { result: '0.92' }, 7: { stdout: '223\n' }, 8: { result: "{'learning_rate': 0.07, 'max_depth': 4}" } };
    const p = await searchPinPatch(notebookOf(cells), withOutputs(notebookOf(cells), outs), 2);
    assert.deepEqual(sources(p), [[1, "xgb_grid = GridSearchCV(XGBClassifier(), {'learning_rate': [.07], 'max_depth': [4]}, n_jobs=-1)"]]);
    // A second search built before the read-back: the printed values may be its own.
    const other = [...cells.slice(0, 7), 'g2 = GridSearchCV(SVC(), grid2)', 'xgb_grid.best_params_'];
    assert.equal(await searchPinPatch(notebookOf(other), withOutputs(notebookOf(other), outs), 2), undefined);
  });

  it('a grid value computed by slicing (range(0, 110, 10)[1:]) is a computed grid like a call: pinned to the printed value', async () => {
    const cells = [
      "param_grid = {'max_depth': range(1, 10), 'n_estimators': range(0, 110, 10)[1:]}\ngs_cv = GridSearchCV(GradientBoostingRegressor(), param_grid, n_jobs=4).fit(X, y)",
      'gs_cv.best_params_',
    ];
    const original = withOutputs(notebookOf(cells), { 1: { result: "{'max_depth': 5,\n 'n_estimators': 100}" } });
    const p = await searchPinPatch(notebookOf(cells), original, 0);
    assert.deepEqual(sources(p), [[0, "param_grid = {'max_depth': range(1, 10), 'n_estimators': range(0, 110, 10)[1:]}\ngs_cv = GridSearchCV(GradientBoostingRegressor(), {'max_depth': [5], 'n_estimators': [100]}, n_jobs=4).fit(X, y)"]]);
  });

  it('printedValues: a tuple or dict value compares by its text without spaces (the repr and the source agree)', () => {
    assert.deepEqual(printedValues("{'hidden_layer_sizes': (19, 2), 'x': 1}", 'hidden_layer_sizes'), [{ kind: 'text', v: '(19,2)', source: '(19, 2)' }]);
    assert.deepEqual(printedValues("{'class_weight': {0: 2, 1: 3}}", 'class_weight'), [{ kind: 'text', v: '{0:2,1:3}', source: '{0: 2, 1: 3}' }]);
  });
});

/**
 * Parameter dicts in every spelling a notebook uses (param-dicts.ts): a dict display, dict(), and a
 * literal bound to a name earlier in the cell. Checked through rules that rewrite grid values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixSource, notebookOf } from './support.js';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { sourceText } from '../../../src/core/notebook.js';

const opts = { ruleIds: ['sklearn-criterion-mse-mae'] };
const head = 'from sklearn.ensemble import RandomForestRegressor\nfrom sklearn.model_selection import GridSearchCV\n';

test('a grid value bound to a name earlier in the cell is rewritten where the name was bound', async () => {
  const { out } = await fixSource(`${head}crits = ['mse', 'mae']\ngrid = {'criterion': crits}\nGridSearchCV(RandomForestRegressor(), grid)`, opts);
  assert.match(out, /crits = \['squared_error', 'absolute_error'\]/);
});

test('dict(criterion=...) is a parameter dict too, with a literal or through a name', async () => {
  const { out } = await fixSource(`${head}GridSearchCV(RandomForestRegressor(), dict(criterion=['mse']))`, opts);
  assert.match(out, /dict\(criterion=\['squared_error'\]\)/);
  const viaName = await fixSource(`${head}c = 'mae'\np = dict(rf__criterion=c)`, opts);
  assert.match(viaName.out, /c = 'absolute_error'/);
});

test('one list under two keys is rewritten once', async () => {
  const { out } = await fixSource(`${head}cs = ['mse']\ngrid = {'a__criterion': cs, 'b__criterion': cs}`, opts);
  assert.match(out, /cs = \['squared_error'\]/);
});

test('a name that is not one literal value in the cell is not followed', async () => {
  for (const src of [
    // assigned twice: which value reaches the dict depends on the flow
    `cs = ['mse']\ncs = ['mae']\ngrid = {'criterion': cs}`,
    // assigned after the dict
    `grid = {'criterion': cs}\ncs = ['mse']`,
    // extended in place
    `cs = ['mse']\ncs += ['friedman_mse']\ngrid = {'criterion': cs}`,
    // not a literal
    `cs = make_list('mse')\ngrid = {'criterion': cs}`,
  ]) {
    const { out } = await fixSource(`${head}${src}`, opts);
    assert.equal(out, `${head}${src}`, src);
  }
});

test('dict() of a notebook that rebinds `dict` is not a parameter dict', async () => {
  const src = `${head}def dict(**kw):\n    return kw\np = dict(criterion=['mse'])`;
  const { out } = await fixSource(src, opts);
  assert.equal(out, src);
});

test("a runtime error naming the estimator speaks for a grid bound by name in an earlier cell and used in the failing one", async () => {
  const nb = notebookOf([
    'from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV\nclf = RandomForestClassifier()',
    "features = ['auto', 'sqrt']\ngrid = {'max_features': features}\nother = {'max_features': ['auto']}",
    'search = GridSearchCV(RandomForestRegressor(), grid).fit(X, y)',
  ]);
  const evalue = "The 'max_features' parameter of RandomForestRegressor must be an int in the range [1, inf), a float in the range (0.0, 1.0], a str among {'sqrt', 'log2'} or None. Got 'auto' instead.";
  const runtime = { failingCell: 2, ename: 'InvalidParameterError', evalue, traceback: [], frames: [], types: {} };
  const res = await fixNotebook(nb, { ruleIds: ['sklearn-max-features-auto'], includeErrorTriggered: true, runtime });
  const cell1 = sourceText(res.notebook.cells[1].source);
  assert.match(cell1, /features = \[1\.0, 'sqrt'\]/);
  assert.match(cell1, /other = \{'max_features': \['auto'\]\}/, 'a dict the failing cell does not use is not the rejected grid');
  // Without the runtime error both kinds are named: nothing says which 'auto' meant.
  const stat = await fixNotebook(nb, { ruleIds: ['sklearn-max-features-auto'] });
  assert.equal(sourceText(stat.notebook.cells[1].source), sourceText(nb.cells[1].source));
});

test('LogisticRegression built in one cell, searched over an l1 grid in another: the run\'s error gives it back its old solver; a grid bound by name in its own cell is read statically', async () => {
  const nb = notebookOf([
    'from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV',
    'lr = LogisticRegression(C=1.0)\nother = LogisticRegression()',
    "grid = {'penalty': ['l1', 'l2']}\nsearch = GridSearchCV(lr, grid).fit(X, y)",
  ]);
  const ids = ['sklearn-logistic-l1-solver'];
  const stat = await fixNotebook(nb, { ruleIds: ids });
  assert.equal(sourceText(stat.notebook.cells[1].source), 'lr = LogisticRegression(C=1.0)\nother = LogisticRegression()', 'the grid is in another cell: static reading cannot tell');
  const evalue = "Solver lbfgs supports only 'l2' or None penalties, got l1 penalty.";
  const runtime = { failingCell: 2, ename: 'ValueError', evalue, traceback: [], frames: [], types: {} };
  const res = await fixNotebook(nb, { ruleIds: ids, includeErrorTriggered: true, runtime });
  assert.equal(sourceText(res.notebook.cells[1].source), "lr = LogisticRegression(C=1.0, solver='liblinear')\nother = LogisticRegression()", 'only the estimator that reaches the failing cell');
  const sameCell = await fixNotebook(notebookOf([
    'from sklearn.linear_model import LogisticRegression\npenalties = ["l1", "l2"]\ngrid = dict(penalty=penalties, C=[1.0])\nGridSearchCV(LogisticRegression(), grid)',
  ]), { ruleIds: ids });
  assert.match(sourceText(sameCell.notebook.cells[0].source), /LogisticRegression\(solver='liblinear'\)/);
});

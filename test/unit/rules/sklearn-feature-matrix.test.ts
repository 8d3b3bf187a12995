/** SK094 sklearn-numeric-strings and sklearn-mixed-feature-names: the traced call's feature matrix, and the same matrix at every other estimator call. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

const cells = [
  'from sklearn.linear_model import LinearRegression, Ridge\nX_train = make(); y = target()',
  'lr = LinearRegression()\nlr.fit(X_train, y)\npreds = lr.predict(X_train)\nprint(preds[:3])',
  'rf = Ridge()\nrf.fit(X_train, y)\nprint(rf.score(X_train, y))\nprint(rf.predict(X_other)[:3])',
  "knn = KNeighborsRegressor().fit(X_train.astype(float), y)\nprint(cross_val_score(knn, X_train, y, cv=3))",
];

async function repair(ename: string, evalue: string, rule: string): Promise<Map<number, string>> {
  const error = { ename, evalue, traceback: [] };
  // The traceback names line 3 of cell 1 (the predict).
  const patches = await rulesForError(notebookOf(cells), 1, error, { runtime: { failingCell: 1, ...error, frames: [{ cell: 1, line: 3 }], types: {} } });
  const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes(rule));
  assert.ok(p, JSON.stringify(patches.map((x) => x.summary)));
  return new Map(p.edits.map((e) => [e.cell, e.op === 'replace' ? (e.newSource as string) : '']));
}

describe('feature-matrix repairs reach every call given the traced matrix', () => {
  it("numbers held as strings: X_train.astype(float) at the traced predict and at every other call given X_train; another matrix and a converted one are left alone", async () => {
    const after = await repair('TypeError', "can't multiply sequence by non-int of type 'float'", 'sklearn-numeric-strings');
    assert.equal(after.get(1), 'lr = LinearRegression()\nlr.fit(X_train.astype(float), y)\npreds = lr.predict(X_train.astype(float))\nprint(preds[:3])');
    assert.equal(after.get(2), 'rf = Ridge()\nrf.fit(X_train.astype(float), y)\nprint(rf.score(X_train.astype(float), y))\nprint(rf.predict(X_other)[:3])');
    assert.equal(after.get(3), 'knn = KNeighborsRegressor().fit(X_train.astype(float), y)\nprint(cross_val_score(knn, X_train.astype(float), y, cv=3))');
    assert.equal(after.has(0), false);
  });

  it('mixed column labels: X_train.to_numpy() the same way', async () => {
    const after = await repair('TypeError', "Feature names are only supported if all input features have string names, but your input has ['int', 'str'] as feature name / column name types.", 'sklearn-mixed-feature-names');
    assert.equal(after.get(2), 'rf = Ridge()\nrf.fit(X_train.to_numpy(), y)\nprint(rf.score(X_train.to_numpy(), y))\nprint(rf.predict(X_other)[:3])');
  });

  it('another error at the same code proposes neither', async () => {
    const error = { ename: 'TypeError', evalue: 'unhashable type: list', traceback: [] };
    const patches = await rulesForError(notebookOf(cells), 1, error, { runtime: { failingCell: 1, ...error, frames: [{ cell: 1, line: 3 }], types: {} } });
    assert.ok(!patches.some((x) => x.source.kind === 'rule' && x.source.ruleIds.some((r) => r === 'sklearn-numeric-strings' || r === 'sklearn-mixed-feature-names')));
  });
});

/**
 * scikit-learn's changed defaults as a table (tables/scikit-learn-pins.json): the file is checked
 * when it loads, and each entry's `skip` decides which calls keep their arguments.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceText } from '../../../src/core/notebook.js';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { loadPinTable, sklearnPinRules } from '../../../src/fixers/rules/sklearn-pins.js';
import { notebookOf } from './support.js';

const era = { versions: { 'scikit-learn': '0.19.2' } };
const pinned = async (src: string, id: string) => {
  const res = await fixNotebook(notebookOf([src]), { ruleIds: [id], era, kinds: ['error-repair', 'score-calibration'] });
  return sourceText(res.notebook.cells[0]!.source);
};

describe('sklearn pins from the table', () => {
  it('loads every entry as a score-calibration rule with its fixtures', () => {
    assert.equal(sklearnPinRules.length, loadPinTable().length);
    assert.ok(sklearnPinRules.length >= 10);
    for (const r of sklearnPinRules) {
      assert.equal(r.kind, 'score-calibration', r.id);
      assert.ok(r.fixtures.length >= 1 && r.link.startsWith('https://scikit-learn.org/stable/whats_new/v'), r.id);
    }
  });
  it('a misspelt field fails at load, naming the file and the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'bad.json');
    const entry = loadPinTable()[0]!;
    fs.writeFileSync(file, JSON.stringify({ pins: [{ ...entry, skipp: {} }] }));
    assert.throws(() => loadPinTable(file), /bad\.json.*skipp|Unrecognized key/);
    fs.rmSync(dir, { recursive: true });
  });
  it('skip: positional counts (one per class), a keyword value or a positional one, a keyword present or required', async () => {
    const imp = 'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.svm import SVC\nfrom sklearn.linear_model import LogisticRegression, SGDClassifier\nfrom sklearn.model_selection import cross_val_score, GridSearchCV\n';
    assert.match(await pinned(imp + 'm = RandomForestClassifier(random_state=0)', 'sklearn-pin-forest-n-estimators'), /random_state=0, n_estimators=10\)/);
    assert.match(await pinned(imp + 'm = RandomForestClassifier(50)', 'sklearn-pin-forest-n-estimators'), /RandomForestClassifier\(50\)$/);
    assert.match(await pinned(imp + "m = SVC(kernel='linear')", 'sklearn-pin-svm-gamma'), /SVC\(kernel='linear'\)$/);
    assert.match(await pinned(imp + "m = SVC(1.0, 'linear')", 'sklearn-pin-svm-gamma'), /SVC\(1\.0, 'linear'\)$/);
    assert.match(await pinned(imp + "m = SVC(kernel='rbf')", 'sklearn-pin-svm-gamma'), /gamma='auto'/);
    assert.match(await pinned(imp + 's = cross_val_score(m, X, y)', 'sklearn-pin-cv-3-folds'), /cv=3/);
    assert.match(await pinned(imp + 's = cross_val_score(m, X, y, None, None, 5)', 'sklearn-pin-cv-3-folds'), /None, 5\)$/);
    assert.match(await pinned(imp + 'm = SGDClassifier(n_iter=10)', 'sklearn-pin-sgd-iterations'), /SGDClassifier\(n_iter=10\)$/);
    assert.match(await pinned(imp + 'm = LogisticRegression()', 'sklearn-pin-logistic-multiclass-ovr'), /LogisticRegression\(\)$/);
    assert.match(await pinned(imp + "m = LogisticRegression(solver='lbfgs')", 'sklearn-pin-logistic-multiclass-ovr'), /multi_class='ovr'/);
    assert.match(await pinned(imp + "m = LogisticRegression(solver='liblinear')", 'sklearn-pin-logistic-multiclass-ovr'), /solver='liblinear'\)$/);
  });
});

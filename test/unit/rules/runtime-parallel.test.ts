import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parallelizePatch } from '../../../src/fixers/rules/runtime-parallel.js';
import { notebookOf } from './support.js';

describe('parallelizePatch', () => {
  it('the slow cell and the estimators it uses get n_jobs=-1; n_jobs=1 becomes -1; other cells and calls stay', async () => {
    const nb = notebookOf([
      'rf = RandomForestClassifier(n_estimators=500, random_state=0)\nsvc = SVC()\nunused = ExtraTreesClassifier()',
      'grid = GridSearchCV(rf, {"max_depth": [3, 5]}, cv=5, n_jobs=1)\ngrid.fit(X, y)\nprint(cross_val_score(svc, X, y, cv=5).mean())',
      'later = RandomForestRegressor()',
    ]);
    const p = await parallelizePatch(nb, 1);
    assert.ok(p);
    assert.equal(p.fixType, 'runtime-reduction');
    assert.deepEqual(p.edits.map((e: any) => [e.cell, e.newSource]), [
      [0, 'rf = RandomForestClassifier(n_estimators=500, random_state=0, n_jobs=-1)\nsvc = SVC()\nunused = ExtraTreesClassifier()'],
      [1, 'grid = GridSearchCV(rf, {"max_depth": [3, 5]}, cv=5, n_jobs=-1)\ngrid.fit(X, y)\nprint(cross_val_score(svc, X, y, cv=5, n_jobs=-1).mean())'],
    ]);
  });
  it('nothing to do: no parallel-safe call, or n_jobs already set', async () => {
    assert.equal(await parallelizePatch(notebookOf(['m = SVC().fit(X, y)']), 0), undefined);
    assert.equal(await parallelizePatch(notebookOf(['m = RandomForestClassifier(n_jobs=4).fit(X, y)']), 0), undefined);
  });
});

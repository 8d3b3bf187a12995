import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reshape1dPatches } from '../../../src/fixers/rules/sklearn-1d-reshape.js';
import { parsePython } from '../../../src/fixers/python/parser.js';
import { notebookOf } from './support.js';

const ERR = 'Expected 2D array, got 1D array instead:\narray=[1. 2.].\nReshape your data either using array.reshape(-1, 1)';
const SCALER_TB = ['File /usr/lib/python3/dist-packages/sklearn/preprocessing/_data.py:1085, in StandardScaler.inverse_transform(self, X, copy)'];

describe('reshape1dPatches', () => {
  it('nested calls on the failing line: the outer and the inner argument are separate candidates, each valid Python', async () => {
    const nb = notebookOf(['import numpy as np', 'sc_y.inverse_transform(knn.predict(X_test_std))']);
    const cands = await reshape1dPatches(nb, 1, ERR, [{ cell: 1, line: 1 }], SCALER_TB);
    const sources = cands.map((c) => (c.patch.edits[0] as any).newSource as string);
    assert.equal(sources[0], 'sc_y.inverse_transform(np.asarray(knn.predict(X_test_std)).reshape(-1, 1)).ravel()');
    assert.ok(sources.includes('sc_y.inverse_transform(knn.predict(np.asarray(X_test_std).reshape(-1, 1)))'), sources.join('\n'));
    for (const src of sources) assert.equal(parsePython(src).rootNode.hasError, false, src);
  });
});

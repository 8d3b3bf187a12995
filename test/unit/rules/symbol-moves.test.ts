import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { movedSymbolPatches } from '../../../src/fixers/rules/symbol-moves.js';
import { homesOf, type SymbolIndex } from '../../../src/core/symbol-index.js';
import { notebookOf } from './support.js';

// A small index in the shape symbol_index.py writes.
const INDEX: SymbolIndex = {
  signatures: {},
  modules: {
    sklearn: [], 'sklearn.model_selection': ['GridSearchCV', 'KFold', 'train_test_split'], 'sklearn.utils.estimator_checks': ['train_test_split'],
    'sklearn.impute': ['SimpleImputer'], pandas: ['DataFrame'], 'pandas.plotting': ['scatter_matrix'], scipy: [], 'scipy.special': ['comb'],
  },
  origins: { train_test_split: ['sklearn.model_selection._split'], GridSearchCV: ['sklearn.model_selection._search'], scatter_matrix: ['pandas.plotting._misc'], comb: ['scipy.special._basic'] },
};
const src = (p: any) => p.patch.edits[0].newSource;

describe('symbol index repairs', () => {
  it('homesOf prefers the public module a name is defined under, then the shallowest', () => {
    assert.deepEqual(homesOf(INDEX, 'train_test_split'), ['sklearn.model_selection', 'sklearn.utils.estimator_checks']);
    assert.deepEqual(homesOf(INDEX, 'comb', { top: 'sklearn' }), []);
  });
  it('cannot import name X from M: X from its new home, the other names stay', async () => {
    const nb = notebookOf(['from scipy.misc import comb, imread as rd']);
    const [c] = await movedSymbolPatches(nb, 0, { ename: 'ImportError', evalue: "cannot import name 'comb' from 'scipy.misc' (/usr/lib/python3/dist-packages/scipy/misc/__init__.py)" }, INDEX);
    assert.equal(src(c), 'from scipy.misc import imread as rd\nfrom scipy.special import comb');
  });
  it('a module that is gone: every name it gave, from where it lives now (aliases kept, indentation kept)', async () => {
    const nb = notebookOf(['if True:\n    from sklearn.cross_validation import train_test_split as tts, KFold']);
    const [c] = await movedSymbolPatches(nb, 0, { ename: 'ModuleNotFoundError', evalue: "No module named 'sklearn.cross_validation'" }, INDEX);
    assert.equal(src(c), 'if True:\n    from sklearn.model_selection import train_test_split as tts, KFold');
  });
  it("module has no attribute X: alias.X -> alias.sub.X", async () => {
    const nb = notebookOf(['import pandas as pd\npd.scatter_matrix(df)']);
    const [c] = await movedSymbolPatches(nb, 0, { ename: 'AttributeError', evalue: "module 'pandas' has no attribute 'scatter_matrix'" }, INDEX);
    assert.equal(src(c), 'import pandas as pd\npd.plotting.scatter_matrix(df)');
  });
  it('never across packages, and nothing for an unknown name', async () => {
    const nb = notebookOf(['from sklearn.preprocessing import Imputer']);
    assert.deepEqual(await movedSymbolPatches(nb, 0, { ename: 'ImportError', evalue: "cannot import name 'Imputer' from 'sklearn.preprocessing' (x)" }, INDEX), []);
  });
});

/** A binding the author commented out after running it, restored for a NameError no cell answers. */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { commentedBindingPatches } from '../../../src/fixers/rules/commented-binding.js';
import { makeNotebook } from '../../support/notebooks.js';

const newSource = (p: { patch: { edits: unknown[] } }) => (p.patch.edits[0] as { newSource: string }).newSource;

describe('commentedBindingPatches', () => {
  it("uncomments the failing cell's own commented initializer, keeping the rest of the cell", () => {
    const nb = makeNotebook(['import pandas as pd', '#estimators = {}\nestimators[kind] = search.best_estimator_']);
    const c = commentedBindingPatches(nb, 1, 'estimators');
    assert.equal(c.length, 1);
    assert.equal(newSource(c[0]!), 'estimators = {}\nestimators[kind] = search.best_estimator_');
    assert.deepEqual(c[0]!.patch.source, { kind: 'rule', ruleIds: ['commented-binding'] });
    assert.match(c[0]!.label, /uncomment `estimators = \{\}` in cell 1/);
  });

  it('keeps the indentation of a commented line inside a block; also imports; nearest cell above first', () => {
    const nb = makeNotebook(['# scaler = MinMaxScaler()', 'for k in ks:\n    # scaler = StandardScaler()\n    pass', 'X = scaler.fit_transform(X)']);
    const c = commentedBindingPatches(nb, 2, 'scaler');
    assert.deepEqual(c.map((x) => x.patch.edits[0]!.cell), [1, 0]);
    assert.equal(newSource(c[0]!), 'for k in ks:\n    scaler = StandardScaler()\n    pass');
    const imp = commentedBindingPatches(makeNotebook(['#from sklearn.preprocessing import StandardScaler', 'StandardScaler()']), 1, 'StandardScaler');
    assert.equal(newSource(imp[0]!), 'from sklearn.preprocessing import StandardScaler');
  });

  it('ignores prose, comparisons, other names, and lines that do not parse alone', () => {
    const nb = makeNotebook(['# estimators = the models we fit, by kind\n# if estimators == {}: reset\n# est = {}\n# estimators = {', 'estimators[k] = 1']);
    assert.deepEqual(commentedBindingPatches(nb, 1, 'estimators'), []);
  });
});

test("the author's commented-out binding comes before an import the symbol index finds by the same name", async () => {
  const { repairCandidates } = await import('../../../src/agent/repair-candidates.js');
  const { withCounts } = await import('../../support/notebooks.js');
  const nb = withCounts(['import scipy.stats as st\n#distributions = [st.norm, st.laplace]\nfor d in distributions:\n    print(d.name)'], [1]);
  const error = { ename: 'NameError', evalue: "name 'distributions' is not defined", traceback: [] };
  // The index knows a public module of that name (scipy.stats.distributions).
  const out = await repairCandidates({ notebook: nb, original: nb, cell: 0, error, dataFiles: [], locateName: (n: string) => (n === 'distributions' ? ['scipy.stats'] : []) } as any);
  const kinds = out.map((c: any) => (c.needsAgreement ? 'commented' : /import/i.test(c.label) ? 'import' : 'other'));
  assert.ok(kinds.includes('commented'));
  assert.ok(kinds.includes('import'), kinds.join(','));
  assert.ok(kinds.indexOf('commented') < kinds.indexOf('import'), kinds.join(','));
});

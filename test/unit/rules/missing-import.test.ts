import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingImportPatches } from '../../../src/fixers/rules/missing-import.js';
import { notebookOf } from './support.js';

describe('missingImportPatches', () => {
  it('a conventional alias the notebook never imports', async () => {
    const nb = notebookOf(['x = 1', '%%time\ny = np.zeros(3)']);
    const p = await missingImportPatches(nb, 1, "name 'np' is not defined");
    assert.equal(p.length, 1);
    assert.equal((p[0].edits[0] as any).newSource, '%%time\nimport numpy as np\ny = np.zeros(3)');
    const sn = await missingImportPatches(notebookOf(["sn.countplot(x='Sex', data=df)"]), 0, "name 'sn' is not defined");
    assert.match((sn[0]!.edits[0] as any).newSource, /^import seaborn as sn\n/);
  });
  it('a public name from the locator, several homes in order', async () => {
    const nb = notebookOf(['gs = GridSearchCV(est, grid)']);
    const p = await missingImportPatches(nb, 0, "name 'GridSearchCV' is not defined", () => ['sklearn.model_selection', 'sklearn.model_selection._search']);
    assert.deepEqual(p.map((x) => x.summary.split(':')[1].split('(')[0].trim()), ['from sklearn.model_selection import GridSearchCV', 'from sklearn.model_selection._search import GridSearchCV']);
  });
  it('a module of the environment used only through its public names (a standard-library module)', async () => {
    const members = (m: string) => (({ calendar: ['month_name', 'day_name'], test: ['support'] }) as Record<string, string[]>)[m];
    const nb = notebookOf(["df['m'] = df.month.map(lambda i: calendar.month_name[i])", 'print(calendar.day_name[0])']);
    const p = await missingImportPatches(nb, 0, "name 'calendar' is not defined", undefined, members);
    assert.deepEqual(p.map((x) => (x.edits[0] as any).newSource.split('\n')[0]), ['import calendar']);
    // A lost variable that shares a module's name: its attributes are not the module's.
    const lost = notebookOf(['print(test.shape)']);
    assert.deepEqual(await missingImportPatches(lost, 0, "name 'test' is not defined", undefined, members), []);
    // Used bare (passed around), nothing says it is the module.
    const bare = notebookOf(['f(calendar)']);
    assert.deepEqual(await missingImportPatches(bare, 0, "name 'calendar' is not defined", undefined, members), []);
  });
  it('homes that cannot be meant: a re-exported top-level module, a submodule the notebook does not use as one', async () => {
    const members = (m: string) => (({
      pandas: ['DataFrame', 'read_csv'], 'seaborn.distributions': ['histplot', 'kdeplot'], 'scipy.stats.distributions': ['norm', 'gamma'],
    }) as Record<string, string[]>)[m];
    const lines = (p: Awaited<ReturnType<typeof missingImportPatches>>) => p.map((x) => (x.edits[0] as any).newSource.split('\n')[0]);
    // `from pandas.core.frame import pandas` is `import pandas`.
    const pd = notebookOf(["df = pandas.read_csv('train.csv')"]);
    assert.deepEqual(lines(await missingImportPatches(pd, 0, "name 'pandas' is not defined", () => ['pandas.core.frame'], members)), ['import pandas']);
    // A list of distributions the author lost, iterated: no module is it.
    const seq = notebookOf(['for d in distributions:\n    d.fit(x)']);
    assert.deepEqual(await missingImportPatches(seq, 0, "name 'distributions' is not defined", () => ['seaborn', 'scipy.stats'], members), []);
    // Used through the submodule's own names: that home stays, the other goes.
    const mod = notebookOf(['distributions.norm.pdf(0)']);
    assert.deepEqual(lines(await missingImportPatches(mod, 0, "name 'distributions' is not defined", () => ['seaborn', 'scipy.stats'], members)), ['from scipy.stats import distributions']);
    // A home whose name is not a submodule is kept as before.
    const fn = notebookOf(['gs = GridSearchCV(est)']);
    assert.equal((await missingImportPatches(fn, 0, "name 'GridSearchCV' is not defined", () => ['sklearn.model_selection'], members)).length, 1);
    // A lost frame that shares a function's name (xgboost.train): indexed and read, never called.
    const frame = notebookOf(['mask = np.random.rand(len(train.index)) > 0.8', "y = train['count']"]);
    assert.deepEqual(await missingImportPatches(frame, 0, "name 'train' is not defined", () => ['xgboost', 'xgboost.training'], members), []);
    const fnAttr = notebookOf(['booster = train(params, dtrain)\nprint(train.__doc__)']);
    assert.deepEqual(lines(await missingImportPatches(fnAttr, 0, "name 'train' is not defined", () => ['xgboost'], members)), ['from xgboost import train']);
  });
  it("the notebook's own import from a later cell, copied in (the author had run it first); nothing for other bindings", async () => {
    const nb = notebookOf(['clf = ExtraTreesClassifier(n_estimators=10)\nX = clf', 'from sklearn.ensemble import ExtraTreesClassifier\next = ExtraTreesClassifier()\nuse(X)', 'import numpy as np']);
    const p = await missingImportPatches(nb, 0, "name 'ExtraTreesClassifier' is not defined");
    assert.deepEqual(p.map((x) => (x.edits[0] as any).newSource.split('\n')[0]), ['from sklearn.ensemble import ExtraTreesClassifier']);
    assert.match(p[0].summary, /imports ExtraTreesClassifier only in a later cell/);
    const alias = await missingImportPatches(notebookOf(['print(np.pi)', 'import numpy as np']), 0, "name 'np' is not defined");
    assert.deepEqual(alias.map((x) => (x.edits[0] as any).newSource.split('\n')[0]), ['import numpy as np']);
    // Also assigned somewhere, or imported above the failing cell: not an import problem.
    assert.deepEqual(await missingImportPatches(notebookOf(['print(np.pi)', 'import numpy as np', 'np = 3']), 0, "name 'np' is not defined"), []);
    assert.deepEqual(await missingImportPatches(notebookOf(['import numpy as np', 'print(np.pi)']), 1, "name 'np' is not defined"), []);
  });
});

describe('didYouMeanPatch', () => {
  it("renames a never-bound name to Python's suggestion when the notebook binds that one", async () => {
    const { didYouMeanPatch } = await import('../../../src/fixers/rules/missing-import.js');
    const nb = notebookOf(['svr = 1', 'cv = dict(estimator=svc, k=svc.real)\nsvc_like = 2']);
    const p = await didYouMeanPatch(nb, 1, "name 'svc' is not defined. Did you mean: 'svr'?");
    assert.equal((p!.edits[0] as any).newSource, 'cv = dict(estimator=svr, k=svr.real)\nsvc_like = 2');
    assert.equal(await didYouMeanPatch(nb, 1, "name 'svc' is not defined. Did you mean: 'nothere'?"), undefined);
  });
});

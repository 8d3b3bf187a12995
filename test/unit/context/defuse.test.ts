import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeCell, analyzeNotebook, dependentCells } from '../../../src/fixers/python/defuse.js';
import { dependencyCells } from '../../../src/fixers/context/dependencies.js';
import { maskIPythonLines, logicalLineStarts } from '../../../src/fixers/python/ipython.js';
import { makeNotebook } from './fixtures.js';

const sorted = (xs: string[]): string[] => [...xs].sort();

test('defines: assignments, tuple targets, augmented, for, with-as, except-as, imports, def/class, walrus, global', async () => {
  const src = [
    'import numpy as np, os.path',
    'from sklearn.model_selection import train_test_split as tts, KFold',
    'a = b = 1',
    'x, (y, *z) = 1, (2, 3)',
    'cnt += 1',
    'for i, row in enumerate(rows):',
    '    pass',
    "with open('f') as fh:",
    '    pass',
    'try:',
    '    pass',
    'except ValueError as err:',
    '    pass',
    'def helper(p, q=default_q):',
    '    global G',
    '    G = p',
    '    local = q',
    'class Model(Base):',
    '    attr = 1',
    'if (n := 10) > 5:',
    '    pass',
    'ann: int = 3',
  ].join('\n');
  const du = await analyzeCell(src);
  assert.deepEqual(
    sorted(du.defines),
    sorted(['np', 'os', 'tts', 'KFold', 'a', 'b', 'x', 'y', 'z', 'cnt', 'i', 'row', 'fh', 'err', 'helper', 'G', 'Model', 'n', 'ann']),
  );
  assert.ok(!du.defines.includes('local') && !du.defines.includes('attr') && !du.defines.includes('p'));
  assert.deepEqual(sorted(du.uses), sorted(['cnt', 'rows', 'default_q', 'Base']));
  assert.deepEqual(du.imports.map((i) => `${i.module}:${i.top}:${i.bound}`), [
    'numpy:numpy:np', 'os.path:os:os', 'sklearn.model_selection:sklearn:tts', 'sklearn.model_selection:sklearn:KFold',
  ]);
});

test('uses: only names read before being bound in the cell; functions and comprehensions keep their locals', async () => {
  const du = await analyzeCell([
    'df = df.dropna()',
    'y = df["Survived"]',
    'total = sum(v for v in values if v > threshold)',
    'sq = [k * k for k in range(n)]',
    'def f(a):',
    '    return a + offset + y',
    'g = lambda u: u * scale',
    'model.fit(X, y, verbose=quiet)',
    'print(len(sq), f(1))',
  ].join('\n'));
  assert.deepEqual(sorted(du.uses), sorted(['df', 'values', 'threshold', 'n', 'offset', 'scale', 'model', 'X', 'quiet']));
  assert.ok(!du.uses.includes('verbose'), 'keyword argument names are not uses');
  assert.ok(!du.uses.includes('print') && !du.uses.includes('len'), 'builtins are not uses');
  assert.ok(du.mutates.includes('model'), 'model.fit mutates model');
});

test('mutations: subscript/attribute assignment and inplace=True', async () => {
  const du = await analyzeCell("train['Age'] = train['Age'].fillna(0)\nclf.n_estimators = 10\ntest.drop(['Cabin'], axis=1, inplace=True)\nresult = data.drop(['x'], axis=1)");
  assert.deepEqual(sorted(du.mutates), ['clf', 'test', 'train']);
  assert.deepEqual(sorted(du.uses), ['clf', 'data', 'test', 'train']);
});

test('IPython magics and shell lines are masked before parsing; python 2 print still parses', async () => {
  const du = await analyzeCell('%matplotlib inline\nfiles = !ls data\n!pip install xgboost\nprint files[0]\nobj?\n');
  assert.deepEqual(du.defines, ['files']);
  assert.equal(du.hasSyntaxErrors, false);
  const whole = await analyzeCell('%%bash\nls -la | head\n');
  assert.deepEqual(whole.defines, []);
  assert.equal(whole.hasSyntaxErrors, false);
  const timed = await analyzeCell('%%time\nm = fit(a)\n');
  assert.deepEqual(timed.defines, ['m']);
  assert.deepEqual(sorted(timed.uses), ['a', 'fit']);
});

test('maskIPythonLines keeps line count and leaves % inside expressions and strings alone', () => {
  const src = 'x = (a\n% b)\ns = """\n!not a shell\n"""\n  %time y = 1\nz = a % b\nif a != b: pass';
  const m = maskIPythonLines(src);
  assert.equal(m.code.split('\n').length, src.split('\n').length);
  assert.deepEqual(m.masked.map((l) => l.line), [5]);
  assert.match(m.code.split('\n')[5]!, /^  pass$/);
  assert.deepEqual(logicalLineStarts(['f(a,', '  b)', 'c = 1 \\', '  + 2', 'd']), [true, false, true, false, true]);
});

test('dependency cells: nearest definer, mutators in between, transitive and bounded', async () => {
  const nb = makeNotebook([
    'import pandas as pd\nimport numpy as np', // 0
    "train = pd.read_csv('train.csv')", // 1
    { md: '## Features' }, // 2
    "train['Age'] = train['Age'].fillna(train['Age'].median())", // 3
    "unused = np.zeros(3)", // 4
    "features = ['Age', 'Fare']\nX = train[features]", // 5
    "y = train['Survived']", // 6
    'from sklearn.ensemble import RandomForestClassifier\nclf = RandomForestClassifier()', // 7
    'clf.fit(X, y)', // 8
    "print(clf.score(X, y), missing_name, later)", // 9
    'later = 1', // 10
  ]);
  const du = await analyzeNotebook(nb);
  assert.equal(du.cells.length, 10);
  const direct = dependencyCells(du, 9, { maxDepth: 1 });
  assert.deepEqual(direct.deps.map((d) => [d.cell, d.relation, d.names.sort()]), [
    [5, 'defines', ['X']],
    [6, 'defines', ['y']],
    [7, 'defines', ['clf']],
    [8, 'mutates', ['clf']],
  ]);
  assert.deepEqual(direct.unresolved, [{ name: 'missing_name' }, { name: 'later', definedLaterIn: 10 }]);

  const all = dependencyCells(du, 9, { maxDepth: 3 });
  assert.deepEqual(all.deps.map((d) => d.cell), [0, 1, 3, 5, 6, 7, 8]);
  assert.equal(all.deps.find((d) => d.cell === 3)!.relation, 'mutates');
  assert.ok(!all.deps.some((d) => d.cell === 4), 'a cell defining nothing the target needs is not selected');

  const bounded = dependencyCells(du, 9, { maxDepth: 3, maxCells: 3 });
  assert.deepEqual(bounded.deps.map((d) => d.cell), [6, 7, 8], 'direct and nearest first');
});

test('the reaching definition is the nearest earlier one', async () => {
  const nb = makeNotebook(['x = 1', 'x = 2', 'y = x + 1', 'x = 3']);
  const d = dependencyCells(await analyzeNotebook(nb), 2);
  assert.deepEqual(d.deps.map((x) => x.cell), [1]);
});

test('dependentCells: the later cells whose values come from the target, transitively; an independent model and a rebinding are not followed', () => {
  const nb = {
    nbformat: 4, nbformat_minor: 2, metadata: {},
    cells: [
      "grid = {'C': [1, 10]}",
      'search = GridSearchCV(SVC(), grid)\nsearch.fit(X, y)',
      'search.best_params_',
      'best = search.best_estimator_',
      'print(best.score(X_test, y_test))',
      'knn = KNeighborsClassifier(5).fit(X, y)\nprint(knn.score(X_test, y_test))',
      'search = None\nprint(search)',
      'print(search)',
    ].map((source) => ({ cell_type: 'code' as const, source, metadata: {}, outputs: [], execution_count: null })),
  };
  assert.deepEqual([...dependentCells(analyzeNotebook(nb as any), 1)].sort((a, b) => a - b), [2, 3, 4]);
});

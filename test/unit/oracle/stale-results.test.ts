import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cannotHaveResult, lastStatement, resultRowLimit, statedRows } from '../../../src/agent/oracle/stale-results.js';

test('the last top-level statement, across continuation lines and trailing comments', () => {
  assert.equal(lastStatement("x = 1\ndf.drop(['a',\n         'b'],\n        axis=1, inplace=True)\n# or\n# df = df.drop(...)\n"), "df.drop(['a',\n         'b'],\n        axis=1, inplace=True)");
  assert.equal(lastStatement('# only a comment\n'), undefined);
});

test('cells that cannot show a result: statements, assignments, None-valued calls, inplace=True, a trailing semicolon', () => {
  for (const src of [
    "df_train.drop(['Alley', 'LotFrontage'],\n              axis=1, inplace=True)\n# or\n# df_train = df_train.drop(x, 1)",
    'import numpy as np',
    "train['Age'] = train['Age'].fillna(29)",
    'x += 1',
    'for c in cols:\n    print(c)',
    "print('score', 0.8)",
    "plt.plot([1, 2])\nplt.show()",
    'df.head();',
    'def f(x):\n    return x',
  ]) assert.equal(cannotHaveResult(src), true, src);
});

test('cells that can: expressions, calls with keyword arguments, comparisons, magics', () => {
  for (const src of [
    'df.head()',
    "df.drop(['a'], axis=1)",
    "train.groupby('Sex').Survived.mean()",
    'x == 1',
    "df.loc[df.a == 1, 'b']",
    'model.fit(X, y)',
    '%timeit f()',
    "plt.title('Survived counts')",
    "    df.describe(include=['object'])",
    "pd.pivot_table(df, index='a',\n               values='b')",
  ]) assert.equal(cannotHaveResult(src), false, src);
});

test('the oracle lists a stale stored result as unjudged and judges the rest of the notebook', async () => {
  const { storedOutputsOracle } = await import('../../../src/agent/oracle/index.js');
  const { makeNotebook } = await import('../context/fixtures.js');
  const result = (plain: string) => ({ output_type: 'execute_result', execution_count: 3, data: { 'text/plain': plain }, metadata: {} });
  const stream = (text: string) => ({ output_type: 'stream', name: 'stdout', text });
  const original = makeNotebook([
    { code: "df.drop(['Alley'],\n        axis=1, inplace=True)\n# or\n# df = df.drop(x, 1)", outputs: [result('0')] },
    { code: 'print(df.shape[1])', outputs: [stream('79\n')] },
  ]);
  const current = makeNotebook([{ code: 'x', outputs: [] }, { code: 'x', outputs: [stream('79\n')] }]);
  const v = storedOutputsOracle(original, current);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(v.comparisons.filter((c) => c.unjudged === 'stale').map((c) => c.original), [0]);
  // The same result under a cell that can produce it is judged: missing now, the notebook fails.
  const live = makeNotebook([{ code: "df.drop(['Alley'], axis=1)", outputs: [result('0')] }, { code: 'print(df.shape[1])', outputs: [stream('79\n')] }]);
  assert.equal(storedOutputsOracle(live, current).matches, false);
});

test('resultRowLimit: head/tail/nlargest/nsmallest/sample with a literal count (pandas defaults when none); statedRows reads the frame footer', () => {
  assert.equal(resultRowLimit('DF_train.head(10)'), 10);
  assert.equal(resultRowLimit('x = 1\ndf.tail()'), 5);
  assert.equal(resultRowLimit("df.nlargest(3, 'SalePrice')"), 3);
  assert.equal(resultRowLimit('df.sample(n=4, random_state=0)'), 4);
  assert.equal(resultRowLimit('df.head(k)'), undefined, 'a count not written as a literal');
  assert.equal(resultRowLimit('df.head(10);'), undefined);
  assert.equal(resultRowLimit('df.describe()'), undefined);
  assert.equal(resultRowLimit("df.nlargest(columns='a', n=2)"), 2);
  assert.equal(statedRows('   a\n0  1\n..\n\n[1460 rows x 13 columns]'), 1460);
  assert.equal(statedRows('<div><table></table><p>1460 rows × 13 columns</p></div>'), 1460);
  assert.equal(statedRows('   a\n0  1'), undefined);
});

test('a stored frame stating more rows than the cell now shows (the .head(10) was added after the run) is stale; one that fits is judged', async () => {
  const { storedOutputsOracle } = await import('../../../src/agent/oracle/index.js');
  const { makeNotebook } = await import('../context/fixtures.js');
  const result = (plain: string) => ({ output_type: 'execute_result', execution_count: 3, data: { 'text/plain': plain }, metadata: {} });
  const full = '         a\n0     0.5\n1     0.6\n...   ...\n1458  0.4\n1459  0.3\n\n[1460 rows x 1 columns]';
  const head = '     a\n0  0.5\n1  0.6\n2  0.7';
  const current = makeNotebook([{ code: 'x', outputs: [result(head)] }]);
  const v = storedOutputsOracle(makeNotebook([{ code: 'df.head(3)', outputs: [result(full)] }]), current);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.ok(v.comparisons.some((c) => c.unjudged === 'stale'));
  // The same stored frame under a cell that can show all of it is judged.
  assert.equal(storedOutputsOracle(makeNotebook([{ code: 'df', outputs: [result(full)] }]), current).matches, false);
});

test("a cell that only shows a library's documentation (help, ?) is listed, not judged; a result beside it is judged", async () => {
  const { storedOutputsOracle } = await import('../../../src/agent/oracle/index.js');
  const { makeNotebook } = await import('../context/fixtures.js');
  const { showsLibraryDocs } = await import('../../../src/agent/oracle/stale-results.js');
  for (const src of ['help(XGBClassifier.__init__)', 'XGBClassifier?', '?pd.read_csv\n# docs', 'print(RandomForestClassifier.__doc__)', 'inspect.signature(f)']) assert.equal(showsLibraryDocs(src), true, src);
  for (const src of ['help(x)\nprint(1)', 'df.describe()', '', 'm = XGBClassifier()']) assert.equal(showsLibraryDocs(src), false, src);
  const stream = (text: string) => ({ output_type: 'stream', name: 'stdout', text });
  const original = makeNotebook([
    { code: 'help(XGBClassifier.__init__)', outputs: [stream('__init__(self, max_depth=3, learning_rate=0.1, n_estimators=100)\n')] },
    { code: 'print(acc)', outputs: [stream('0.81\n')] },
  ]);
  const current = makeNotebook([
    { code: 'x', outputs: [stream('__init__(self, max_depth=None, learning_rate=None, n_estimators=None)\n')] },
    { code: 'x', outputs: [stream('0.81\n')] },
  ]);
  const v = storedOutputsOracle(original, current);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(v.comparisons.filter((c) => c.unjudged === 'library-docs').map((c) => c.original), [3, 0.1, 100]);
  const drifted = makeNotebook([{ code: 'x', outputs: [stream('__init__(self, max_depth=3, learning_rate=0.1, n_estimators=100)\n')] }, { code: 'x', outputs: [stream('0.5\n')] }]);
  assert.equal(storedOutputsOracle(original, drifted).matches, false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cannotHaveResult, lastStatement } from '../../../src/agent/oracle/stale-results.js';

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

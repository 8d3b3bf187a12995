import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neverRunByAuthor, savedWhileRunning, storedErrors, unfinishedByAuthor } from '../../../src/agent/stored-errors.js';
import { isExpected } from '../../../src/core/run-result.js';
import { makeNotebook } from '../context/fixtures.js';

test("stored error outputs and never-run cells are the author's record", () => {
  const nb = makeNotebook([
    { code: 'x = 1', outputs: [] },
    { code: 'print(y)', outputs: [{ output_type: 'error', ename: 'NameError', evalue: "name 'y' is not defined", traceback: [] }] },
    { code: 'pasted output 1 2 3', outputs: [] },
    { code: '', outputs: [] },
  ] as any);
  (nb.cells[0] as any).execution_count = 1;
  (nb.cells[1] as any).execution_count = 2;
  (nb.cells[2] as any).execution_count = null;
  (nb.cells[3] as any).execution_count = null;
  const m = storedErrors(nb);
  assert.equal(m.get(1)?.ename, 'NameError');
  assert.equal(m.get(2)?.ename, 'SyntaxError');
  assert.match(m.get(2)!.reason, /never ran/);
  assert.equal(m.has(0), false);
  assert.equal(m.has(3), false, 'an empty cell is nothing');
  // Without any execution count (a notebook saved without outputs) nothing says which cells were run.
  (nb.cells[0] as any).execution_count = null;
  (nb.cells[1] as any).execution_count = null;
  assert.equal(storedErrors(nb).has(2), false);
  assert.ok(isExpected(m.get(2), 'IndentationError'));
  assert.ok(!isExpected(m.get(2), 'NameError'));
});

test("a cell whose recorded run stopped at a missing module: any error of the rest of it is the author's too", () => {
  const missing = { ename: 'ModuleNotFoundError', reason: 'the original run raised ModuleNotFoundError in this cell too' };
  assert.ok(isExpected(missing, 'ModuleNotFoundError'));
  assert.ok(isExpected(missing, 'ValueError'), 'the author never ran the code after the import');
  assert.ok(isExpected({ ename: 'ImportError', reason: '' }, 'KeyError'));
  // Any other recorded error stands for that exception only.
  assert.ok(!isExpected({ ename: 'KeyError', reason: '' }, 'ValueError'));
});

test('never-run cells: counted notebooks only, code with no count and no outputs', () => {
  const nb = makeNotebook([
    { code: 'x = 1', outputs: [] },
    { code: 'x.fit()', outputs: [] },
    { code: 'print(2)', outputs: [{ output_type: 'stream', name: 'stdout', text: '2' }] },
    { code: '  ', outputs: [] },
  ] as any);
  (nb.cells[0] as any).execution_count = 3;
  for (const i of [1, 2, 3]) (nb.cells[i] as any).execution_count = null;
  assert.deepEqual([...neverRunByAuthor(nb)], [1]);
  (nb.cells[0] as any).execution_count = null;
  assert.deepEqual([...neverRunByAuthor(nb)], []);
});

test("the same statement failing with the exception today's library raises for it is the author's error", () => {
  // IPython 7 on Python 3.7 (the author's record): the arrow at the last line of a call written over two.
  const stored = [
    '\u001b[1;31mTypeError\u001b[0m                                 Traceback (most recent call last)',
    '\u001b[1;32m<ipython-input-10-bc059fe86115>\u001b[0m in \u001b[0;36m<module>\u001b[1;34m\u001b[0m\n\u001b[0;32m      6\u001b[0m cmap = sns.diverging_palette(220, 10)\n\u001b[0;32m      7\u001b[0m sns.heatmap(corr, mask=mask, cmap=cmap,\n\u001b[1;32m----> 8\u001b[1;33m            square=True, linewidths=.5)\n\u001b[0m',
    '\u001b[1;32m~\\Anaconda3\\lib\\site-packages\\seaborn\\matrix.py\u001b[0m in \u001b[0;36mheatmap\u001b[1;34m(data)\u001b[0m\n\u001b[1;32m--> 517\u001b[1;33m                           yticklabels, mask)\n',
    "\u001b[1;31mTypeError\u001b[0m: ufunc 'isnan' not supported for the input types",
  ];
  const nb = makeNotebook([{ code: 'sns.heatmap(corr, mask=mask, cmap=cmap,\n           square=True, linewidths=.5)', outputs: [{ output_type: 'error', ename: 'TypeError', evalue: "ufunc 'isnan' not supported", traceback: stored }] }] as any);
  (nb.cells[0] as any).execution_count = 10;
  const want = storedErrors(nb).get(0)!;
  assert.equal(want.line, 'square=True, linewidths=.5)');
  // IPython 8 on Python 3.13: the arrow at the call's first line, the rest shown below it.
  const now = ['ValueError   Traceback (most recent call last)', 'Cell In[9], line 7\n      6 cmap = sns.diverging_palette(220, 10)\n----> 7 sns.heatmap(corr, mask=mask, cmap=cmap,\n      8            square=True, linewidths=.5)\n', 'File /usr/lib/python3/dist-packages/seaborn/matrix.py:446, in heatmap(data)\n--> 446 plotter = _HeatMapper(data)\n', "ValueError: could not convert string to float: 'RL'"];
  assert.ok(isExpected(want, 'ValueError', now));
  // Another statement of the cell failing is not the author's error.
  const elsewhere = ['ValueError   Traceback (most recent call last)', 'Cell In[9], line 6\n----> 6 cmap = sns.diverging_palette(220, 10)\n      7 sns.heatmap(corr, mask=mask, cmap=cmap,\n', "ValueError: bad"];
  assert.ok(!isExpected(want, 'ValueError', elsewhere));
  // The author's line shown below ours, but after our statement ended: another statement.
  const before = ['ValueError   Traceback (most recent call last)', 'Cell In[9], line 6\n----> 6 x = f(1)\n      7 y = 2\n      8            square=True, linewidths=.5)\n', 'ValueError: bad'];
  assert.ok(!isExpected(want, 'ValueError', before));
  assert.ok(!isExpected(want, 'ValueError'));
});

test('a recorded cell with no outputs whose closing print() wrote nothing was not finished by the author', () => {
  const nb = makeNotebook([
    { code: "search.fit(X, y)\nprint(f'Best: {search.best_params_}')", outputs: [] },
    { code: 'print(1)', outputs: [{ output_type: 'stream', name: 'stdout', text: '1\n' }] },
    { code: 'x = 1\nif x:\n    print(x)', outputs: [] },
    { code: "%%capture\nprint('quiet')", outputs: [] },
    { code: "print('log', file=f)", outputs: [] },
    { code: "print('never ran')", outputs: [] },
  ] as any);
  nb.cells.forEach((c: any, i) => { c.execution_count = i === 5 ? null : i + 1; });
  assert.deepEqual([...unfinishedByAuthor(nb)], [0]);
});

test('a cell saved while it ran (no execution count, outputs, no error) was not finished by the author either', () => {
  const nb = makeNotebook([
    { code: 'x = 1', outputs: [] },
    { code: 'for d in depths:\n    print(score(d))', outputs: [{ output_type: 'stream', name: 'stdout', text: '0.91\n0.93\n' }] },
    { code: 'bad()', outputs: [{ output_type: 'error', ename: 'NameError', evalue: "name 'bad' is not defined", traceback: [] }] },
    { code: 'print(2)', outputs: [] },
  ] as any);
  nb.cells.forEach((c: any, i) => { c.execution_count = i === 0 ? 1 : null; });
  assert.deepEqual([...savedWhileRunning(nb)], [1]);
  assert.ok(unfinishedByAuthor(nb).has(1));
  assert.ok(!neverRunByAuthor(nb).has(1), 'it has outputs: it ran');
  // Without any execution count in the notebook nothing can be said.
  nb.cells.forEach((c: any) => { c.execution_count = null; });
  assert.deepEqual([...savedWhileRunning(nb)], []);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neverRunByAuthor, storedErrors } from '../../../src/agent/stored-errors.js';
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

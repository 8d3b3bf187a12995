import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReply, type ParseReplyOptions } from '../../../src/fixers/llm/reply-parser.js';

const OPTS: ParseReplyOptions = { targetCell: 7, fixType: 'error-repair', source: { kind: 'llm', model: 'm', provider: 'openai' } };

function ok(text: string, opts: ParseReplyOptions = OPTS) {
  const r = parseReply(text, opts);
  if (!r.ok) assert.fail(`expected a patch, got: ${r.error}`);
  return r;
}
function err(text: string, opts: ParseReplyOptions = OPTS): string {
  const r = parseReply(text, opts);
  if (r.ok) assert.fail(`expected an error, got a patch ${JSON.stringify(r.patch)}`);
  assert.match(r.reflection, /Your previous reply could not be used/);
  assert.match(r.reflection, new RegExp(`cell ${opts.targetCell}`));
  return r.error;
}

test('single block: plan + one python block replaces the target cell', () => {
  const r = ok('**Plan:** `as_matrix` was removed; use `to_numpy()`.\n\n```python\nX = train[cols].to_numpy()\ny = train["Survived"]\n```\n');
  assert.equal(r.format, 'single-block');
  assert.deepEqual(r.patch.edits, [{ cell: 7, op: 'replace', newSource: 'X = train[cols].to_numpy()\ny = train["Survived"]' }]);
  assert.equal(r.patch.summary, '`as_matrix` was removed; use `to_numpy()`.');
  assert.equal(r.patch.fixType, 'error-repair');
  assert.deepEqual(r.patch.source, OPTS.source);
});

test('single block: bare ``` fences and ~~~ fences are accepted; indented fences are dedented', () => {
  assert.equal((ok('fix\n```\nx = 1\n```').patch.edits[0] as any).newSource, 'x = 1');
  assert.equal((ok('fix\n~~~py\nx = 2\n~~~').patch.edits[0] as any).newSource, 'x = 2');
  assert.equal((ok('1. fix\n   ```python\n   if a:\n       b()\n   ```').patch.edits[0] as any).newSource, 'if a:\n    b()');
  assert.equal(ok('```python\nx = 1\n```').patch.summary, 'LLM error-repair of cell 7');
});

test('single block: precise errors', () => {
  assert.match(err(''), /empty/);
  assert.match(err('I think you should upgrade pandas.'), /no fenced ```python code block/);
  assert.match(err('Plan\n```bash\npip install x\n```'), /no python code block \(found a ```bash block/);
  assert.match(err('a\n```python\nx=1\n```\nb\n```python\ny=2\n```'), /2 fenced code blocks \(on lines 2, 6\)/);
  assert.match(err('Plan\n```python\nx = 1\n'), /never closed/);
  assert.match(err('Plan\n```python\nx = 1\n', { ...OPTS, truncated: true }), /cut off at the token limit/);
  assert.match(err('Plan\n```python\n\n```'), /empty/);
});

test('cell sections: several whole cells', () => {
  const r = ok('Plan: fix both.\n\n## === cell 3\n```python\nimport pandas as pd\n```\n\n## === cell 7 ===\nthen\n```python\nprint(pd.__version__)\n```');
  assert.equal(r.format, 'cell-sections');
  assert.deepEqual(r.patch.edits, [
    { cell: 3, op: 'replace', newSource: 'import pandas as pd' },
    { cell: 7, op: 'replace', newSource: 'print(pd.__version__)' },
  ]);
  assert.equal(r.patch.summary, 'Plan: fix both.'.replace(/^Plan:\s*/i, ''));
  assert.ok(!r.plan.includes('=== cell'));
});

test('cell sections: errors', () => {
  assert.match(err('## === cell 3\nno code here\n## === cell 4\n```python\nx\n```'), /"## === cell 3" \(line 1\) has no ```python block/);
  assert.match(err('## === cell 3\n```python\na\n```\n```python\nb\n```'), /has 2 code blocks/);
  assert.match(err('## === cell 3\n```python\na\n```\n## === cell 3\n```python\nb\n```'), /two "## === cell 3" sections/);
  assert.match(err('```python\nz\n```\n## === cell 3\n```python\na\n```'), /comes before the first "## === cell N" header/);
  // A header inside a code block is code, not a header.
  const r = ok('fix\n```python\n## === cell 9\nx = 1\n```');
  assert.equal(r.format, 'single-block');
});

test('search/replace: default target cell, explicit cell line, inside fences, several blocks', () => {
  const r = ok([
    'Replace the removed API.',
    '<<<<<<< SEARCH',
    'X = df.as_matrix()',
    '=======',
    'X = df.to_numpy()',
    '>>>>>>> REPLACE',
    '',
    'cell 2',
    '```python',
    '<<<<<<< SEARCH',
    'from sklearn.cross_validation import train_test_split',
    '=======',
    'from sklearn.model_selection import train_test_split',
    '>>>>>>> REPLACE',
    '```',
  ].join('\n'));
  assert.equal(r.format, 'search-replace');
  assert.deepEqual(r.patch.edits, [
    { cell: 7, op: 'search-replace', search: 'X = df.as_matrix()', replace: 'X = df.to_numpy()' },
    { cell: 2, op: 'search-replace', search: 'from sklearn.cross_validation import train_test_split', replace: 'from sklearn.model_selection import train_test_split' },
  ]);
  assert.equal(r.plan, 'Replace the removed API.');
  const del = ok('## === cell 4\n<<<<<<< SEARCH\n%matplotlib notebook\n=======\n>>>>>>> REPLACE');
  assert.deepEqual(del.patch.edits, [{ cell: 4, op: 'search-replace', search: '%matplotlib notebook', replace: '' }]);
});

test('search/replace: errors', () => {
  assert.match(err('<<<<<<< SEARCH\nx\n>>>>>>> REPLACE'), /no "=======" line/);
  assert.match(err('<<<<<<< SEARCH\nx\n=======\ny\n'), /not closed with ">>>>>>> REPLACE"/);
  assert.match(err('<<<<<<< SEARCH\n\n=======\ny\n>>>>>>> REPLACE'), /empty SEARCH part/);
  assert.match(err('<<<<<<< SEARCH\nx\n=======\nx\n>>>>>>> REPLACE'), /same text/);
  assert.match(err('<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```python\nz = 1\n```'), /mixes search\/replace blocks with a plain code block/);
});

test('replyAction: GIVE_UP and VIEW_CELL lines, a plain request for a cell, and replies that are patches', async () => {
  const { replyAction } = await import('../../../src/fixers/llm/reply-parser.js');
  assert.deepEqual(replyAction('It reads a file we do not have.\n\nGIVE_UP: weather.csv is not in the data'), { kind: 'give-up', reason: 'weather.csv is not in the data' });
  assert.deepEqual(replyAction('**GIVE_UP:** the fix would change the model'), { kind: 'give-up', reason: 'the fix would change the model' });
  assert.deepEqual(replyAction('VIEW_CELL: 3, 95'), { kind: 'view', cells: [3, 95] });
  assert.deepEqual(replyAction('I need to see cells 12 and 40 before I can fix this.'), { kind: 'view', cells: [12, 40] });
  assert.deepEqual(replyAction('Could you show me cell 95, where `f` is defined?'), { kind: 'view', cells: [95] });
  // A patch whose plan mentions another cell is a patch; prose that merely says "give up" mid-line is not a give-up.
  assert.equal(replyAction('Plan: as shown in cell 3, use to_numpy().\n```python\nx = 1\n```'), undefined);
  assert.equal(replyAction('I would not give up: here is no code.'), undefined);
  assert.equal(replyAction('```python\n# GIVE_UP: a comment in code\nx = 1\n```'), undefined, 'inside a fence it is code');
});

test('structural sections: insert before/after, move, delete with a reason, mixed with a replaced cell', () => {
  const r = ok([
    'Plan: f is defined later; run its cell first, add the missing import, drop the stale debug cell.',
    '## === move cell 9 before cell 7',
    '## === insert before cell 7',
    '```python\nimport numpy as np\n```',
    '## === insert after cell 7',
    '```python\nprint(np.mean(res))\n```',
    '## === delete cell 8: a leftover print of a variable that no longer exists',
    '## === cell 7',
    '```python\nres = f(np.arange(3))\n```',
  ].join('\n'));
  assert.equal(r.format, 'cell-sections');
  assert.deepEqual(r.patch.edits, [
    { cell: 9, op: 'move', before: 7 },
    { cell: 7, op: 'insert', position: 'before', newSource: 'import numpy as np' },
    { cell: 7, op: 'insert', position: 'after', newSource: 'print(np.mean(res))' },
    { cell: 8, op: 'delete', reason: 'a leftover print of a variable that no longer exists' },
    { cell: 7, op: 'replace', newSource: 'res = f(np.arange(3))' },
  ]);
  assert.equal(r.plan, 'Plan: f is defined later; run its cell first, add the missing import, drop the stale debug cell.');
  // A move alone is a whole reply; with search/replace blocks too.
  assert.deepEqual(ok('Plan: run the helper first.\n## === move cell 12 to before cell 3').patch.edits, [{ cell: 12, op: 'move', before: 3 }]);
  assert.deepEqual(ok('## === move cell 5 before cell 2\ncell 2\n<<<<<<< SEARCH\nx = f(1)\n=======\nx = f(2)\n>>>>>>> REPLACE').patch.edits,
    [{ cell: 2, op: 'search-replace', search: 'x = f(1)', replace: 'x = f(2)' }, { cell: 5, op: 'move', before: 2 }]);
});

test('structural sections: errors say what is wrong', () => {
  assert.match(err('## === delete cell 4\n'), /needs a reason/);
  assert.match(err('## === move cell 4 before cell 2\n```python\nx = 1\n```'), /takes no code block/);
  assert.match(err('## === insert after cell 4\nno code here'), /"## === insert after cell 4" \(line 1\) has no ```python block/);
  assert.match(err('## === insert after cell 4\n```python\n\n```'), /is empty/);
});

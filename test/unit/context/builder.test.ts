import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildContext, formatVariable, stateOf } from '../../../src/fixers/context/builder.js';
import { previewDataDir } from '../../../src/fixers/context/data-files.js';
import { estimateTokens, stripAnsi, trimTraceback } from '../../../src/fixers/context/text.js';
import type { CellRecord } from '../../../src/core/run-result.js';
import { makeNotebook } from './fixtures.js';

const TB = [
  '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m',
  '\u001b[0;31mAttributeError\u001b[0m                            Traceback (most recent call last)',
  "Cell \u001b[0;32mIn[9], line 1\u001b[0m\n\u001b[0;32m----> 1\u001b[0m model \u001b[38;5;241m=\u001b[39m clf\u001b[38;5;241m.\u001b[39mfit(X, y)",
  'File /usr/lib/python3/site-packages/sklearn/base.py:1151, in fit\n   1149 ...',
  'File /usr/lib/python3/site-packages/sklearn/ensemble/_forest.py:345, in fit\n   345 ...',
  'File /usr/lib/python3/site-packages/sklearn/utils/validation.py:1090, in check\n   1090 ...',
  'File /usr/lib/python3/site-packages/sklearn/utils/validation.py:900, in check_array\n   900 ...',
  "\u001b[0;31mAttributeError\u001b[0m: 'DataFrame' object has no attribute 'as_matrix'",
];

function rec(index: number, extra: Partial<CellRecord> = {}): CellRecord {
  return { index, codeIndex: index, status: 'ok', executionCount: index, durationMs: 100, startedAt: null, peakMemoryBytes: null, outputsTruncated: false, ...extra };
}

const NB = makeNotebook([
  'import pandas as pd\nfrom sklearn.ensemble import RandomForestClassifier', // 0
  "train = pd.read_csv('../input/train.csv')", // 1
  'X = train[["Pclass", "Fare"]].as_matrix()\ny = train["Survived"]', // 2
  'noise = 42', // 3
  { md: '### Fit a random forest\nWe expect ~0.8 accuracy.' }, // 4
  'clf = RandomForestClassifier(n_estimators=100)\nmodel = clf.fit(X, y)', // 5
]);

const CELLS: CellRecord[] = [
  rec(0),
  rec(1, { state: { variables: [{ name: 'train', type: 'DataFrame', module: 'pandas', shape: [891, 12], columns: ['PassengerId', 'Survived', 'Pclass', 'Fare'] }], truncated: false } }),
  rec(2, { state: { variables: [{ name: 'y', type: 'Series', shape: [891], dtype: 'int64' }, { name: 'X', type: 'ndarray', shape: [891, 2], dtype: 'float64' }], truncated: false } }),
  rec(3),
  rec(5, { status: 'error', durationMs: 5, error: { ename: 'AttributeError', evalue: "'DataFrame' object has no attribute 'as_matrix'", traceback: TB } }),
];

test('stripAnsi and trimTraceback: colours gone, separator gone, middle frames collapsed, message kept', () => {
  assert.equal(stripAnsi('\u001b[0;31mErr\u001b[0m: x \u001b]8;;http://a\u0007link\u001b]8;;\u0007'), 'Err: x link');
  const t = trimTraceback(TB, { headFrames: 1, tailFrames: 1 });
  assert.ok(!t.includes('\u001b'));
  assert.ok(!t.includes('-------'));
  assert.match(t, /^AttributeError\s+Traceback/);
  assert.match(t, /Cell In\[9\], line 1/);
  assert.match(t, /\[3 frames omitted\]/);
  assert.match(t, /validation.py:900/);
  assert.ok(!t.includes('_forest.py'));
  assert.match(t, /AttributeError: 'DataFrame' object has no attribute 'as_matrix'$/);
  const long = trimTraceback(['x'.repeat(5000), 'ValueError: boom'], { maxChars: 600 });
  assert.ok(long.length <= 700, `${long.length}`);
  assert.match(long, /omitted/);
  assert.match(long, /ValueError: boom$/);
});

test('the context holds the failing cell, traceback, definers, markdown, state and versions', async () => {
  const ctx = await buildContext({
    notebook: NB, targetCell: 5, fixType: 'error-repair', cells: CELLS, python: '3.13.5',
    versions: { pandas: '2.3.1', 'scikit-learn': '1.7.1', numpy: '2.3.2' },
  });
  const t = ctx.text;
  assert.match(t, /## Cell 5 \(the failing cell\)\n```python\nclf = RandomForestClassifier/);
  assert.match(t, /## Error in cell 5\n```\nAttributeError/);
  assert.ok(!t.includes('\u001b'));
  assert.match(t, /## Cell 2 \(defines X, y\)/);
  assert.match(t, /## Cell 0 \(defines RandomForestClassifier, pd\)/);
  assert.match(t, /## Cell 1 \(defines train\)/, 'transitive: X comes from train');
  assert.ok(!t.includes('noise = 42'), 'unrelated cells are left out');
  assert.match(t, /## Markdown above cell 5 \(the author's intent\)\n### Fit a random forest/);
  assert.match(t, /- X: ndarray, shape \(891, 2\), dtype float64/);
  assert.match(t, /- y: Series, shape \(891,\), dtype int64/);
  assert.match(t, /- python 3\.13\.5\n- pandas 2\.3\.1\n- scikit-learn 1\.7\.1 \(imported as sklearn\)/);
  assert.deepEqual(ctx.cellsShown, [5, 0, 1, 2]);
  assert.equal(ctx.tokens, estimateTokens(ctx.text));
  assert.equal(ctx.overBudget, false);
  assert.deepEqual(ctx.dropped, []);
  // Reading order: dependencies before the target, the error right after it.
  assert.ok(t.indexOf('## Cell 0') < t.indexOf('## Cell 2') && t.indexOf('## Cell 2') < t.indexOf('## Cell 5') && t.indexOf('## Cell 5') < t.indexOf('## Error'));
});

test('a tight budget drops the lowest-priority sections first and never the failing cell', async () => {
  const full = await buildContext({ notebook: NB, targetCell: 5, fixType: 'error-repair', cells: CELLS, versions: { pandas: '2.3.1' } });
  const tight = await buildContext({ notebook: NB, targetCell: 5, fixType: 'error-repair', cells: CELLS, versions: { pandas: '2.3.1' }, budgetTokens: full.tokens - 40 });
  assert.ok(tight.tokens <= tight.budgetTokens, `${tight.tokens} > ${tight.budgetTokens}`);
  assert.ok(tight.dropped.length >= 1);
  // Transitive definers (depth 2) go before direct ones.
  assert.equal(tight.dropped[0], 'cell:1');
  assert.match(tight.text, /## Cell 5/);
  assert.match(tight.text, /## Cell 2/);
  const tiny = await buildContext({ notebook: NB, targetCell: 5, fixType: 'error-repair', cells: CELLS, budgetTokens: 50 });
  assert.match(tiny.text, /## Cell 5/);
  assert.match(tiny.text, /## Error in cell 5/);
  assert.equal(tiny.overBudget, true);
  assert.ok(tiny.sections.filter((s) => s.included).every((s) => s.required));
});

test('attempts, findings, target result, timing and data files', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-ctx-'));
  fs.writeFileSync(path.join(dir, 'train.csv'), 'PassengerId,Survived,Pclass\n1,0,3\n2,1,1\n3,1,3\n4,1,1\n');
  fs.mkdirSync(path.join(dir, 'ground_truth'));
  fs.writeFileSync(path.join(dir, 'ground_truth', 'labels.csv'), 'id,y\n');
  fs.writeFileSync(path.join(dir, 'model.bin'), Buffer.alloc(10));
  const files = previewDataDir(dir, { lines: 3, exclude: ['ground_truth'] });
  assert.deepEqual(files.map((f) => f.path), ['model.bin', 'train.csv']);
  assert.deepEqual(files[1]!.head, ['PassengerId,Survived,Pclass', '1,0,3', '2,1,1']);
  assert.equal(files[0]!.head, undefined);

  const ctx = await buildContext({
    notebook: NB, targetCell: 5, fixType: 'score-calibration', cells: CELLS,
    dataFiles: files, dataDirLabel: '../input/',
    attempts: [{ fixType: 'error-repair', source: 'rule:pandas-as-matrix', cells: [2], summary: 'as_matrix() -> to_numpy()', outcome: 'fixed' }],
    findings: [{ ruleId: 'sklearn-default-n-estimators', cell: 5, line: 1, column: 0, message: 'n_estimators default changed 10 -> 100', autoFixable: false, fixType: 'score-calibration', library: 'sklearn' }],
    target: { metric: 'accuracy', original: 0.8103, current: 0.75, higherIsBetter: true, note: 'stored output of cell 5' },
    timeBudgetS: 600,
  });
  assert.match(ctx.text, /## Cell 5 \(the cell to calibrate\)/);
  assert.match(ctx.text, /Original \(target\) accuracy: 0\.8103\nCurrent accuracy: 0\.75\nRelative difference: -7\.4%\nHigher is better\./);
  assert.match(ctx.text, /1\. error-repair by rule:pandas-as-matrix on cell 2: as_matrix\(\) -> to_numpy\(\) -> fixed/);
  assert.match(ctx.text, /- cell 5 line 1: \[sklearn-default-n-estimators\] n_estimators default changed/);
  assert.match(ctx.text, /Data directory: \.\.\/input\/\n- model\.bin \(10 bytes\)\n- train\.csv \(\d+ bytes\)\n    PassengerId,Survived,Pclass/);
  assert.ok(!ctx.text.includes('labels.csv'));
  assert.ok(!ctx.text.includes('Slowest cells'), 'timing only for runtime-reduction');
  const rt = await buildContext({ notebook: NB, targetCell: 2, fixType: 'runtime-reduction', cells: CELLS.slice(0, 3), timeBudgetS: 20 });
  assert.match(rt.text, /## Cell 2 \(the cell to speed up\)/);
  assert.match(rt.text, /Total 0\.3 s of a 20 s budget\. Slowest cells:\n- cell 0: 0\.1 s/);
  // target vs current is required for score-calibration and comes last
  assert.ok(ctx.text.trimEnd().endsWith('Source: stored output of cell 5'));
});

test('data files rank high when the error is a missing file', async () => {
  const nb = makeNotebook(["df = pd.read_csv('data/train.csv')"]);
  const error = { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: 'data/train.csv'", traceback: [] };
  const dataFiles = [{ path: 'train.csv', bytes: 100, head: ['a,b'] }];
  const attempts = [{ fixType: 'error-repair' as const, source: 'm', cells: [0], summary: 's'.repeat(400), outcome: 'same error' }];
  const base = await buildContext({ notebook: nb, targetCell: 0, fixType: 'error-repair', error, dataFiles, attempts, budgetTokens: 100000 });
  const budget = base.tokens - 20;
  const withFileError = await buildContext({ notebook: nb, targetCell: 0, fixType: 'error-repair', error, dataFiles, attempts, budgetTokens: budget });
  assert.ok(withFileError.dropped.includes('attempts') && !withFileError.dropped.includes('data'));
  const other = await buildContext({ notebook: nb, targetCell: 0, fixType: 'error-repair', error: { ...error, ename: 'ValueError', evalue: 'bad' }, dataFiles, attempts, budgetTokens: budget });
  assert.ok(other.dropped.includes('data'));
});

test('stateOf takes the latest summary at or before the target; formatVariable bounds columns', () => {
  const recs: CellRecord[] = [
    rec(1, { state: { variables: [{ name: 'df', type: 'DataFrame', shape: [10, 2] }], truncated: false } }),
    rec(3, { state: { variables: [{ name: 'df', type: 'DataFrame', shape: [8, 2] }], truncated: false } }),
    rec(7, { state: { variables: [{ name: 'df', type: 'DataFrame', shape: [1, 1] }], truncated: false } }),
  ];
  assert.deepEqual(stateOf(['df', 'nothing'], recs, 5).map((v) => v.shape), [[8, 2]]);
  const many = formatVariable({ name: 'wide', type: 'DataFrame', columns: Array.from({ length: 40 }, (_, i) => `c${i}`) }, 5);
  assert.match(many, /columns \[c0, c1, c2, c3, c4, \.\.\. 35 more\]/);
  assert.equal(formatVariable({ name: 'n', type: 'int', value: '5' }), '- n: int, = 5');
});

test('context both ways: a helper defined LATER is shown with its source, and so are the cells reading what the target defines', async () => {
  const nb = makeNotebook([
    'import math', // 0
    'a = disc_area(2)\nprint(a)', // 1: target
    'radii = [1, a]', // 2: reads a
    'def disc_area(r):\n    return round(math.pi * r * r, 2)', // 3: the later definition
    'a = 0\nprint(a + 1)', // 4: redefines a before reading it: not a consumer
    'print(a)', // 5: reads the redefined a: not a consumer of cell 1
  ]);
  const error = { ename: 'NameError', evalue: "name 'disc_area' is not defined", traceback: [] };
  const ctx = await buildContext({ notebook: nb, targetCell: 1, fixType: 'error-repair', error });
  assert.match(ctx.text, /## Cell 3 \(defines disc_area; LATER in the notebook, it runs after cell 1\)\n```python\ndef disc_area\(r\):/);
  assert.match(ctx.text, /- disc_area \(defined later, in cell 3, shown below\)/);
  assert.match(ctx.text, /## Cell 2 \(uses a from cell 1; keep them compatible\)\n```python\nradii = \[1, a\]/);
  assert.doesNotMatch(ctx.text, /## Cell [45] /);
  assert.deepEqual(ctx.cellsShown, [1, 2, 3]);
  // Reading order: the target and its error, then what comes after it.
  assert.ok(ctx.text.indexOf('## Cell 1') < ctx.text.indexOf('## Error in cell 1') && ctx.text.indexOf('## Error in cell 1') < ctx.text.indexOf('## Cell 2'));
  // The token bound cuts the consumers before the later definition, and says so.
  const tight = await buildContext({ notebook: nb, targetCell: 1, fixType: 'error-repair', error, budgetTokens: estimateTokens(ctx.text) - 10 });
  assert.ok(tight.dropped.includes('after:2'), tight.dropped.join(','));
  assert.ok(tight.sections.find((s) => s.id === 'after:3')!.included);
});

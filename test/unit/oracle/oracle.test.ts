import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cellNumbers, numberLines } from '../../../src/agent/oracle/numbers.js';
import { alignLines } from '../../../src/agent/oracle/align.js';
import { expectedScoreOracle, findSubmissionFile, hasStoredNumbers, judge, storedOutputsOracle } from '../../../src/agent/oracle/index.js';
import { parseCsv } from '../../../src/agent/oracle/scorers.js';
import { readNotebookFile, type CodeCell, type Notebook } from '../../../src/core/notebook.js';
import { makeNotebook } from '../context/fixtures.js';
import { sharedDir } from '../../support/sandbox.js';

const stream = (text: string, name = 'stdout') => ({ output_type: 'stream', name, text });
const result = (plain: string, extra: Record<string, unknown> = {}) => ({ output_type: 'execute_result', execution_count: 3, data: { 'text/plain': plain, ...extra }, metadata: {} });
const image = () => ({ output_type: 'display_data', data: { 'image/png': 'iVBOR', 'text/plain': '<Figure size 640x480 with 1 Axes>' }, metadata: {} });
const error = () => ({ output_type: 'error', ename: 'ValueError', evalue: 'x', traceback: [] });

const nums = (text: string) => numberLines(text).lines.map((l) => l.numbers);

test('numbers: plain values, percentages, exponents, tuples, arrays; not versions, identifiers or paths', () => {
  assert.deepEqual(nums('Accuracy: 0.8103\nRMSE = 1.5e-03, r2 -0.25\n(891, 12)\narray([ 0.,  1.5])'), [[0.8103], [0.0015, -0.25], [891, 12], [0, 1.5]]);
  assert.deepEqual(nums('81.03% of passengers.'), [[81.03]]);
  assert.deepEqual(nums('sklearn 0.18.1 installed\nx1 col_2 Age*Class\n/home/user2/data_2015/train.csv'), []);
});

test('numbers: timings, dates, memory, addresses, reprs, progress bars and \\r redraws are ignored', () => {
  const text = [
    'CPU times: user 1.2 s, sys: 30 ms, total: 1.23 s',
    'Wall time: 2.5 s',
    'finished 2017-03-01 12:30:11 score 0.75',
    'memory usage: 83.6+ KB',
    '<matplotlib.axes._subplots.AxesSubplot at 0x11fd279d0>',
    'Fitted in 3.2s with loss 0.31',
    ' 45%|████▌     | 45/100 [00:01<00:02, 30.1it/s]',
    '100% 450k/450k [00:01<00:00, 384kB/s]',
    'Downloading train.csv: 61.2 kB at 1.5 MB/s',
    'Epoch 1/2\r 32/891 [>.....] - ETA: 3s\r891/891 [==============================] - 1s - loss: 0.5',
    'Out[7]: 12',
  ].join('\n');
  assert.deepEqual(nums(text), [[0.75], [0.31]]);
});

test('tables: DataFrame index and header dropped, Series index and dtype footer dropped, df.info() and estimator reprs skipped', () => {
  const df = '   PassengerId  Survived  Pclass\n0            1         0       3\n1            2         1       1\n\n[2 rows x 3 columns]';
  assert.deepEqual(nums(df), [[1, 0, 3], [2, 1, 1], [2, 3]]);
  const desc = '         Survived        Age\ncount  891.000000  714.00000\n25%      0.000000   20.12500';
  assert.deepEqual(nums(desc), [[891, 714], [0, 20.125]]);
  const series = 'male      577\nfemale    314\nName: Sex, dtype: int64';
  assert.deepEqual(nums(series), [[577], [314]]);
  const named = '                        Model  Score\n3               Random Forest  98.20\n8               Decision Tree  98.20';
  assert.deepEqual(numberLines(named).lines.map((l) => [l.template, l.numbers]), [['Random Forest #', [98.2]], ['Decision Tree #', [98.2]]]);
  const info = "<class 'pandas.core.frame.DataFrame'>\nRangeIndex: 891 entries, 0 to 890\nData columns (total 12 columns):\nPassengerId    891 non-null int64";
  assert.deepEqual(nums(info), []);
  assert.deepEqual(nums("RandomForestClassifier(bootstrap=True, max_depth=None,\n            n_estimators=10, n_jobs=1)"), []);
  assert.deepEqual(nums('print(df)\n   a  b\n0  1  2'), [[1, 2]]);
});

test('cellNumbers reads stdout and text/plain only; counts images and HTML-only outputs; notes errors', () => {
  const cell = {
    cell_type: 'code', source: '', metadata: {}, execution_count: 1,
    outputs: [stream('acc 0.9\n'), stream('Warning line 1.5\n', 'stderr'), result('0.75', { 'text/html': '<b>0.75</b>' }), image(), { output_type: 'display_data', data: { 'text/html': '<table/>' }, metadata: {} }],
  } as unknown as CodeCell;
  const n = cellNumbers(cell);
  assert.deepEqual(n.lines.map((l) => l.numbers), [[0.9], [0.75]]);
  assert.equal(n.images, 1);
  assert.equal(n.htmlOnly, 1);
  assert.equal(n.hasError, false);
});

test('alignLines: same templates anchor, extra lines in the new run are skipped, gaps pair by count', () => {
  const L = (template: string, ...numbers: number[]) => ({ template, numbers, raw: template });
  const a = [L('acc #', 0.8), L('loss #', 0.5), L('#', 12), L('n = #', 5)];
  const b = [L('a new warning # times', 3), L('acc #', 0.79), L('LOSS: #', 0.52), L('#', 12), L('n = #', 5)];
  assert.deepEqual(alignLines(a, b), [[0, 1], [1, 2], [2, 3], [3, 4]]);
});

function pair(origOutputs: any[][], newOutputs: any[][]): [Notebook, Notebook] {
  return [
    makeNotebook(origOutputs.map((outputs) => ({ code: 'x', outputs }))),
    makeNotebook(newOutputs.map((outputs) => ({ code: 'x', outputs }))),
  ];
}

test('stored outputs: match within tolerance, mismatch beyond, per cell with original vs new', () => {
  const [o, n] = pair(
    [[stream('Accuracy: 0.8103\n')], [result('92.93')], [image()], [stream('n rows 891\n')]],
    [[stream('Accuracy: 0.78\n')], [result('92.93')], [image(), image()], [stream('n rows 891\n')]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.oracle, 'stored-outputs');
  assert.equal(v.matches, true, JSON.stringify(v.details));
  assert.deepEqual(v.comparisons.map((c) => [c.cell, c.original, c.new, c.ok]), [[0, 0.8103, 0.78, true], [1, 92.93, 92.93, true], [3, 891, 891, true]]);
  assert.deepEqual((v.details.cells as any[]).find((c) => c.cell === 2).images, { original: 1, new: 2 });

  const strict = storedOutputsOracle(o, n, { tolerance: 0.01 });
  assert.equal(strict.matches, false);
  assert.equal(strict.details.cellsMismatched, 1);
  assert.match(String(strict.details.reason), /cell 0: 1 of 1 numbers differ \(e\.g\. 0\.8103 -> 0\.78\)/);
  const c0 = strict.comparisons[0]!;
  assert.ok(Math.abs(c0.relDiff! - (0.8103 - 0.78) / 0.8103) < 1e-12);
});

test('stored outputs: missing numbers and new errors fail; original error cells and text are not judged', () => {
  const [o, n] = pair(
    [[stream('score 0.5\n')], [error()], [stream('hello world\n')], [stream('rmse 0.12\n')]],
    [[error()], [stream('now it prints 7\n')], [stream('bonjour\n')], [stream('rmse 0.12\n')]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, false);
  const cells = v.details.cells as any[];
  assert.deepEqual(cells.map((c) => [c.cell, c.verdict]), [[0, 'missing'], [1, 'not-compared'], [2, 'not-compared'], [3, 'match']]);
  assert.equal(cells[0].note, 'the new run failed in this cell');
  assert.equal(cells[2].textChanged, true);
  assert.deepEqual(v.details.cellsWithTextChanges, [2]);
  assert.match(String(v.details.reason), /cell 0: the new run failed in this cell/);
});

test('stored outputs: partial when a line vanished but the rest matches; none when nothing numeric was stored', () => {
  const [o, n] = pair([[stream('a 1\nb 2\nc 3\n')]], [[stream('a 1\nc 3\n')]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true);
  assert.equal((v.details.cells as any[])[0].verdict, 'partial');
  assert.equal(v.details.numbersUnpaired, 1);
  const [o2, n2] = pair([[image()], [stream('hello\n')]], [[image()], [stream('hello\n')]]);
  const none = storedOutputsOracle(o2, n2);
  assert.equal(none.oracle, 'none');
  assert.equal(none.matches, true);
  assert.equal(hasStoredNumbers(o2), false);
  assert.equal(hasStoredNumbers(o), true);
});

test('expected-score oracle: within tolerance, beyond, missing ids, no submission, unscorable', () => {
  const truth = parseCsv('PassengerId,Survived\n1,1\n2,0\n3,1\n4,0\n5,1\n');
  const sub = parseCsv('PassengerId,Survived\n1,1\n2,0\n3,1\n4,0\n5,0\n');
  const ok = expectedScoreOracle({ expected: 0.8, metric: 'accuracy', submission: sub, groundTruth: truth });
  assert.equal(ok.matches, true);
  assert.deepEqual(ok.comparisons, [{ cell: null, original: 0.8, new: 0.8, relDiff: 0, ok: true, context: 'accuracy' }]);
  assert.equal(ok.details.direction, 'equal');
  const far = expectedScoreOracle({ expected: 0.95, metric: 'accuracy', submission: sub, groundTruth: truth });
  assert.equal(far.matches, false);
  assert.equal(far.details.direction, 'worse');
  assert.match(String(far.details.reason), /accuracy 0\.8 is 15\.8% from the expected 0\.95 \(tolerance 10%\)/);
  const better = expectedScoreOracle({ expected: 0.5, metric: 'accuracy', submission: sub, groundTruth: truth, tolerance: 0.5 });
  assert.equal(better.details.direction, 'better');
  assert.equal(better.matches, false, '0.8 is 60% above 0.5');
  const partial = expectedScoreOracle({ expected: 0.8, metric: 'accuracy', submission: parseCsv('PassengerId,Survived\n1,1\n2,0\n3,1\n4,0\n'), groundTruth: truth });
  assert.equal(partial.matches, false);
  assert.match(String(partial.details.reason), /lacks 1 of the 5 ids/);
  assert.match(String(expectedScoreOracle({ expected: 1, metric: 'rmse', groundTruth: truth }).details.reason), /wrote no submission/);
  const bad = expectedScoreOracle({ expected: 1, metric: 'rmse', submission: parseCsv('Id,x\n1,2\n'), groundTruth: truth });
  assert.match(String(bad.details.reason), /cannot be scored: the submission has no id column/);
  // lower is better
  const rm = expectedScoreOracle({ expected: 0.2, metric: 'rmse', submission: parseCsv('Id,y\n1,1\n'), groundTruth: parseCsv('Id,y\n1,1.1\n') });
  assert.equal(rm.details.direction, 'better');
  assert.equal(rm.details.higherIsBetter, false);
});

test('judge prefers the expected score; findSubmissionFile picks the likely CSV', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-or-'));
  fs.writeFileSync(path.join(dir, 'sub.csv'), 'Id,y\n1,1\n');
  fs.writeFileSync(path.join(dir, 'truth.csv'), 'Id,y\n1,1\n');
  const [o, n] = pair([[stream('acc 0.5\n')]], [[stream('acc 0.9\n')]]);
  const v = judge({ original: o, current: n, expectedScore: { expected: 1, metric: 'accuracy', groundTruth: path.join(dir, 'truth.csv') }, submission: path.join(dir, 'sub.csv') });
  assert.equal(v.oracle, 'expected-score');
  assert.equal(v.matches, true);
  assert.equal(judge({ original: o, current: n }).oracle, 'stored-outputs');
  assert.equal(judge({ original: o, current: n }).matches, false);
  assert.equal(findSubmissionFile([{ name: 'train_clean.csv' }, { name: 'my_submission.csv', path: '/o/my_submission.csv' }, { name: 'plot.png' }]), '/o/my_submission.csv');
  assert.equal(findSubmissionFile([{ name: 'plot.png' }]), undefined);
});

test('every corpus notebook with stored outputs matches itself (sanity of extraction and alignment)', (t) => {
  const root = path.join(sharedDir(), 'corpus', 'notebooks');
  if (!fs.existsSync(root)) return t.skip('corpus not present');
  let withNumbers = 0;
  for (const comp of fs.readdirSync(root)) {
    for (const f of fs.readdirSync(path.join(root, comp))) {
      let notebook: Notebook;
      try {
        notebook = readNotebookFile(path.join(root, comp, f)).notebook;
      } catch {
        continue; // the reader's business (e.g. nbformat 4 files with v3 "heading" cells)
      }
      const v = storedOutputsOracle(notebook, notebook);
      assert.equal(v.matches, true, `${f}: ${JSON.stringify(v.details.reason)}`);
      if (v.oracle === 'stored-outputs') withNumbers++;
      // Stripping all outputs must never pass when there were numbers.
      const blank: Notebook = { ...notebook, cells: notebook.cells.map((c) => (c.cell_type === 'code' ? { ...c, outputs: [] } : c)) };
      if (v.oracle === 'stored-outputs') assert.equal(storedOutputsOracle(notebook, blank).matches, false, f);
    }
  }
  assert.ok(withNumbers >= 30, `${withNumbers} corpus notebooks have stored numbers`);
});

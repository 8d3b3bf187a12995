import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateAndVerify, rankTrial, distinctCandidates, everySiteCandidates, type Candidate, type TrialOutcome } from '../../../src/agent/generate-verify.js';
import type { Patch } from '../../../src/core/patch.js';
import type { CellRecord } from '../../../src/core/run-result.js';
import { errorSignature, failingLine, failingLineNeighbours } from '../../../src/agent/diagnosis.js';

const cand = (label: string, cell = 1): Candidate => ({
  label,
  patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['x'] }, edits: [{ cell, op: 'replace', newSource: label }], summary: label },
});
const outcome = (rank: TrialOutcome['rank'], cells = 3, reached = Infinity): TrialOutcome => ({ rank, detail: rank, compared: 1, drifted: rank === 'runs-drifts' ? 1 : 0, cellExecutions: cells, reached });
const rec = (index: number, status: CellRecord['status'], error?: { ename: string; evalue: string }): CellRecord =>
  ({ index, status, durationMs: 1, ...(error ? { error: { ...error, traceback: [] } } : {}) }) as CellRecord;

describe('generateAndVerify', () => {
  it('keeps the first candidate that agrees and stops trying', async () => {
    const ranks: TrialOutcome['rank'][] = ['same-error', 'runs-drifts', 'agrees', 'agrees'];
    const seen: number[] = [];
    const r = await generateAndVerify(['a', 'b', 'c', 'd'].map((l) => cand(l)), async (_c, i) => { seen.push(i); return { state: i, outcome: outcome(ranks[i]) }; });
    assert.deepEqual(seen, [0, 1, 2]);
    assert.equal(r.kept?.candidate.label, 'c');
    assert.equal(r.lastIndex, 2);
    assert.deepEqual(r.trials.map((t) => t.kept), [false, false, true]);
  });

  it('falls back to the best-ranked progress when none agrees', async () => {
    const ranks: TrialOutcome['rank'][] = ['error-moved', 'runs-drifts', 'same-error'];
    const r = await generateAndVerify(['a', 'b', 'c'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: outcome(ranks[i]) }));
    assert.equal(r.kept?.candidate.label, 'b');
    assert.equal(r.lastIndex, 2);
  });

  it('a candidate that needs agreement is kept only when it agrees, never as a fallback', async () => {
    const guess = (l: string): Candidate => ({ ...cand(l), needsAgreement: true });
    const ranks: TrialOutcome['rank'][] = ['runs-drifts', 'error-moved', 'agrees'];
    const r = await generateAndVerify([guess('a'), cand('b'), guess('c')], async (_c, i) => ({ state: i, outcome: outcome(ranks[i]) }));
    assert.equal(r.kept?.candidate.label, 'c');
    const r2 = await generateAndVerify([guess('a'), cand('b')], async (_c, i) => ({ state: i, outcome: outcome(ranks[i]) }));
    assert.equal(r2.kept?.candidate.label, 'b', 'the drifting guess is not kept; the progress of an ordinary candidate is');
    const r3 = await generateAndVerify([guess('a')], async (_c, i) => ({ state: i, outcome: outcome('runs-drifts') }));
    assert.equal(r3.kept, undefined);
  });

  it('keeps nothing when every candidate leaves the same error', async () => {
    const r = await generateAndVerify(['a', 'b'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: outcome('same-error') }));
    assert.equal(r.kept, undefined);
    assert.equal(r.trials.length, 2);
  });

  it('stops at the cell-execution budget and says so', async () => {
    const r = await generateAndVerify(['a', 'b', 'c'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: outcome('same-error', 50) }), { maxCandidates: 10, maxCellExecutions: 100 });
    assert.equal(r.trials.length, 2);
    assert.equal(r.stoppedBy, 'cell-executions');
  });
});

describe('rankTrial', () => {
  const before = { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: 'data/train.csv'" };
  it('same error at the target is same-error; another error there is error-moved', () => {
    assert.equal(rankTrial(1, 1, before, [rec(0, 'ok'), rec(1, 'error', before)], [], 2).rank, 'same-error');
    assert.equal(rankTrial(1, 1, before, [rec(0, 'ok'), rec(1, 'error', { ename: 'KeyError', evalue: "'Age'" })], [], 2).rank, 'error-moved');
  });
  it('the same error from a later, different line is progress; the same line moved down, or edited in place, is not', () => {
    const tb = (n: number, text: string) => ['\u001b[0;31mTypeError\u001b[0m   Traceback (most recent call last)', `Cell In[4], line ${n}\n      1 x = 1\n----> ${n} ${text}\n`, 'File /usr/lib/python3/dist-packages/matplotlib/pyplot.py:3440, in hist(x)\n-> 3440 return gca().hist(x)', "TypeError: hist() got an unexpected keyword argument 'normed'"];
    const e = { ename: 'TypeError', evalue: "hist() got an unexpected keyword argument 'normed'" };
    const was = { ...e, traceback: tb(2, 'plt.hist(a, normed=True)') };
    const rec2 = (n: number, text: string) => ({ index: 1, status: 'error', durationMs: 1, error: { ...e, traceback: tb(n, text) } }) as CellRecord;
    assert.equal(rankTrial(1, 1, was, [rec2(3, 'plt.hist(b, normed=True)')], [], 1).rank, 'error-moved');
    assert.equal(rankTrial(1, 1, was, [rec2(3, 'plt.hist(a, normed=True)')], [], 1).rank, 'same-error'); // an import inserted above
    assert.equal(rankTrial(1, 1, was, [rec2(2, 'plt.hist(a, normed=True, bins=3)')], [], 1).rank, 'same-error'); // edited, still failing
    assert.equal(failingLine(was.traceback)?.text, 'plt.hist(a, normed=True)');
    // The older ipykernel layout: the arrow under the notebook's own frame, not a library frame's.
    const old = ['KeyError   Traceback (most recent call last)', '/tmp/ipykernel_4/188575468.py in ?()\n      1 a = 1\n----> 3 df = df.drop(["x"])\n', '/usr/lib/python3/dist-packages/pandas/core/frame.py in ?(self)\n-> 5581 return super().drop()'];
    assert.deepEqual(failingLine(old), { line: 3, text: 'df = df.drop(["x"])' });
    assert.equal(errorSignature(1, { ...e, traceback: tb(3, 'plt.hist(b, normed=True)') }), errorSignature(1, { ...e, traceback: tb(9, 'plt.hist(b,  normed=True)') }));
  });
  it('the same failing text at a later line is progress when its neighbours differ (another occurrence), not when they moved with it', () => {
    const e = { ename: 'ValueError', evalue: "could not convert string to float: '3 - Mr'" };
    const frame = (lines: Array<[number, string]>, at: number) => lines.map(([n, t]) => `${n === at ? '---> ' : '     '}${n} ${t}`).join('\n');
    const tb = (body: string) => ['ValueError   Traceback (most recent call last)', 'Cell In[53], line 1\n----> 1 bin_discart(\'Pclass\')\n', `Cell In[52], line 9, in bin_discart(column)\n${body}\n`, 'File /usr/lib/python3/dist-packages/pandas/core/frame.py:11049, in DataFrame.corr(self)\n> 11049 mat = data.to_numpy(dtype=float)', `ValueError: ${e.evalue}`];
    const src: Array<[number, string]> = [[3, 'print(cols)'], [4, 'corr = df[cols].corr()'], [5, 'show(corr)'], [6, 'plt.figure()'], [7, 'corr = df[cols].corr()'], [8, 'sns.heatmap(corr)']];
    const was = { ...e, traceback: tb(frame(src.slice(0, 3), 4)) };
    const rec2 = (traceback: string[]) => ({ index: 1, status: 'error', durationMs: 1, error: { ...e, traceback } }) as CellRecord;
    // The repaired first occurrence passed; the second one (other neighbours) fails now.
    assert.equal(rankTrial(1, 1, was, [rec2(tb(frame(src.slice(3, 6), 7)))], [], 1).rank, 'error-moved');
    // An import inserted above: the same line and its neighbours, three lines down.
    const shifted = src.slice(0, 3).map(([n, t]): [number, string] => [n + 3, t]);
    assert.equal(rankTrial(1, 1, was, [rec2(tb(frame(shifted, 7)))], [], 1).rank, 'same-error');
    assert.deepEqual(failingLineNeighbours(was.traceback), { above: 'print(cols)', below: 'show(corr)' });
  });
  it('under a run order, a cell above the target that the repaired run never reached failing now is the next problem, not a breakage', () => {
    const loss = { ename: 'AttributeError', evalue: "'GradientBoostingRegressor' object has no attribute 'loss_'" };
    // The author's order ran cell 3 (the target) before cell 2; the baseline stopped at cell 3.
    const baseline = [rec(0, 'ok'), rec(1, 'ok'), rec(3, 'error', { ename: 'NameError', evalue: "name 'GBest' is not defined" }), rec(2, 'not-run')];
    const trial = [rec(0, 'ok'), rec(1, 'ok'), rec(3, 'ok'), rec(2, 'error', loss)];
    const t = rankTrial(3, 0, before, trial, [], 4, baseline);
    assert.equal(t.rank, 'agrees');
    assert.match(t.detail, /next error in cell 2: AttributeError/);
    // Without the baseline (or when cell 2 ran fine in it) it is a breakage, as before.
    assert.equal(rankTrial(3, 0, before, trial, [], 4).rank, 'same-error');
    assert.equal(rankTrial(3, 0, before, trial, [], 4, [rec(0, 'ok'), rec(1, 'ok'), rec(2, 'ok'), rec(3, 'error', before)]).rank, 'same-error');
    // The target never ran (a cell before it in the run failed): no evidence either way.
    const early = rankTrial(3, 0, before, [rec(0, 'ok'), rec(2, 'error', loss), rec(3, 'not-run')], [], 2, baseline);
    assert.equal(early.rank, 'same-error');
    assert.match(early.detail, /failed before cell 3 ran/);
  });
  it('a candidate that leaves its cell uncompilable is never progress', () => {
    const t = rankTrial(1, 1, before, [rec(0, 'ok'), rec(1, 'error', { ename: 'SyntaxError', evalue: "unmatched ')' (1764157130.py, line 1)" })], [], 2);
    assert.equal(t.rank, 'same-error');
    assert.match(t.detail, /does not compile/);
    // A candidate that edits a helper cell above and breaks it is no progress either.
    const b = rankTrial(2, 0, before, [rec(0, 'error', { ename: 'NameError', evalue: "name 'np' is not defined" })], [], 1);
    assert.equal(b.rank, 'same-error');
    assert.match(b.detail, /broke cell 0/);
  });
  it('judges only stored values of cells from the patched one on that ran', () => {
    const cells = [rec(0, 'ok'), rec(1, 'ok'), rec(2, 'ok'), rec(3, 'error', { ename: 'ValueError', evalue: 'x' })];
    const cmp = (cell: number, ok: boolean) => ({ cell, original: 1, new: ok ? 1 : 2, relDiff: ok ? 0 : 1, ok });
    assert.equal(rankTrial(1, 1, before, cells, [cmp(0, false), cmp(1, true), cmp(3, false)], 3).rank, 'agrees');
    const drift = rankTrial(1, 1, before, cells, [cmp(2, false)], 3);
    assert.equal(drift.rank, 'runs-drifts');
    assert.match(drift.detail, /next error in cell 3/);
    // a patch to an earlier cell (a helper defined above) counts from that cell
    assert.equal(rankTrial(2, 0, before, cells, [cmp(1, false)], 3).rank, 'runs-drifts');
  });
  it('distinctCandidates drops repeats and tried ones', () => {
    const a = cand('a');
    const out = distinctCandidates([a, cand('a'), cand('b'), { ...cand('c'), order: [1, 0] }], (c) => c.label !== 'b');
    assert.deepEqual(out.map((c) => c.label), ['a', 'c']);
  });
});

describe('generateAndVerify wall budget', () => {
  it('tries no further candidate past the deadline (the first is always tried)', async () => {
    const r = await generateAndVerify(['a', 'b'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: outcome('same-error') }), { maxCandidates: 10, maxCellExecutions: 1000, deadline: Date.now() - 1 });
    assert.equal(r.trials.length, 1);
    assert.equal(r.stoppedBy, 'wall-time');
  });
});

describe('generateAndVerify: further is better', () => {
  it('an agreeing candidate that fails later does not stop the search; the one that gets further is kept', async () => {
    const outs = [outcome('agrees', 3, 13), outcome('agrees', 3, 20), outcome('agrees', 3)];
    const r = await generateAndVerify(['a', 'b', 'c'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: outs[i] }));
    assert.equal(r.kept?.candidate.label, 'c');
    const r2 = await generateAndVerify(['a', 'b'].map((l) => cand(l)), async (_c, i) => ({ state: i, outcome: [outcome('agrees', 3, 13), outcome('agrees', 3, 20)][i] }));
    assert.equal(r2.kept?.candidate.label, 'b');
  });
});

describe('everySiteCandidates', () => {
  const pin = (cell: number, rule: string): Patch => ({ fixType: 'score-calibration', source: { kind: 'rule', ruleIds: [rule] }, edits: [{ cell, op: 'replace', newSource: `pinned ${cell}` }], summary: `cell ${cell}` });
  it('offers the rule of an acting pin at every site it has, once per rule', () => {
    const all = [pin(3, 'pandas-pin-read-csv-none-na'), pin(4, 'pandas-pin-read-csv-none-na'), pin(9, 'sklearn-pin-x')];
    const out = everySiteCandidates(all, [all[0]!]);
    assert.equal(out.length, 1);
    assert.deepEqual(out[0]!.patch.edits.map((e) => e.cell), [3, 4]);
    assert.match(out[0]!.label, /pandas-pin-read-csv-none-na at every site \(cells 3, 4\)/);
  });
  it('nothing when the acting pins already are every site of their rule', () => {
    const all = [pin(3, 'a'), pin(5, 'b')];
    assert.deepEqual(everySiteCandidates(all, all), []);
    assert.deepEqual(everySiteCandidates(all, []), []);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asideFirst, attemptOutcome, excuseNeverRun, MAX_OVERWRITER_SKIPS, needsFreshRun, needsRecheck, nextMove, runModeFor, skipNeverRun, stuckMove, stuckStop, wallStop } from '../../../src/agent/decisions.js';
import type { Notebook } from '../../../src/core/notebook.js';
import { DEFAULT_BUDGETS } from '../../../src/agent/budgets.js';
import type { FixDiagnosis } from '../../../src/agent/fixers.js';
import type { RunState } from '../../../src/agent/environment.js';
import type { RuleFinding } from '../../../src/fixers/rules/index.js';

const err: FixDiagnosis = { kind: 'fix', fixType: 'error-repair', cell: 2, error: { ename: 'ModuleNotFoundError', evalue: "No module named 'xgboost'", traceback: [] }, signature: 's', why: 'ModuleNotFoundError' };
const drift: FixDiagnosis = { kind: 'fix', fixType: 'score-calibration', cell: 3, signature: 'd', why: 'value drifted' };
const base = { llm: true, budgets: DEFAULT_BUDGETS, fixes: 0, spentUsd: 0, startedAt: Date.now() };
const state = (over: Partial<RunState> = {}): RunState => ({ notebook: { cells: [] } as any, cells: [], ran: [], status: 'ok', complete: true, fresh: true, ...over });

describe('loop decisions', () => {
  it('runModeFor: a reordered notebook is never re-run incrementally', () => {
    assert.deepEqual(runModeFor('incremental', 4, false), { mode: 'incremental', fromCell: 4 });
    assert.deepEqual(runModeFor('incremental', 4, true), { mode: 'full', fromCell: 0 });
    assert.deepEqual(runModeFor('final', 0, true), { mode: 'final', fromCell: 0 });
  });

  it('nextMove: the same problem again escalates once with an LLM, stops without one or after escalation', () => {
    assert.deepEqual(nextMove({ ...base, diagnosis: err }), { kind: 'fix', escalate: false });
    assert.deepEqual(nextMove({ ...base, diagnosis: err, repeat: 'escalate' }), { kind: 'fix', escalate: true });
    assert.equal(nextMove({ ...base, llm: false, diagnosis: err, repeat: 'escalate' }).kind, 'stop');
    const s = nextMove({ ...base, diagnosis: err, repeat: 'stop' });
    assert.equal(s.kind === 'stop' && s.stop.reason, 'no-progress');
  });

  it('nextMove: budgets in order fixes, spend, wall time', () => {
    const r = (x: Partial<typeof base>) => { const m = nextMove({ ...base, ...x, diagnosis: err }); return m.kind === 'stop' ? m.stop.reason : m.kind; };
    assert.equal(r({ fixes: 16 }), 'max-fixes');
    assert.equal(r({ spentUsd: 1 }), 'spend-cap');
    assert.equal(r({ startedAt: Date.now() - 3_600_001 }), 'max-wall-time');
    assert.equal(r({}), 'fix');
  });

  it('needsFreshRun: a drift seen on a run not from a fresh kernel, once per code version; never an error', () => {
    assert.equal(needsFreshRun(drift, state({ fresh: false }), 'k1', undefined), true);
    assert.equal(needsFreshRun(drift, state({ fresh: false }), 'k1', 'k1'), false);
    assert.equal(needsFreshRun(drift, state(), 'k1', undefined), false, 'a fresh run goes to needsRecheck');
    assert.equal(needsFreshRun(err, state({ fresh: false }), 'k1', undefined), false);
  });

  it('needsRecheck: only a drift on a clean fresh run, once per code version', () => {
    assert.equal(needsRecheck(drift, state(), 'k1', undefined), true);
    assert.equal(needsRecheck(drift, state(), 'k1', 'k1'), false);
    assert.equal(needsRecheck(drift, state({ fresh: false }), 'k1', undefined), false);
    assert.equal(needsRecheck(err, state(), 'k1', undefined), false);
    assert.equal(needsRecheck({ kind: 'done' }, state(), 'k1', undefined), false);
  });

  it('attemptOutcome says what the next run showed', () => {
    assert.deepEqual(attemptOutcome({ kind: 'done' }), { attempt: 'fixed: the run is clean and matches', fix: 'clean' });
    assert.equal(attemptOutcome(drift).fix, 'value drifted');
  });

  it('stuckStop: a library the environment lacks or an input the data lacks is unfixable; else no-fix-available', () => {
    const finding = { cell: 2, ruleId: 'env-unavailable-library', message: 'xgboost is not in the environment', autoFixable: false } as RuleFinding;
    const common = { dataFiles: ['train.csv'], hasData: true, llm: { enabled: false, reason: 'no key' } };
    assert.deepEqual(stuckStop({ ...common, diagnosis: err, findings: [finding] }), { reason: 'unfixable', detail: 'xgboost is not in the environment' });
    const missing: FixDiagnosis = { ...err, error: { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: '../input/test.csv'", traceback: [] } };
    assert.equal(stuckStop({ ...common, diagnosis: missing, findings: [] }).reason, 'unfixable');
    const offline: FixDiagnosis = { ...err, error: { ename: 'URLError', evalue: '<urlopen error [Errno -3] Temporary failure in name resolution>', traceback: [] } };
    const net = stuckStop({ ...common, diagnosis: offline, findings: [] });
    assert.equal(net.reason, 'unfixable');
    assert.match(net.detail, /no network/);
    const other = stuckStop({ ...common, diagnosis: drift, findings: [] });
    assert.equal(other.reason, 'no-fix-available');
    assert.match(other.detail, /rules only: no key/);
  });

  it('stuckStop names the library the error names, when the cell imports several the environment lacks', () => {
    const common = { dataFiles: ['train.csv'], hasData: true, llm: { enabled: false, reason: 'no key' } };
    const findings = [
      { cell: 2, ruleId: 'env-unavailable-library', message: 'missingno is not available in debian13', autoFixable: false },
      { cell: 2, ruleId: 'env-missing-module', message: 'catboost is not installed in debian13', autoFixable: false },
    ] as RuleFinding[];
    const catboost: FixDiagnosis = { ...err, error: { ename: 'ModuleNotFoundError', evalue: "No module named 'catboost'", traceback: [] } };
    assert.deepEqual(stuckStop({ ...common, diagnosis: catboost, findings }), { reason: 'unfixable', detail: 'catboost is not installed in debian13' });
  });

  it('excuseNeverRun: only a never-run cell, only an error nothing fixes', () => {
    const d = { kind: 'fix', fixType: 'error-repair', cell: 4, why: 'ValueError: x', signature: 's', error: { ename: 'ValueError', evalue: 'x', traceback: [] } } as unknown as FixDiagnosis;
    const stop = { reason: 'no-fix-available' as const, detail: 'no rule proposes a patch' };
    assert.equal(excuseNeverRun(d, stop, new Set([4]))?.ename, 'ValueError');
    assert.equal(excuseNeverRun(d, stop, new Set([4]))?.neverRun, true);
    assert.equal(excuseNeverRun(d, stop, new Set([4]))?.skipped, true, 'not run: the recorded cells after it never had its effects');
    assert.equal(excuseNeverRun(d, stop, new Set([3])), undefined);
    assert.equal(excuseNeverRun(d, { reason: 'budget-exceeded', detail: '' } as any, new Set([4])), undefined);
    const timeout = { ...d, error: undefined } as unknown as FixDiagnosis;
    assert.equal(excuseNeverRun(timeout, stop, new Set([4])), undefined, 'a timeout or a dead kernel is not an error to excuse');
  });

  it('a cell the author did not finish that fails with nothing to fix is skipped too, named as unfinished', () => {
    const d = { kind: 'fix', fixType: 'error-repair', cell: 4, why: 'ValueError: x', signature: 's', error: { ename: 'ValueError', evalue: 'x', traceback: [] } } as unknown as FixDiagnosis;
    const stop = { reason: 'no-fix-available' as const, detail: 'no rule proposes a patch' };
    const nb = { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 4 } as unknown as Notebook;
    const move = stuckMove({ diagnosis: d, stop, notebook: nb, unfinished: new Set([4]), skipped: new Set() });
    assert.equal(move.kind, 'excuse');
    assert.ok(move.kind === 'excuse' && move.expected.skipped && !move.expected.neverRun && /did not finish/.test(move.expected.reason));
    assert.equal(stuckMove({ diagnosis: d, stop, notebook: nb, unfinished: new Set([3]), skipped: new Set() }).kind, 'stop');
    assert.equal(stuckMove({ diagnosis: d, stop: { reason: 'budget-exceeded', detail: '' } as any, notebook: nb, unfinished: new Set([4]), skipped: new Set() }).kind, 'stop');
  });

  it('asideFirst: a drift is set aside before the rules only when the budget left cannot pay for two runs', () => {
    const budgets = { maxFixes: 16, spendCapUsd: 1, maxWallS: 900 };
    const start = 1_000_000;
    // 900 s budget, 660 s spent: 240 s left; a 115 s run (x2 = 230 s) still fits, a 125 s one does not.
    assert.equal(asideFirst(budgets, start, 115_000, start + 660_000), false);
    assert.equal(asideFirst(budgets, start, 125_000, start + 660_000), true);
    assert.equal(asideFirst(budgets, start, 0, start + 899_000), false, 'a run that costs nothing');
    assert.equal(asideFirst(budgets, start, 1, start + 901_000), true, 'past the budget');
  });
  it('wallStop: a skip past the wall budget stops the loop instead (it would cost another run)', () => {
    const budgets = { maxFixes: 16, spendCapUsd: 1, maxWallS: 600 };
    assert.equal(wallStop(budgets, Date.now() - 601_000, 'budget-exceeded: cell 41 took 593 s')?.reason, 'max-wall-time');
    assert.match(wallStop(budgets, Date.now() - 601_000, 'budget-exceeded: cell 41')!.detail, /cell 41/);
    assert.equal(wallStop(budgets, Date.now() - 10_000, 'x'), undefined);
  });

  it('skipNeverRun: a never-run cell over the time budget or out of memory is skipped; errors and ran cells are not', () => {
    const slow = { kind: 'fix', fixType: 'runtime-reduction', cell: 4, why: 'budget-exceeded: cell 4 took 590 s', signature: 'slow:4' } as unknown as FixDiagnosis;
    const skipped = skipNeverRun(slow, new Set([4]));
    assert.equal(skipped?.cell, 4);
    assert.deepEqual([skipped?.expected.ename, skipped?.expected.neverRun, skipped?.expected.skipped], ['BudgetExceededError', true, true]);
    assert.match(skipped!.expected.reason!, /never ran this cell.*budget-exceeded: cell 4 took 590 s.*not run/);
    const oom = { ...slow, why: 'out of memory: cell 4', error: { ename: 'MemoryError', evalue: '', traceback: [] } } as unknown as FixDiagnosis;
    assert.equal(skipNeverRun(oom, new Set([4]))?.expected.ename, 'MemoryError');
    // The run's budget ran out in a never-run cell after a slower recorded one: the never-run cell goes.
    const ranOut = { ...slow, cell: 2, why: 'budget-exceeded: cell 2 took 140 s', signature: 'slow:2', limitCell: 4 } as unknown as FixDiagnosis;
    assert.equal(skipNeverRun(ranOut, new Set([4]))?.cell, 4);
    assert.match(skipNeverRun(ranOut, new Set([4]))!.expected.reason!, /budget ran out in it; budget-exceeded: cell 2 took 140 s/);
    assert.equal(skipNeverRun(slow, new Set([3])), undefined, 'a cell the author ran is held to its record');
    const error = { ...slow, fixType: 'error-repair', error: { ename: 'ValueError', evalue: 'x', traceback: [] } } as unknown as FixDiagnosis;
    assert.equal(skipNeverRun(error, new Set([4])), undefined, "an error is excuseNeverRun's, once nothing fixes it");
    // A cell the author's run did not finish (saved while it ran) goes the same way, not marked never-run.
    const open = skipNeverRun(slow, new Set(), new Set([4]));
    assert.deepEqual([open?.cell, open?.expected.skipped, open?.expected.neverRun], [4, true, undefined]);
    assert.match(open!.expected.reason!, /did not finish this cell.*saved while it ran.*not run/);
    assert.equal(skipNeverRun(ranOut, new Set(), new Set([4]))?.cell, 4);
    assert.equal(skipNeverRun(error, new Set(), new Set([4])), undefined);
  });

  it('stuckMove: skip the failing never-run cell, else a never-run cell above that rebinds what it reads, else stop', () => {
    const code = (source: string, ran: boolean) => ({ cell_type: 'code', source, metadata: {}, outputs: ran ? [{ output_type: 'stream', name: 'stdout', text: 'x' }] : [], execution_count: ran ? 1 : null });
    // Cell 0 (ran) binds train; cell 1 (never ran) rebinds it to None; cell 2 (ran) reads it and fails.
    const nb = { cells: [code('train = load()', true), code('train = fill(train)', false), code('train["Age"]', true)], metadata: {}, nbformat: 4, nbformat_minor: 4 } as unknown as Notebook;
    const fails = (cell: number) => ({ kind: 'fix', fixType: 'error-repair', cell, why: 'TypeError: x', signature: 's', error: { ename: 'TypeError', evalue: 'x', traceback: [] } }) as unknown as FixDiagnosis;
    const stop = { reason: 'no-fix-available' as const, detail: 'no rule proposes a patch' };
    const over = stuckMove({ diagnosis: fails(2), stop, notebook: nb, neverRun: new Set([1]), skipped: new Set() });
    assert.equal(over.kind === 'excuse' && over.cell, 1);
    assert.deepEqual(over.kind === 'excuse' && over.expected.overwrites, { cell: 2, names: ['train'] });
    const own = stuckMove({ diagnosis: fails(1), stop, notebook: nb, neverRun: new Set([1]), skipped: new Set() });
    assert.equal(own.kind === 'excuse' && own.cell, 1, 'the failing cell itself never ran');
    assert.equal(own.kind === 'excuse' && own.expected.overwrites, undefined);
    assert.deepEqual(stuckMove({ diagnosis: fails(2), stop, notebook: nb, skipped: new Set() }), { kind: 'stop', stop }, 'no record of never-run cells (or no way to excuse one)');
    const full = new Set(Array.from({ length: MAX_OVERWRITER_SKIPS }, (_, i) => 10 + i));
    assert.equal(stuckMove({ diagnosis: fails(2), stop, notebook: nb, neverRun: new Set([1]), skipped: full }).kind, 'stop', 'at most MAX_OVERWRITER_SKIPS skips per notebook');
    assert.equal(stuckMove({ diagnosis: fails(2), stop: { reason: 'max-fixes', detail: '' } as any, notebook: nb, neverRun: new Set([1]), skipped: new Set() }).kind, 'stop', 'a budget stop is not a missing repair');
  });
});

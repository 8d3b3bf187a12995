/** The loop's paths against a scripted Environment and scripted fixers: no sandbox, no kernel. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNotebook } from '../../support/notebooks.js';
import { sourceText, type Notebook } from '../../../src/core/notebook.js';
import { judge } from '../../../src/agent/oracle/index.js';
import { DEFAULT_BUDGETS, type Budgets } from '../../../src/agent/budgets.js';
import { DEFAULT_VERIFY_LIMITS } from '../../../src/agent/generate-verify.js';
import { modernizationLoop, type LoopInput, type LoopOutcome } from '../../../src/agent/loop.js';
import type { AgentEvent } from '../../../src/agent/events.js';
import type { Fixer } from '../../../src/agent/fixers.js';
import { TrajectoryEvent } from '../../../src/core/trajectory-schema.js';
import { FakeEnvironment, replaceCell, scriptedFixer, type Behaviour } from './fake-environment.js';

// Any error no fixer here knows (a NameError for an unbound name would be 'unfixable': decisions.stuckStop).
const failure = { error: { ename: 'ValueError', evalue: 'broken input' } };
/** `broken...` raises; `print N` prints N; anything else runs quietly. */
const simple = (src: string): Behaviour => (src.startsWith('broken') ? failure : src.startsWith('print ') ? { stdout: `${src.slice(6)}\n` } : undefined);

async function run(nb: Notebook, env: FakeEnvironment, fixers: Fixer[], extra: Partial<LoopInput> = {}, budgets: Partial<Budgets> = {}) {
  const events: AgentEvent[] = [];
  const stream = modernizationLoop({
    original: nb, work: nb, environment: env, fixers, budgets: { ...DEFAULT_BUDGETS, ...budgets }, spentUsd: () => 0, startedAt: Date.now(),
    incremental: true, verifyLimits: DEFAULT_VERIFY_LIMITS, forbiddenPaths: [],
    judge: (executed) => judge({ original: nb, current: executed }),
    stuck: { findings: [], dataFiles: [], hasData: false, llm: { enabled: fixers.some((f) => f.name === 'llm'), reason: 'test' } },
    ...extra,
  });
  let out: LoopOutcome;
  for (let r = await stream.next(); ; r = await stream.next()) {
    if (r.done) {
      out = r.value;
      break;
    }
    events.push(r.value);
  }
  for (const e of events) if (e.type !== 'exec') assert.ok(TrajectoryEvent.safeParse(JSON.parse(JSON.stringify(e))).success, `event ${e.type} fits the trajectory schema`);
  return { out, events, types: events.filter((e) => e.type !== 'exec').map((e) => e.type) };
}

describe('modernizationLoop (fake environment)', () => {
  it('reproduces after a patch: incremental re-run from the patched cell, then a final clean run decides', async () => {
    const nb = makeNotebook(['a = 1', 'broken()', 'b = 2']);
    const env = new FakeEnvironment(simple);
    const { out, events } = await run(nb, env, [scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(1, 'fixed()') }])]);
    assert.equal(out.stop.reason, 'reproduced');
    assert.deepEqual(env.runs.map((r) => [r.mode, r.fromCell]), [['full', 0], ['incremental', 1], ['final', 0]]);
    const verdict = events.find((e) => e.type === 'verdict');
    assert.equal(verdict?.type === 'verdict' && verdict.verdict.verdict, 'reproduced');
    const fix = events.find((e) => e.type === 'fix');
    assert.deepEqual(fix?.type === 'fix' && fix.changes, [{ cell: 1, before: 'broken()', after: 'fixed()' }]);
    assert.equal(sourceText(out.final!.executed.cells[1].source), 'fixed()');
  });

  it('a clean first run needs no fix and no second run', async () => {
    const env = new FakeEnvironment(simple);
    const { out, types } = await run(makeNotebook(['a = 1']), env, []);
    assert.equal(out.stop.reason, 'reproduced');
    assert.equal(env.runs.length, 1);
    assert.deepEqual(types, ['run', 'execution', 'diagnosis', 'stop', 'verdict']);
  });

  it('stops with no-fix-available, naming rules-only, when no fixer proposes', async () => {
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [scriptedFixer('rules', [])]);
    assert.equal(out.stop.reason, 'no-fix-available');
    assert.match(out.stop.detail, /rules only: test/);
  });

  it('a cell the author never ran fails and no fixer repairs it: skipped from a fresh kernel, the run goes on, the verdict names it', async () => {
    const nb = makeNotebook(['a = 1', 'broken()', 'print 2']);
    const env = new FakeEnvironment(simple);
    const { out, types, events } = await run(nb, env, [scriptedFixer('rules', [])], { neverRun: new Set([1]) });
    assert.equal(out.stop.reason, 'reproduced');
    assert.ok(types.includes('excused'));
    // What it bound before failing must not stay: the re-run without it starts from a fresh kernel.
    assert.deepEqual(env.runs.map((r) => [r.mode, r.fromCell]), [['full', 0], ['full', 0]]);
    const verdict = events.find((e) => e.type === 'verdict');
    assert.match(verdict?.type === 'verdict' ? verdict.verdict.reason : '', /not run: cells the author never ran \(or did not finish\) that fail, .*cell 1 ValueError/);
  });

  it('a never-run cell that runs but rebinds what a failing recorded cell reads: skipped, a fresh run, the recorded cell passes', async () => {
    // `x = None` (never run by the author) breaks `use(x)`; the fake's state is whether cell 1 ran in this run.
    const boundToNone = new Set<number>();
    const env = new FakeEnvironment((src, cell, runNo) => {
      if (src === 'x = None') boundToNone.add(runNo);
      return src === 'use(x)' && boundToNone.has(runNo) ? { error: { ename: 'TypeError', evalue: "'NoneType' object is not subscriptable" } } : undefined;
    });
    const { out, events } = await run(makeNotebook(['x = 1', 'x = None', 'use(x)']), env, [scriptedFixer('rules', [])], { neverRun: new Set([1]) });
    assert.equal(out.stop.reason, 'reproduced');
    const excused = events.find((e) => e.type === 'excused');
    assert.ok(excused?.type === 'excused' && excused.cell === 1 && excused.expected.skipped && excused.expected.overwrites?.cell === 2, JSON.stringify(excused));
    assert.deepEqual(env.runs.map((r) => [r.mode, r.fromCell]), [['full', 0], ['full', 0]]);
    const verdict = events.find((e) => e.type === 'verdict');
    assert.match(verdict?.type === 'verdict' ? verdict.verdict.reason : '', /cell 1 rebinds x for cell 2/);
  });

  it('skipping such a cell that does not help stops as before, naming the recorded cell\'s error', async () => {
    const env = new FakeEnvironment((src) => (src === 'use(x)' ? { error: { ename: 'TypeError', evalue: 'always' } } : undefined));
    const { out, events } = await run(makeNotebook(['x = 1', 'x = None', 'use(x)']), env, [scriptedFixer('rules', [])], { neverRun: new Set([1]) });
    assert.equal(out.stop.reason, 'no-fix-available');
    assert.match(out.stop.detail, /cell 2/);
    assert.equal(events.filter((e) => e.type === 'excused').length, 1, 'tried once');
  });

  it('a cell the author ran is never excused, nor a never-run cell a fixer is still working on', async () => {
    const ran = await run(makeNotebook(['a = 1', 'broken()']), new FakeEnvironment(simple), [scriptedFixer('rules', [])], { neverRun: new Set([0]) });
    assert.equal(ran.out.stop.reason, 'no-fix-available');
    const fixed = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(0, 'fixed()') }])], { neverRun: new Set([0]) });
    assert.equal(fixed.out.stop.reason, 'reproduced');
    assert.ok(!fixed.types.includes('excused'));
  });

  it('stops with no-progress when the same problem survives two patches (no LLM to escalate to)', async () => {
    const fixer = scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(0, 'broken(1)') }, { kind: 'patch', patch: replaceCell(0, 'broken(2)') }]);
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [fixer]);
    assert.equal(out.stop.reason, 'no-progress');
  });

  it('escalates once to the LLM (rules skipped, escalate set), then stops', async () => {
    const rules = scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(0, 'broken(1)') }, (p) => (p.escalate ? undefined : { kind: 'patch', patch: replaceCell(0, 'broken(x)') })]);
    const llm = scriptedFixer('llm', [(p) => ({ kind: 'patch', patch: replaceCell(0, p.escalate ? 'broken(3)' : 'broken(2)', 'llm') })]);
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [rules, llm]);
    assert.equal(out.stop.reason, 'no-progress');
    assert.ok(llm.seen.some((p) => p.escalate), 'the LLM was asked with escalate');
  });

  it('max-fixes is checked before proposing', async () => {
    const env = new FakeEnvironment((src) => (src.startsWith('broken') ? failure : undefined));
    const fixer = scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(0, 'ok()') }]);
    const { out } = await run(makeNotebook(['broken()', 'broken()']), env, [fixer], {}, { maxFixes: 1 });
    assert.equal(out.stop.reason, 'max-fixes');
  });

  it('the spend cap stops the loop before any fixer is asked', async () => {
    const fixer = scriptedFixer('llm', []);
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [fixer], { spentUsd: () => 2 }, { spendCapUsd: 1 });
    assert.equal(out.stop.reason, 'spend-cap');
    assert.equal(fixer.seen.length, 0);
  });

  it('a fixer can stop the loop with a typed reason (the LLM failed)', async () => {
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [scriptedFixer('llm', [{ kind: 'stop', reason: 'llm-error', detail: 'HTTP 500' }])]);
    assert.deepEqual(out.stop, { reason: 'llm-error', detail: 'HTTP 500' });
  });

  it('an abort while a fixer works (an LLM call cancelled by Ctrl-C) stops as interrupted, not as that fixer\'s failure', async () => {
    const ctl = new AbortController();
    const llm = scriptedFixer('llm', [() => {
      ctl.abort();
      return { kind: 'stop', reason: 'llm-error', detail: 'llm: the call was interrupted' };
    }]);
    const { out } = await run(makeNotebook(['broken()']), new FakeEnvironment(simple), [llm], { signal: ctl.signal });
    assert.equal(out.stop.reason, 'interrupted');
  });

  it('generate and verify: the candidate that runs is kept, the other recorded as a trial', async () => {
    const cands = [{ label: 'bad', patch: replaceCell(1, 'broken(again)') }, { label: 'good', patch: replaceCell(1, 'ok()') }];
    const fixer = scriptedFixer('rules', [{ kind: 'candidates', candidates: cands, accept: () => true, rank: (s) => ({ rank: s.cells.some((c) => c.error) ? 'same-error' : 'agrees', detail: '', compared: 0, drifted: 0, cellExecutions: 1, reached: Infinity }) }]);
    const { out, events } = await run(makeNotebook(['a = 1', 'broken()']), new FakeEnvironment(simple), [fixer]);
    assert.equal(out.stop.reason, 'reproduced');
    assert.equal(events.filter((e) => e.type === 'candidate').length, 2);
    const verify = events.find((e) => e.type === 'verify');
    assert.equal(verify?.type === 'verify' && verify.kept, 1);
    const fix = events.find((e) => e.type === 'fix');
    assert.deepEqual(fix?.type === 'fix' && fix.fix.candidates?.map((c) => [c.label, c.kept]), [['bad', false], ['good', true]]);
  });

  it('rejects an invalid LLM patch before running it', async () => {
    const fixer = scriptedFixer('llm', [{ kind: 'patch', patch: replaceCell(0, 'def (:', 'llm') }]);
    const env = new FakeEnvironment(simple);
    const { out, types } = await run(makeNotebook(['broken()']), env, [fixer]);
    assert.ok(types.includes('rejected'));
    assert.equal(out.stop.reason, 'no-fix-available');
    assert.equal(env.runs.length, 1, 'the rejected patch never ran');
  });

  it('a drift on a clean run is checked by a second run on the re-seeded kernel: values that differ are not judged', async () => {
    const original = makeNotebook(['print 0.81']);
    (original.cells[0] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.81\n' }];
    const env = new FakeEnvironment((_src, _cell, runNo) => ({ stdout: runNo === 0 ? '0.52\n' : '0.64\n' }));
    const { out, types } = await run(original, env, []);
    assert.equal(env.runs[1]?.kernel, 'python3-hashseed1');
    assert.ok(types.includes('rerun'));
    assert.equal(out.stop.reason, 'reproduced');
  });

  it('a drift nothing repairs, seen after an incremental fix, gets a clean run from a fresh kernel and its second run before the loop stops on it', async () => {
    const original = makeNotebook(['a = 1', 'broken()', 'print T']);
    (original.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.81\n' }];
    // A timing: every run prints another value.
    const env = new FakeEnvironment((src, _cell, runNo) => (src.startsWith('broken') ? failure : src.startsWith('print T') ? { stdout: `0.${runNo + 2}1\n` } : undefined));
    const { out, events } = await run(original, env, [scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(1, 'fixed()') }])]);
    assert.deepEqual(env.runs.map((r) => r.mode), ['full', 'incremental', 'full', 'full']);
    assert.equal(env.runs[3]?.kernel, 'python3-hashseed1', 'the second clean run is the re-check');
    assert.ok(events.some((e) => e.type === 'rerun'));
    assert.equal(out.stop.reason, 'reproduced');
  });

  it('a drift two clean runs agree on still stops the loop after its fresh run (no repair, no endless re-runs)', async () => {
    const original = makeNotebook(['a = 1', 'broken()', 'print T']);
    (original.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.81\n' }];
    const env = new FakeEnvironment((src) => (src.startsWith('broken') ? failure : src.startsWith('print T') ? { stdout: '0.52\n' } : undefined));
    const { out } = await run(original, env, [scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(1, 'fixed()') }])]);
    assert.equal(out.stop.reason, 'no-fix-available');
    assert.deepEqual(env.runs.map((r) => r.mode), ['full', 'incremental', 'full', 'full']);
  });

  it('a drift that two runs here agree on, in a cell fed by an unseeded draw, is set aside when no rule addresses it (before any model is asked)', async () => {
    const original = makeNotebook(['from sklearn.ensemble import RandomForestClassifier\nrf = RandomForestClassifier()', 'pred = rf.predict(X)\nprint(pred[:3])', 'print(0.81)']);
    (original.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '[0 1 1]\n' }];
    (original.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.81\n' }];
    // Every run here draws the same ([0 1 0]) but not the author's; the last cell is deterministic and agrees.
    const env = new FakeEnvironment((src) => (src.startsWith('pred') ? { stdout: '[0 1 0]\n' } : src.startsWith('print(0.81') ? { stdout: '0.81\n' } : undefined));
    let asked = 0;
    const model: Fixer = { name: 'llm', async propose() { asked++; return undefined; } };
    const { out, events } = await run(original, env, [scriptedFixer('rules', []), model]);
    assert.equal(out.stop.reason, 'reproduced');
    assert.equal(asked, 0, 'no model call for a draw');
    const e = events.find((x) => x.type === 'unseeded');
    assert.ok(e && e.type === 'unseeded');
    assert.deepEqual(e.cells.map((c) => c.cell), [1]);
    assert.match(e.cells[0]!.draw, /RandomForestClassifier\(\.\.\.\) without random_state in cell 0/);
    const verdict = events.find((x) => x.type === 'verdict');
    assert.match(verdict?.type === 'verdict' ? verdict.verdict.reason : '', /nondeterministic value/);
  });

  it('the same drift with the estimator seeded is not set aside', async () => {
    const original = makeNotebook(['from sklearn.ensemble import RandomForestClassifier\nrf = RandomForestClassifier(random_state=0)', 'pred = rf.predict(X)\nprint(pred[:3])']);
    (original.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '[0 1 1]\n' }];
    const env = new FakeEnvironment((src) => (src.startsWith('pred') ? { stdout: '[0 1 0]\n' } : undefined));
    const { out, types } = await run(original, env, [scriptedFixer('rules', [])]);
    assert.equal(out.stop.reason, 'no-fix-available');
    assert.ok(!types.includes('unseeded'));
  });

  it('a drift in a cell fed by a least-squares fit the live state shows nearly singular is set aside as ill-conditioned; a well-conditioned fit still drifts', async () => {
    const original = makeNotebook(['from sklearn.linear_model import LinearRegression\nlr = LinearRegression().fit(X, y)', 'print(rmse(lr.predict(Xt)))', 'print(0.5)']);
    (original.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.15\n' }];
    (original.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '0.5\n' }];
    const fit = (condition: number) => (src: string): Behaviour => (src.startsWith('print(rmse') ? { stdout: '4881693.7\n', variables: [{ name: 'lr', type: 'LinearRegression', module: 'sklearn.linear_model._base', condition }] } : src.startsWith('print(0.5') ? { stdout: '0.5\n' } : undefined);
    const { out, events } = await run(original, new FakeEnvironment(fit(3e16)), [scriptedFixer('rules', [])]);
    assert.equal(out.stop.reason, 'reproduced');
    const e = events.find((x) => x.type === 'ill-conditioned');
    assert.ok(e && e.type === 'ill-conditioned');
    assert.deepEqual(e.cells, [{ cell: 1, model: 'lr', condition: 3e16 }]);
    const verdict = events.find((x) => x.type === 'verdict');
    assert.match(verdict?.type === 'verdict' ? verdict.verdict.reason : '', /ill-conditioned \(nearly singular least squares\) value/);
    assert.ok(verdict?.type === 'verdict' && verdict.verdict.oracle.comparisons.some((c) => c.unjudged === 'ill-conditioned' && c.original === 0.15));
    const well = await run(original, new FakeEnvironment(fit(40)), [scriptedFixer('rules', [])]);
    assert.equal(well.out.stop.reason, 'no-fix-available');
    assert.ok(!well.types.includes('ill-conditioned'));
  });

  it('a failing environment ends with sandbox-error; an aborted signal with interrupted', async () => {
    const env = new FakeEnvironment(simple);
    env.failWith = new Error('the sandbox died');
    assert.equal((await run(makeNotebook(['a = 1']), env, [])).out.stop.reason, 'sandbox-error');
    const ac = new AbortController();
    ac.abort();
    assert.equal((await run(makeNotebook(['a = 1']), new FakeEnvironment(simple), [], { signal: ac.signal })).out.stop.reason, 'interrupted');
  });
});

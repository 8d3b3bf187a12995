/**
 * The modernization loop, readable in one sitting (mini-swe-agent style: dependencies passed in,
 * typed stop reasons). observe (run) -> diagnose -> propose (fixers in order) -> validate ->
 * apply -> re-execute (incrementally when safe) -> ... Only a clean run from a fresh kernel
 * decides. Everything that happens goes out as an AgentEvent; the loop keeps no report.
 */
import { errorMessage } from '../core/errors.js';
import { log } from '../core/log.js';
import type { Patch } from '../core/patch.js';
import type { ExpectedError } from '../core/run-result.js';
import { ProgressTracker } from './budgets.js';
import { asideFirst, attemptOutcome, needsFreshRun, needsRecheck, nextMove, skipNeverRun, stuckMove, stuckStop, wallStop, type Stop } from './decisions.js';
import { diagnose } from './diagnosis.js';
import type { RunState } from './environment.js';
import { eventStream, type AgentEvent, type Emit } from './events.js';
import type { LoopInput, LoopOutcome } from './loop-types.js';
import { excuseUnstable, type UnjudgedReason } from './oracle/index.js';
import { UnseededDrift } from './unseeded-drift.js';
import { illConditionedAside } from './ill-conditioned-drift.js';
import { staleInputsAside } from './stale-inputs.js';
import { Runner } from './runner.js';
import { decideVerdict } from './verdict.js';
import { Workbench } from './workbench.js';

export type { LoopInput, LoopOutcome } from './loop-types.js';

const INTERRUPTED: Stop = { reason: 'interrupted', detail: 'interrupted by the user' };

export function modernizationLoop(input: LoopInput): AsyncGenerator<AgentEvent, LoopOutcome> {
  return eventStream<AgentEvent, LoopOutcome>((emit) => loop(input, emit));
}

async function loop(d: LoopInput, emit: Emit): Promise<LoopOutcome> {
  const env = d.environment;
  const bench = new Workbench(d.work, emit);
  const runner = new Runner(env, bench, emit, d.incremental, d.original);
  const unstable = new Set<string>(); // values that differed between two clean runs: listed, not judged
  const unstableWhy = new Map<string, UnjudgedReason>(); // those set aside for another reason than a second run (ill-conditioned)
  const rawOracle = (s: RunState) => d.judge(s.notebook, env.submission());
  const oracle = (s: RunState) => excuseUnstable(rawOracle(s), unstable, unstableWhy);
  const progress = new ProgressTracker();
  const done = (stop: Stop, final?: LoopOutcome['final']): LoopOutcome => {
    emit({ type: 'stop', ...stop });
    return { work: bench.work, ...(bench.runOrder ? { runOrder: bench.runOrder } : {}), ...(final ? { final } : {}), stop };
  };
  let lastPatched: string | undefined; // signature of the problem the last patch addressed
  let kernelStale = false; // the kernel's state is not the kept state's (a rejected trial ran last)
  let checkedFor: string | undefined; // the code version whose drift a second clean run already checked
  const draws = new UnseededDrift();
  const overwritersSkipped = new Set<number>(); // never-run cells skipped for rebinding what a recorded cell reads
  let unboundSkips = 0; // recorded cells skipped for reading a name no cell binds
  const slicedInputs = new Set<string>(); // inputs the data lacks (modules the environment lacks) whose dependent code was set aside
  let slicedShare = 0; // the share of the code cells those slices took
  let step = 0;
  try {
    let state = await runner.execute('full', 0);
    // A never-run cell's error or resource limit joins the record (decisions.excuseNeverRun /
    // skipNeverRun); the run resumes from that cell.
    const excuse = async (cell: number, expected: ExpectedError): Promise<RunState> => {
      env.excuse!(cell, expected);
      emit({ type: 'excused', cell, expected });
      // A skipped cell will not run again to rebind what it bound before failing: start from a fresh kernel.
      const next = await runner.reexecute(step, [cell], state, kernelStale || !!expected.skipped);
      kernelStale = false;
      return next;
    };
    for (;;) {
      if (d.signal?.aborted) return done(INTERRUPTED);
      // observe -> diagnose
      let diagnosis = diagnose(state.status, state.cells, () => oracle(state));
      if (needsRecheck(diagnosis, state, bench.codeKey, checkedFor)) {
        checkedFor = bench.codeKey;
        const again = await runner.recheckDrift(rawOracle(state), rawOracle, unstable);
        if (again) {
          state = again;
          diagnosis = diagnose(state.status, state.cells, () => oracle(state));
        }
      }
      emit({ type: 'diagnosis', diagnosis });
      const last = bench.attempts.at(-1);
      if (last) last.outcome = attemptOutcome(diagnosis).attempt;

      if (diagnosis.kind === 'done') {
        // Only a clean run from a fresh kernel decides; if it disagrees, keep fixing from it.
        if (!state.fresh) {
          state = await runner.execute('final', 0);
          if (diagnose(state.status, state.cells, () => oracle(state)).kind !== 'done') continue;
        }
        const final = { run: env.runResult(state), executed: state.notebook };
        const verdict = decideVerdict({ original: d.original, executed: final.executed, run: final.run, expected: d.expected, tolerance: d.tolerance, unstable, unstableWhy });
        const out = done({ reason: 'reproduced', detail: 'the clean run from a fresh kernel reproduces' }, final);
        emit({ type: 'verdict', verdict });
        return out;
      }
      // A never-run cell over a limit is skipped before any rewrite is tried: nothing could verify one.
      const skipped = env.excuse && d.neverRun ? skipNeverRun(diagnosis, d.neverRun, d.unfinished) : undefined;
      if (skipped) {
        const over = wallStop(d.budgets, d.startedAt, diagnosis.why);
        if (over) return done(over);
        state = await excuse(skipped.cell, skipped.expected);
        continue;
      }
      const move = nextMove({
        diagnosis, llm: d.stuck.llm.enabled, budgets: d.budgets, fixes: bench.fixCount, spentUsd: d.spentUsd(), startedAt: d.startedAt,
        ...(lastPatched === diagnosis.signature ? { repeat: progress.record(diagnosis.signature) } : {}),
      });
      if (move.kind === 'stop') return done(move.stop);

      // propose: fixers in order (rules, then the LLM); a verified candidate is applied at once.
      step += 1;
      const trigger = diagnosis.error ? { ename: diagnosis.error.ename, evalue: diagnosis.error.evalue } : undefined;
      let patch: Patch | undefined;
      let verified = false;
      // The tool mode's try_patch: the patch on a copy of the code, run in the live kernel, not kept.
      const base = state;
      const trial = (patch: Patch) => bench.trying({ label: 'try_patch', patch }, async () => {
        const s = await runner.reexecute(step, patch.edits.map((e) => e.cell), base, kernelStale);
        kernelStale = true; // the kernel now holds the trial's state, not the kept code's
        return { state: s, verdict: oracle(s) };
      });
      // A drift in a cell fed by an unseeded draw is set aside before any model is asked (unseeded-drift.ts).
      const drawn = (): boolean => {
        const aside = draws.setAside(bench.work, bench.codeKey, diagnosis, () => oracle(state), unstable);
        if (aside) emit({ type: 'unseeded', ...aside });
        // Or fed by a least-squares fit of a nearly singular design, as the live state shows (ill-conditioned-drift.ts).
        const singular = aside ? undefined : illConditionedAside(bench.work, diagnosis, state, () => oracle(state), unstable, unstableWhy);
        if (singular) emit({ type: 'ill-conditioned', ...singular });
        // Or in a cell whose inputs the author made again long after it ran (stale-inputs.ts).
        const stale = aside || singular ? undefined : staleInputsAside(d.original, diagnosis, () => oracle(state), unstable, unstableWhy);
        if (stale) emit({ type: 'stale-inputs', ...stale });
        return !!aside || !!singular || !!stale;
      };
      let setAside = false;
      const runMs = state.cells.reduce((t, c) => t + (c.durationMs ?? 0), 0);
      const tight = diagnosis.fixType === 'score-calibration' && asideFirst(d.budgets, d.startedAt, runMs);
      for (const fixer of d.fixers) {
        if ((fixer.name !== 'rules' || tight) && drawn()) { setAside = true; break; }
        const p = await fixer.propose({ diagnosis, step, notebook: bench.work, state, runOrder: bench.runOrder, escalate: move.escalate, attempts: bench.attempts, isNew: bench.isNew, oracle, environment: env, emit, trial });
        // An aborted LLM call comes back as a failed proposal: it says nothing about the notebook.
        if (d.signal?.aborted) return done(INTERRUPTED);
        if (!p) continue;
        if (p.kind === 'stop') return done({ reason: p.reason, detail: p.detail });
        if (p.kind === 'patch') {
          patch = p.patch;
          break;
        }
        const v = await runner.verify(step, diagnosis.cell, p.candidates, state, kernelStale, { ...d.verifyLimits, deadline: d.startedAt + d.budgets.maxWallS * 1000 }, p.rank, p.accept);
        kernelStale = v.kernelStale;
        if (!v.kept) continue;
        bench.applyKept(v.kept, step, diagnosis.why, trigger);
        state = v.kept.state;
        verified = true;
        break;
      }
      if (verified) {
        lastPatched = diagnosis.signature;
        continue;
      }
      if (setAside || (!patch && drawn())) continue;
      if (!patch && needsFreshRun(diagnosis, state, bench.codeKey, checkedFor)) {
        state = await runner.execute('full', 0);
        kernelStale = false;
        continue;
      }
      if (!patch) {
        // Skip a never-run cell (the failing one, or one above that rebinds what it reads), or stop.
        const next = stuckMove({ diagnosis, stop: stuckStop({ diagnosis, notebook: bench.work, ...d.stuck }), notebook: bench.work, neverRun: env.excuse ? d.neverRun : undefined, unfinished: env.excuse ? d.unfinished : undefined, skipped: overwritersSkipped, runOrder: bench.runOrder, canSkip: !!env.excuse, unboundSkips, slicedInputs, slicedShare });
        if (next.kind === 'stop') return done(next.stop);
        if (next.kind === 'slice') {
          slicedInputs.add(next.input);
          slicedShare += next.slice.share;
          const { patch: cut, skip } = next.slice;
          const fix = cut ? bench.apply(cut, step, diagnosis.why, trigger) : undefined;
          for (const s of skip) {
            env.excuse!(s.cell, s.expected);
            emit({ type: 'excused', cell: s.cell, expected: s.expected });
          }
          // Skipped cells will not rebind what they bound before: from a fresh kernel.
          state = await runner.reexecute(step, [...(fix?.cells ?? []), ...skip.map((s) => s.cell)], state, true);
          kernelStale = false;
          continue;
        }
        if (next.expected.overwrites) overwritersSkipped.add(next.cell);
        if (next.expected.unbound) unboundSkips++;
        state = await excuse(next.cell, next.expected);
        continue;
      }

      // validate -> apply -> re-execute
      const check = await bench.check(patch, d.forbiddenPaths);
      if (!check.ok) {
        emit({ type: 'rejected', source: patch.source.kind, reason: check.reasons.join('; '), edits: patch.edits });
        bench.reject(patch);
        continue;
      }
      const fix = bench.apply(patch, step, diagnosis.why, trigger);
      lastPatched = diagnosis.signature;
      state = await runner.reexecute(step, fix.cells, state, kernelStale);
      log.info(`step ${step}: re-ran after ${fix.source}`);
      kernelStale = false;
    }
  } catch (err) {
    return done(d.signal?.aborted ? INTERRUPTED : { reason: 'sandbox-error', detail: errorMessage(err) });
  }
}

/**
 * How the loop runs code: every execution goes through here (announced by a `run` event, recorded
 * by an `execution` event), re-execution after a patch follows decideReexecution, and generate-
 * and-verify trials run each candidate on a copy of the code and keep the best one.
 */
import { firstFailure } from '../core/run-result.js';
import { sourceText, type Notebook } from '../core/notebook.js';
import { analyzeCell } from '../fixers/python/defuse.js';
import type { Environment, RunState } from './environment.js';
import { executedCells, type Emit, type RunMode } from './events.js';
import { runModeFor } from './decisions.js';
import { decideReexecution, type FailedCellBindings } from './reexecution.js';
import { generateAndVerify, type Candidate, type TrialOutcome, type TrialRecord, type VerifyLimits } from './generate-verify.js';
import { RESEEDED_KERNEL } from '../executor/kernel-session.js';
import { unstableValues, type OracleVerdict } from './oracle/index.js';
import type { Workbench } from './workbench.js';
import { surfaceSwallowed } from './swallowed-failures.js';

export interface VerifyOutcome {
  kept?: { candidate: Candidate; state: RunState; trials: TrialRecord[] };
  /** The kernel holds a state that is not the loop's (a rejected trial ran last): the next run starts fresh. */
  kernelStale: boolean;
}

export class Runner {
  constructor(
    private readonly env: Environment,
    private readonly bench: Workbench,
    private readonly emit: Emit,
    private readonly incremental: boolean,
    /** The notebook as the author left it: its stored outputs say which swallowed fit errors were the author's too. */
    private readonly original?: Notebook,
  ) {}

  async execute(requested: RunMode, from: number, prev?: RunState, kernel?: string): Promise<RunState> {
    const { mode, fromCell } = runModeFor(requested, from, Boolean(this.bench.runOrder));
    this.emit({ type: 'run', mode, fromCell });
    const ran = await this.env.run({
      notebook: this.bench.work, mode, fromCell, ...(prev ? { prev } : {}), ...(this.bench.runOrder ? { order: this.bench.runOrder } : {}), ...(kernel ? { kernel } : {}),
      onExec: (event) => this.emit({ type: 'exec', event }),
    });
    // A fit error a search scored NaN is this cell's error when a rule knows it (swallowed-failures.ts).
    const state = this.original ? await surfaceSwallowed(ran, this.original, this.bench.work) : ran;
    this.emit({ type: 'execution', mode, fromCell, status: state.status, cells: executedCells(state.ran) });
    return state;
  }

  /** After a patch: incrementally from the patched cell when the kernel state is trustworthy, else from scratch. */
  async reexecute(step: number, patchedCells: number[], state: RunState, kernelStale: boolean, candidate?: number, failedCell = firstFailure(state.cells)?.index): Promise<RunState> {
    const decision = decideReexecution({
      incrementalEnabled: this.incremental,
      kernelAlive: this.env.alive && !kernelStale,
      patchedCells,
      failedCell,
      lastRunCells: state.cells,
      lastRunWasComplete: state.complete && state.status === 'ok',
      ...(failedCell !== undefined && patchedCells.includes(failedCell) ? { failedCellBindings: bindingsOf(state.notebook, this.bench.work, failedCell) } : {}),
    });
    this.emit({ type: 'reexecution', step, ...(candidate !== undefined ? { candidate } : {}), ...decision });
    return decision.mode === 'incremental' ? this.execute('incremental', decision.fromCell, state) : this.execute('full', 0);
  }

  /**
   * A drift on a clean run: once more from a fresh kernel with another hash seed. Set and str-hash
   * ordering differ between the two runs, so a value that depends on them (or on unseeded draws)
   * shows up as unstable, listed and not judged, instead of as a stable drift. Undefined when the
   * second run does not complete cleanly.
   */
  async recheckDrift(first: OracleVerdict, judge: (s: RunState) => OracleVerdict, unstable: Set<string>): Promise<RunState | undefined> {
    const again = await this.execute('full', 0, undefined, RESEEDED_KERNEL);
    if (again.status !== 'ok' || firstFailure(again.cells)) return undefined;
    const found = unstableValues(first, judge(again));
    for (const k of found) unstable.add(k);
    this.emit({ type: 'rerun', why: 'a drift on a clean run: is it reproducible?', kernel: this.env.kernelName, unstable: [...found] });
    return again;
  }

  /**
   * Generate and verify for the problem at `target`: each trial applies one candidate to a copy,
   * runs (incrementally when the kernel's state allows) and is ranked by `rank`; the best that
   * `accept` allows is returned with its run.
   */
  async verify(step: number, target: number, candidates: Candidate[], state: RunState, kernelStale: boolean, limits: VerifyLimits,
    rank: (s: RunState, fromCell: number, cellExecutions: number, candidate: Candidate) => TrialOutcome, accept: (o: TrialOutcome) => boolean): Promise<VerifyOutcome> {
    // The run the kernel's state comes from, and the first cell whose code in the kernel is a trial's:
    // a trial that failed again at the target ran nothing after it, so the next trial can resume
    // from its own first patched cell if that is no later than the previous trial's.
    let base: RunState | undefined = kernelStale ? undefined : state;
    let baseFrom = Infinity;
    const gv = await generateAndVerify(candidates, (c, index) => this.bench.trying(c, async () => {
      const execBefore = this.env.cellExecutions;
      const patched = c.patch.edits.map((e) => e.cell);
      const fromCell = c.order ? 0 : Math.min(...patched, target);
      const s = base && !c.order && fromCell <= baseFrom ? await this.reexecute(step, patched, base, false, index, target) : await this.execute('full', 0);
      const outcome = rank(s, fromCell, this.env.cellExecutions - execBefore, c);
      base = firstFailure(s.cells)?.index === target && !c.order ? s : undefined;
      baseFrom = fromCell;
      this.emit({ type: 'candidate', step, index, label: c.label, source: c.patch.source, summary: c.patch.summary, edits: c.patch.edits, ...(c.order ? { order: c.order } : {}), outcome });
      return { state: s, outcome };
    }), limits);
    for (const c of candidates.slice(0, gv.trials.length)) this.bench.markTried(c);
    const kept = gv.kept && accept(gv.kept.outcome) ? gv.kept : undefined;
    if (gv.kept && !kept) for (const t of gv.trials) t.kept = false;
    this.emit({ type: 'verify', step, cell: target, trials: gv.trials, kept: kept?.index ?? null, ...(gv.stoppedBy ? { stoppedBy: gv.stoppedBy } : {}) });
    const kernelStale2 = !kept || gv.lastIndex !== kept.index;
    if (!kept) {
      for (const t of gv.trials) this.emit({ type: 'rejected', source: 'rule', reason: `candidate ${t.label}: ${t.outcome.detail}` });
      return { kernelStale: kernelStale2 };
    }
    return { kept: { candidate: kept.candidate, state: kernelStale2 ? { ...kept.state, fresh: false } : kept.state, trials: gv.trials }, kernelStale: kernelStale2 };
  }
}

/** Def-use of one cell as it ran (the executed notebook) and as patched (the work notebook). */
function bindingsOf(ran: Notebook, next: Notebook, cell: number): FailedCellBindings | undefined {
  const a = ran.cells[cell];
  const b = next.cells[cell];
  if (a?.cell_type !== 'code' || b?.cell_type !== 'code') return undefined;
  const r = analyzeCell(sourceText(a.source), cell);
  const n = analyzeCell(sourceText(b.source), cell);
  return { ranDefines: r.defines, ranUses: r.uses, nextDefines: n.defines, nextUses: n.uses, hasSyntaxErrors: r.hasSyntaxErrors || n.hasSyntaxErrors };
}

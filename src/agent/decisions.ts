/**
 * The loop's decisions, as small pure functions (unit-tested without a kernel): how to run, what
 * to do after a diagnosis (fix, escalate or stop), when a drift deserves a second clean run, and
 * how to say why nothing could be proposed.
 */
import type { StopReason } from '../core/modernize-report.js';
import type { RuleFinding } from '../fixers/rules/index.js';
import { missingPath } from '../fixers/rules/missing-path.js';
import { localModuleMissing } from '../executor/project-files.js';
import { sourceText, type Notebook } from '../core/notebook.js';
import type { ExpectedError } from '../core/run-result.js';
import { MAX_UNBOUND_SKIPS, unboundLeafExcuse, unboundName } from './unbound-name.js';
import { neverRunOverwriter } from './never-run-overwriter.js';
import { absentPictureExcuse } from './absent-picture.js';
import { MAX_SLICE_SHARE, missingInputSlice, wholeSkipStrands, type MissingInputSlice } from './missing-input.js';
import { missingLabel } from './earlier-run-cells.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { budgetStop, wallSpent, type Budgets } from './budgets.js';
import type { Diagnosis } from './diagnosis.js';
import type { RunState } from './environment.js';
import type { RunMode } from './events.js';
import type { FixDiagnosis } from './fixers.js';

export type Stop = { reason: StopReason; detail: string };

/** A reordered run is always re-run whole: "the cells after the patched one" has no file-order meaning then. */
export function runModeFor(requested: RunMode, fromCell: number, reordered: boolean): { mode: RunMode; fromCell: number } {
  return reordered && requested === 'incremental' ? { mode: 'full', fromCell: 0 } : { mode: requested, fromCell };
}

/**
 * After a diagnosis that needs a fix: `repeat` is what the progress tracker says when the same
 * problem came back after a patch for it (escalate once, only with an LLM; then stop), then the budgets.
 */
export function nextMove(input: {
  diagnosis: FixDiagnosis;
  repeat?: 'ok' | 'escalate' | 'stop';
  llm: boolean;
  budgets: Budgets;
  fixes: number;
  spentUsd: number;
  startedAt: number;
}): { kind: 'stop'; stop: Stop } | { kind: 'fix'; escalate: boolean } {
  const { repeat, diagnosis } = input;
  if (repeat === 'stop' || (repeat === 'escalate' && !input.llm)) {
    return { kind: 'stop', stop: { reason: 'no-progress', detail: `the same problem after ${repeat === 'stop' ? 'escalation' : 'two different patches'}: ${diagnosis.why}` } };
  }
  const over = budgetStop(input.budgets, { fixes: input.fixes, spentUsd: input.spentUsd, startedAt: input.startedAt });
  if (over) return { kind: 'stop', stop: { reason: over, detail: `${over} reached (${diagnosis.why})` } };
  return { kind: 'fix', escalate: repeat === 'escalate' };
}

/**
 * A skip costs a run from the skipped cell (often the whole notebook again): past the wall budget
 * the loop stops instead, as it would before a fix.
 */
export function wallStop(budgets: Budgets, startedAt: number, why: string): Stop | undefined {
  return wallSpent(budgets, startedAt) ? { reason: 'max-wall-time', detail: `max-wall-time reached (${why})` } : undefined;
}

/**
 * Set a drift aside (unseeded draw, ill-conditioned fit) before the rules propose, when the wall
 * budget left cannot pay for what a rule's proposal costs: a run of the cells after the patch and
 * the run that tells drift from chance, about twice the last run's cell time. The rules would spend
 * the rest of the budget and stop `max-wall-time` on a value the live state already shows to be
 * beyond reproducing; with budget to spare they go first (a pin may reproduce it).
 */
export function asideFirst(budgets: Budgets, startedAt: number, lastRunMs: number, now = Date.now()): boolean {
  const leftMs = startedAt + budgets.maxWallS * 1000 - now;
  return leftMs < 2 * lastRunMs;
}

/**
 * A drift on a clean run from a fresh kernel: first ask whether the value is reproducible at all
 * (one more clean run, once per code version).
 */
export function needsRecheck(d: Diagnosis, state: RunState, codeKey: string, checkedFor: string | undefined): boolean {
  return d.kind === 'fix' && d.fixType === 'score-calibration' && state.fresh && state.status === 'ok' && checkedFor !== codeKey;
}

/**
 * A drift nothing repairs, seen on a run that was not from a fresh kernel (the cells after an
 * incremental fix): before stopping on it, run clean from a fresh kernel, so that the drift gets
 * its second clean run (needsRecheck) like any other. A value that differs between two clean runs
 * (a timing, an unseeded draw) is then set aside instead of ending the loop.
 */
export function needsFreshRun(d: Diagnosis, state: RunState, codeKey: string, checkedFor: string | undefined): boolean {
  return d.kind === 'fix' && d.fixType === 'score-calibration' && !state.fresh && checkedFor !== codeKey;
}

/** What the next run showed, for the previous attempt (the LLM's history and the report). */
export function attemptOutcome(d: Diagnosis): { attempt: string; fix: string } {
  return d.kind === 'done' ? { attempt: 'fixed: the run is clean and matches', fix: 'clean' } : { attempt: `next problem: ${d.why}`, fix: d.why };
}

/** No fixer proposed anything: say why as plainly as the evidence allows. */
export function stuckStop(input: {
  diagnosis: FixDiagnosis;
  findings: readonly RuleFinding[];
  project?: { files: string[]; dir: string };
  dataFiles: readonly string[];
  hasData: boolean;
  llm: { enabled: boolean; reason: string };
  /** The notebook as it now stands (for names no cell binds). */
  notebook?: Notebook;
}): Stop {
  const { diagnosis: d } = input;
  // A library the environment does not have is a diagnosis, not something to guess away.
  // The finding about the module this error names (the cell may import several the environment lacks,
  // and an earlier one may already have been repaired).
  const named = /No module named '([\w.]+)'/.exec(d.error?.evalue ?? '')?.[1]?.split('.')[0];
  const missingFindings = input.findings.filter((f) => f.cell === d.cell && (f.ruleId === 'env-unavailable-library' || f.ruleId === 'env-missing-module'));
  const missing = (named ? missingFindings.find((f) => f.message.includes(named)) : undefined) ?? missingFindings[0];
  if (missing && d.error && /ModuleNotFoundError|ImportError/.test(d.error.ename)) {
    // A module of the author's own: say where it was looked for, once, plainly.
    const own = missing.ruleId === 'env-missing-module' && input.project ? localModuleMissing(d.error.evalue, input.project.files, new Set(), input.project.dir) : undefined;
    return { reason: 'unfixable', detail: own ?? missing.message };
  }
  // A read of a file the mounted data does not have (and no candidate mapped it to one).
  const absent = d.error ? missingPath(d.error.ename, d.error.evalue) : undefined;
  if (absent && !absent.write && input.hasData) {
    return { reason: 'unfixable', detail: `the notebook reads ${absent.path}, which the data provided does not hold (data files: ${input.dataFiles.join(', ') || 'none'}); an input this run does not have` };
  }
  // A name no cell binds: the author's run defined it in a cell the notebook no longer holds.
  const unbound = d.error && input.notebook ? unboundName(input.notebook, d.error) : undefined;
  if (unbound) {
    return { reason: 'unfixable', detail: `cell ${d.cell} raises NameError for \`${unbound}\`, which no cell of the notebook binds: the author's run defined it in a cell the notebook no longer holds (or outside it); the code that made it is missing` };
  }
  // The notebook downloads something (a dataset, a page): runs have no network, by design.
  if (d.error && needsNetwork(d.error)) {
    return { reason: 'unfixable', detail: `cell ${d.cell} reaches for the internet (${d.error.ename}: ${d.error.evalue.slice(0, 120)}); runs have no network, so what it downloads is an input this run does not have` };
  }
  return { reason: 'no-fix-available', detail: `${input.llm.enabled ? 'no fixer' : 'no rule (rules only: ' + input.llm.reason + ')'} proposes a patch for cell ${d.cell}: ${d.why}` };
}

/**
 * A cell the author never ran fails here and nothing repairs it: its error has no record to be held
 * to — whether it ever ran on the author's machine is unknown (trailing submission cells, half-written
 * code, a cell whose inputs the author dropped). The cells the author did run after it never had its
 * effects, so it is skipped like one over a limit (skipNeverRun): not run, marked in the output
 * notebook and named in the verdict. Running it up to its error would leave what it bound before
 * failing (`train = impute(train)` with a function that returns None) for the recorded cells to trip
 * on. Anything in a cell the author ran still stops the loop.
 */
export function excuseNeverRun(d: FixDiagnosis, stop: Stop, neverRun: ReadonlySet<number>): ExpectedError | undefined {
  if (!d.error || !neverRun.has(d.cell) || (stop.reason !== 'no-fix-available' && stop.reason !== 'unfixable')) return undefined;
  return { ename: d.error.ename, neverRun: true, skipped: true, reason: `the author never ran this cell (no execution count, no outputs); here it raises ${d.error.ename} and no fix applies (${stop.detail.slice(0, 200)}); it is not run` };
}

/**
 * A cell the author ran but did not finish (stored-errors.unfinishedByAuthor: its final print wrote
 * nothing) fails here and nothing repairs it: the author's run stopped in it too. It is skipped
 * like a never-run cell; the cells after it are still judged against their stored outputs.
 */
export function excuseUnfinished(d: FixDiagnosis, stop: Stop, unfinished: ReadonlySet<number>): ExpectedError | undefined {
  if (!d.error || !unfinished.has(d.cell) || (stop.reason !== 'no-fix-available' && stop.reason !== 'unfixable')) return undefined;
  return { ename: d.error.ename, skipped: true, reason: `the author's run did not finish this cell (its closing print() stored no output, or the notebook was saved while it ran); here it raises ${d.error.ename} and no fix applies (${stop.detail.slice(0, 200)}); it is not run` };
}

/**
 * A cell the author never ran is over the time budget or out of memory here. It has no record: no
 * stored output says what it computed, so no runtime reduction of it could be checked, and the cells
 * the author did run never had its effects. It is skipped (marked in the output notebook and named in
 * the verdict), not rewritten; the cells after it run as they did for the author. Resource limits
 * only: a cell that raises is excuseNeverRun's (skipped the same way).
 */
export function skipNeverRun(d: FixDiagnosis, neverRun: ReadonlySet<number>, unfinished: ReadonlySet<number> = new Set()): { cell: number; expected: ExpectedError } | undefined {
  if (d.fixType !== 'runtime-reduction') return undefined;
  // A cell the author's own run did not finish (saved while it ran) has only a partial record:
  // over the limit here, it goes the same way, its partial stored outputs unjudged.
  const open = d.limitCell !== undefined && unfinished.has(d.limitCell) ? d.limitCell : unfinished.has(d.cell) ? d.cell : undefined;
  if (open !== undefined && !neverRun.has(open)) {
    return { cell: open, expected: { ename: d.error?.ename ?? 'BudgetExceededError', skipped: true, reason: `the author's run did not finish this cell (the notebook was saved while it ran, or its closing print() stored nothing), and here it is over the limit (${d.why.slice(0, 160)}); it is not run` } };
  }
  // The budget ran out in a never-run cell: that one goes, whichever cell was the slowest.
  const cell = d.limitCell !== undefined && neverRun.has(d.limitCell) ? d.limitCell : d.cell;
  if (!neverRun.has(cell)) return undefined;
  const why = cell === d.cell ? d.why : `the run's time budget ran out in it; ${d.why}`;
  return { cell, expected: { ename: d.error?.ename ?? 'BudgetExceededError', neverRun: true, skipped: true, reason: `the author never ran this cell (no execution count, no outputs), and here it is over the limit (${why.slice(0, 160)}); it is not run` } };
}

/** Never-run cells skipped for rebinding what a failing recorded cell reads, at most (never-run-overwriter.ts). */
export const MAX_OVERWRITER_SKIPS = 3;

export type StuckMove =
  | { kind: 'excuse'; cell: number; expected: ExpectedError }
  /** An input the data lacks, or a module the environment lacks: the statements and cells that need it set aside (missing-input.ts). */
  | { kind: 'slice'; input: string; slice: MissingInputSlice }
  | { kind: 'stop'; stop: Stop };

/**
 * No fixer proposed anything. A never-run cell that fails is skipped (excuseNeverRun); else a
 * never-run cell above that rebinds what this recorded cell reads is skipped and the run repeated
 * (never-run-overwriter.ts), at most MAX_OVERWRITER_SKIPS per notebook since each costs a run from a
 * fresh kernel; else the loop stops with stuckStop's reason. Skipping needs an environment that can
 * excuse a cell and the author's record of which cells never ran.
 */
export function stuckMove(input: {
  diagnosis: FixDiagnosis;
  stop: Stop;
  notebook: Notebook;
  neverRun?: ReadonlySet<number>;
  /** Cells the author ran but did not finish (stored-errors.unfinishedByAuthor). */
  unfinished?: ReadonlySet<number>;
  /** Never-run cells already skipped as overwriters. */
  skipped: ReadonlySet<number>;
  runOrder?: readonly number[];
  /** The environment can skip a cell (Environment.excuse); without it nothing is skipped. */
  canSkip?: boolean;
  /** Cells already skipped for reading a name no cell binds (unbound-name.unboundLeafExcuse). */
  unboundSkips?: number;
  /** Inputs (and `module:` names) whose slice was already set aside (each once: a second failure on it is not the slice's to mend). */
  slicedInputs?: ReadonlySet<string>;
  /** The share of the notebook's code cells earlier slices took: all slices together stay within MAX_SLICE_SHARE. */
  slicedShare?: number;
}): StuckMove {
  const { diagnosis: d, stop, neverRun } = input;
  const unfinished = input.unfinished && excuseUnfinished(d, stop, input.unfinished);
  if (unfinished) return { kind: 'excuse', cell: d.cell, expected: unfinished };
  // A cell that only shows a picture file the author's repository held (absent-picture.ts).
  const picture = input.canSkip && d.error && (stop.reason === 'no-fix-available' || stop.reason === 'unfixable') ? absentPictureExcuse(input.notebook, d.cell, d.error) : undefined;
  if (picture) return { kind: 'excuse', cell: d.cell, expected: picture };
  // A recorded cell that reads a name no cell binds, and that no later cell depends on (unbound-name.ts).
  const leaf = input.canSkip && d.error && stop.reason === 'unfixable' && (input.unboundSkips ?? 0) < MAX_UNBOUND_SKIPS ? unboundLeafExcuse(input.notebook, d.cell, d.error, input.runOrder) : undefined;
  if (leaf) return { kind: 'excuse', cell: d.cell, expected: leaf };
  // A read of a file the data provided does not hold (stuckStop said so): what does not need it still runs.
  const absent = input.canSkip && d.error && stop.reason === 'unfixable' && /data provided does not hold/.test(stop.detail) ? missingPath(d.error.ename, d.error.evalue) : undefined;
  const room = (slice: MissingInputSlice | undefined) => slice && slice.share + (input.slicedShare ?? 0) <= MAX_SLICE_SHARE;
  if (absent && !absent.write && input.slicedInputs && !input.slicedInputs.has(absent.path)) {
    const slice = missingInputSlice(input.notebook, d.cell, d.error!, { kind: 'file', path: absent.path }, input.runOrder);
    if (room(slice)) return { kind: 'slice', input: absent.path, slice: slice! };
  }
  // A top-level module the environment lacks (a library it does not ship, the author's own helper
  // absent from the project): what does not need it still runs. A dotted name (`sklearn.cross_validation`)
  // is a module of a package the environment has, moved or removed: the rules' business, never sliced.
  const module = input.canSkip && d.error?.ename === 'ModuleNotFoundError' && (stop.reason === 'unfixable' || stop.reason === 'no-fix-available')
    ? /^No module named '([A-Za-z_]\w*)'$/.exec(d.error.evalue.trim())?.[1] : undefined;
  if (module && input.slicedInputs && !input.slicedInputs.has(`module:${module}`)) {
    const slice = missingInputSlice(input.notebook, d.cell, d.error!, { kind: 'module', name: module }, input.runOrder);
    if (room(slice)) return { kind: 'slice', input: `module:${module}`, slice: slice! };
  }
  if (!neverRun) return { kind: 'stop', stop };
  const excused = excuseNeverRun(d, stop, neverRun);
  if (excused && input.canSkip && wholeSkipStrands(input.notebook, d.cell, d.error!, input.runOrder)) {
    // Skipped whole, it would take what its other statements bind (`import pandas as pd` beside a
    // failing `from helper import f`) from the recorded cells after it: only the failing statement
    // and what needs it go, within never-run cells; else the loop stops on the real failure.
    const key = `statement:${d.cell}:${d.error!.ename}:${d.error!.evalue}`;
    const slice = input.slicedInputs && !input.slicedInputs.has(key) ? missingInputSlice(input.notebook, d.cell, d.error!, { kind: 'statement' }, input.runOrder) : undefined;
    return room(slice) ? { kind: 'slice', input: key, slice: slice! } : { kind: 'stop', stop };
  }
  if (excused) return { kind: 'excuse', cell: d.cell, expected: excused };
  const over = d.error && input.skipped.size < MAX_OVERWRITER_SKIPS && (stop.reason === 'no-fix-available' || stop.reason === 'unfixable')
    ? neverRunOverwriter(analyzeNotebook(input.notebook), d.cell, d.error.ename, neverRun, input.skipped, input.runOrder, missingLabel(d.error.evalue), (c) => sourceText(input.notebook.cells[c]?.source)) : undefined;
  return over ? { kind: 'excuse', cell: over.cell, expected: over.expected } : { kind: 'stop', stop };
}

/** A failure to reach a host: name resolution, refused or unreachable network, in urllib, requests or sockets. */
export function needsNetwork(e: { ename: string; evalue: string }): boolean {
  if (/^(URLError|gaierror|ConnectionError|ConnectTimeout|MaxRetryError|NewConnectionError|ProxyError)$/.test(e.ename)) return true;
  return /Temporary failure in name resolution|Name or service not known|Network is unreachable|nodename nor servname|Failed to establish a new connection|No address associated with hostname/.test(e.evalue);
}

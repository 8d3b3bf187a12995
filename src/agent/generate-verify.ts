/**
 * Generate and verify: when several repairs are plausible for one failing cell (which data file is
 * meant, where a moved name lives now, dropping vs renaming a keyword, the author's execution order),
 * try them in a fixed order and keep the first that runs AND agrees with the notebook's stored
 * outputs of the patched cell and the cells after it. The stored outputs are the evidence: a printed
 * `shape` or `head()` tells which data file the author read.
 *
 * Why a separate module with the trial passed in: the policy (ranking, budgets, what counts as
 * agreement) is testable without kernels; the loop supplies `trial`, which applies a candidate to
 * a copy of the notebook and runs it (incrementally for the first, from a fresh kernel after that,
 * since an earlier trial has touched the kernel's state).
 */
import type { Patch } from '../core/patch.js';
import { firstFailure, type CellRecord } from '../core/run-result.js';
import { errorSignature, failingLine, failingLineNeighbours } from './diagnosis.js';
import type { Comparison } from './oracle/index.js';

/**
 * One plausible repair; `label` says what it chose ("train.csv", "sklearn.model_selection").
 * `order` (a run order of the code cells) makes it an execution-order repair; its patch then
 * has no edits.
 */
export interface Candidate {
  patch: Patch;
  label: string;
  order?: number[];
  /**
   * Kept only when its run agrees with the stored outputs: a guess the code alone does not support
   * (a data file chosen for a name that says nothing about which file), which only the author's
   * printed results can confirm; a run that merely gets further is no evidence for it.
   */
  needsAgreement?: boolean;
  /**
   * Its value is read from the stored outputs themselves (a literal as the author's run showed it):
   * a drift trial then agrees once the drifted cell and every cell before it agree, even if more
   * values differ further down (they were computed from what came before: the earliest divergence
   * is repaired first, the later ones are the next problems). So does a pin whose rule the data
   * itself calls for (evident-pins.EVIDENCE_GATED_PINS: the mounted files hold the very token the
   * change concerns, 'None' in a CSV field), once it makes the drifted cell agree.
   */
  fromRecord?: boolean;
}

/** How a trial ended, best first: kept at once, kept as a fallback, or rejected. */
export type TrialRank = 'agrees' | 'runs-drifts' | 'error-moved' | 'same-error';

export interface TrialOutcome {
  rank: TrialRank;
  /** One line for the trajectory and the report. */
  detail: string;
  /** Comparisons the trial's run made against stored outputs (cells from the patched one on). */
  compared: number;
  drifted: number;
  cellExecutions: number;
  /** The first cell that failed in the trial's run (Infinity: none did). Among equal ranks, further is better. */
  reached: number;
}

export interface TrialRecord {
  index: number;
  label: string;
  summary: string;
  outcome: TrialOutcome;
  kept: boolean;
}

export interface VerifyLimits {
  /** Candidates tried at most per problem. */
  maxCandidates: number;
  /** Cell executions spent at most on trials per problem. */
  maxCellExecutions: number;
  /** Epoch ms after which no further candidate is tried (the loop's wall budget). */
  deadline?: number;
}

export const DEFAULT_VERIFY_LIMITS: VerifyLimits = { maxCandidates: 6, maxCellExecutions: 600 };

const RANK_ORDER: TrialRank[] = ['agrees', 'runs-drifts', 'error-moved', 'same-error'];

export interface VerifyResult<S> {
  kept?: { candidate: Candidate; state: S; outcome: TrialOutcome; index: number };
  /** The state of the last trial run (the kernel holds it). */
  lastIndex: number;
  trials: TrialRecord[];
  /** Why trying stopped early, when it did. */
  stoppedBy?: 'candidates' | 'cell-executions' | 'wall-time';
}

/**
 * Try candidates in order; keep the first that agrees, else the best-ranked fallback that made
 * progress (a later error or drift is still progress over the same error), else none. A candidate
 * that needs agreement is never a fallback.
 */
export async function generateAndVerify<S>(
  candidates: readonly Candidate[],
  trial: (c: Candidate, index: number) => Promise<{ state: S; outcome: TrialOutcome }>,
  limits: VerifyLimits = DEFAULT_VERIFY_LIMITS,
): Promise<VerifyResult<S>> {
  const trials: TrialRecord[] = [];
  let best: VerifyResult<S>['kept'];
  let spent = 0;
  let lastIndex = -1;
  let stoppedBy: VerifyResult<S>['stoppedBy'];
  for (const [index, candidate] of candidates.entries()) {
    if (index >= limits.maxCandidates) {
      stoppedBy = 'candidates';
      break;
    }
    if (spent >= limits.maxCellExecutions) {
      stoppedBy = 'cell-executions';
      break;
    }
    if (limits.deadline !== undefined && index > 0 && Date.now() >= limits.deadline) {
      stoppedBy = 'wall-time';
      break;
    }
    const { state, outcome } = await trial(candidate, index);
    lastIndex = index;
    spent += outcome.cellExecutions;
    trials.push({ index, label: candidate.label, summary: candidate.patch.summary, outcome, kept: false });
    const better = !best || RANK_ORDER.indexOf(outcome.rank) < RANK_ORDER.indexOf(best.outcome.rank)
      || (outcome.rank === best.outcome.rank && outcome.reached > best.outcome.reached);
    const eligible = candidate.needsAgreement ? outcome.rank === 'agrees' : outcome.rank !== 'same-error';
    if (eligible && better) best = { candidate, state, outcome, index };
    // Agreeing and running to the end settles it; agreeing but failing later, another candidate may get further.
    if (outcome.rank === 'agrees' && outcome.reached === Infinity) break;
  }
  if (best) trials[trials.findIndex((t) => t.index === best!.index)].kept = true;
  return { ...(best ? { kept: best } : {}), lastIndex, trials, ...(stoppedBy ? { stoppedBy } : {}) };
}

const COMPILE_ERRORS = new Set(['SyntaxError', 'IndentationError', 'TabError']);

/**
 * Rank one trial's run: did the target cell stop raising its error, and do the stored outputs of
 * the target cell and the cells after it that ran agree? `comparisons` are the oracle's over the
 * whole notebook; only cells from `target` on that ran without error count (earlier cells did not
 * change, and a cell that did not run has nothing to say).
 */
export function rankTrial(
  target: number,
  fromCell: number,
  before: { ename: string; evalue: string; traceback?: readonly string[] },
  cells: readonly CellRecord[],
  comparisons: readonly Comparison[],
  cellExecutions: number,
  /** The run being repaired: a cell it never ran (a run order that puts cells above the target after it) cannot have been broken. */
  baseline?: readonly Pick<CellRecord, 'index' | 'status'>[],
): TrialOutcome {
  const targetRec = cells.find((c) => c.index === target);
  const failed = firstFailure(cells);
  const ranOk = new Set(cells.filter((c) => c.status === 'ok').map((c) => c.index));
  const relevant = comparisons.filter((c) => c.cell !== null && c.cell >= Math.min(target, fromCell) && ranOk.has(c.cell) && !c.outOfOrder);
  const drifted = relevant.filter((c) => !c.ok).length;
  const base = { compared: relevant.length, drifted, cellExecutions, reached: failed ? failed.index : Infinity };
  // Cells before the target ran before the patch; one failing now was broken by it (a candidate
  // editing a helper cell above): never progress. Under a run order (the author ran a cell above
  // after the target) a cell above may not have run at all: its failure is the next problem.
  const ranInBaseline = (i: number) => !baseline || baseline.some((c) => c.index === i && c.status !== 'not-run');
  if (failed && failed.index < target && !failed.expectedError && ranInBaseline(failed.index)) {
    const e = failed.error ?? { ename: failed.status, evalue: '' };
    return { ...base, rank: 'same-error', detail: `the patch broke cell ${failed.index}: ${e.ename}: ${e.evalue}`.slice(0, 200) };
  }
  if (failed && (!targetRec || targetRec.status === 'not-run')) {
    const e = failed.error ?? { ename: failed.status, evalue: '' };
    return { ...base, rank: 'same-error', detail: `cell ${failed.index} failed before cell ${target} ran: ${e.ename}: ${e.evalue}`.slice(0, 200) };
  }
  if (targetRec && targetRec.status !== 'ok' && !targetRec.expectedError) {
    const err = targetRec.error ?? { ename: targetRec.status, evalue: '', traceback: [] };
    // Where the failing run's traceback shows the line, the same error from a later, different line
    // is progress (the repaired line passed; the next one with the same old API fails). The same
    // text moved down (an import inserted above) or an edited line failing in place is not.
    const was = failingLine(before.traceback ?? []);
    const now = failingLine(err.traceback ?? []);
    const sameMessage = errorSignature(target, { ename: err.ename, evalue: err.evalue }) === errorSignature(target, { ename: before.ename, evalue: before.evalue });
    const same = sameMessage && !(was && now && now.line > was.line && (now.text !== was.text || neighboursChanged(before.traceback ?? [], err.traceback ?? [])));
    // A patch whose cell no longer compiles broke it: never progress, whatever the error was.
    const broke = COMPILE_ERRORS.has(err.ename) && !COMPILE_ERRORS.has(before.ename);
    if (broke) return { ...base, rank: 'same-error', detail: `the patched cell ${target} does not compile: ${err.ename}: ${err.evalue}`.slice(0, 200) };
    return { ...base, rank: same ? 'same-error' : 'error-moved', detail: `cell ${target} still fails: ${err.ename}: ${err.evalue}`.slice(0, 200) };
  }
  const next = failed ? `; next error in cell ${failed.index}: ${failed.error?.ename ?? failed.status}` : '';
  if (drifted > 0) {
    const d = relevant.find((c) => !c.ok)!;
    return { ...base, rank: 'runs-drifts', detail: `runs; ${drifted}/${relevant.length} stored values differ (cell ${d.cell}: ${d.original} -> ${d.new})${next}` };
  }
  return { ...base, rank: 'agrees', detail: `runs; ${relevant.length} stored values agree${next}` };
}

/**
 * The same failing text at a later line, with other lines around it: another occurrence of the old
 * call (`corr = df[cols].corr()` twice in a function), so the repaired one passed. Both neighbours
 * must differ: code inserted above moves the line with its neighbours.
 */
function neighboursChanged(was: readonly string[], now: readonly string[]): boolean {
  const a = failingLineNeighbours(was);
  const b = failingLineNeighbours(now);
  if (!a?.above || !a.below || !b?.above || !b.below) return false;
  return a.above !== b.above && a.below !== b.below;
}

/** A key that tells two candidates apart (edits and run order). */
export function candidateKey(c: Candidate): string {
  return JSON.stringify([c.patch.edits, c.order ?? null]);
}

/** Candidates with distinct edits, in order (rules may reach the same rewrite by two paths). */
export function distinctCandidates(cands: readonly Candidate[], isNew: (c: Candidate) => boolean): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of cands) {
    const key = candidateKey(c);
    if (seen.has(key) || !isNew(c)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/**
 * Pin patches (old defaults, one patch per cell) as candidates for a drift at `target`: only cells
 * at or before it can have produced the value; the nearest first (the model or call printed just
 * above is the likeliest cause), then all of them together when there are several.
 */
export function pinCandidates(pins: readonly Patch[], target: number, runOrder?: readonly number[]): Candidate[] {
  const at = runPosition(runOrder);
  const cellOf = (p: Patch) => p.edits.reduce((m, e) => (at(e.cell) > at(m) ? e.cell : m), p.edits[0].cell);
  const before = pins.filter((p) => p.edits.length > 0 && p.edits.every((e) => at(e.cell) >= 0) && at(cellOf(p)) <= at(target)).sort((a, b) => at(cellOf(b)) - at(cellOf(a)));
  const label = (p: Patch) => `${p.source.kind === 'rule' ? p.source.ruleIds.join('+') : p.source.kind} in cell ${cellOf(p)}`;
  const out: Candidate[] = before.map((p) => ({ patch: p, label: label(p) }));
  if (before.length > 1) {
    const patch = mergePins(before, 'score-calibration', (cells) => `old defaults pinned in cells ${cells.join(', ')}`);
    out.push({ patch, label: `all pins (cells ${patch.edits.map((e) => e.cell).join(', ')})` });
  }
  return out;
}

/**
 * A pin is the author's library version, which held at every call site, not only at the one that
 * feeds the drifted cell: a read of test.csv pinned with train.csv (the combined frame of both drifts
 * when only one is), every search of the notebook with the old cross-validation. For each rule with a
 * pin among `acting` that also has pins elsewhere in `all`, one candidate with the rule at every site.
 */
export function everySiteCandidates(all: readonly Patch[], acting: readonly Patch[]): Candidate[] {
  const ruleOf = (p: Patch) => (p.source.kind === 'rule' && p.source.ruleIds.length === 1 ? p.source.ruleIds[0] : undefined);
  const out: Candidate[] = [];
  for (const id of new Set(acting.map(ruleOf).filter((r): r is string => !!r))) {
    const sites = all.filter((p) => ruleOf(p) === id);
    if (sites.length <= acting.filter((p) => ruleOf(p) === id).length) continue;
    const patch = mergePins(sites, 'score-calibration', (cells) => `${id} at every site (cells ${cells.join(', ')}): the author's library version held for each`);
    out.push({ patch, label: `${id} at every site (cells ${patch.edits.map((e) => e.cell).join(', ')})` });
  }
  return out;
}

/**
 * A cell's place in the order the cells run: the author's recorded order when the notebook runs in
 * it (-1 for a cell that order leaves out), else its position.
 */
export function runPosition(runOrder?: readonly number[]): (cell: number) => number {
  return (cell) => (runOrder ? runOrder.indexOf(cell) : cell);
}

/** Pin patches (one per cell) as one patch: their edits in cell order, their rules once each. */
export function mergePins(pins: readonly Patch[], fixType: Patch['fixType'], summary: (cells: number[], ruleIds: string[]) => string): Patch {
  const edits = pins.flatMap((p) => p.edits).sort((a, b) => a.cell - b.cell);
  const ruleIds = [...new Set(pins.flatMap((p) => (p.source.kind === 'rule' ? p.source.ruleIds : [])))];
  return { fixType, source: { kind: 'rule', ruleIds }, edits, summary: summary(edits.map((e) => e.cell), ruleIds) };
}

/**
 * Rank a trial made against a drift (score-calibration): it `agrees` only when the run is no worse
 * (no cell fails that ran before), the drifted cell now agrees with its stored outputs, and fewer
 * stored values differ in the whole notebook than before the trial. Anything else is not evidence
 * that the candidate restores the author's result, so the loop does not keep it. A candidate read
 * from the record itself (`earliestFirst`, Candidate.fromRecord) also agrees when the drifted cell and
 * every cell before it agree, however many values differ after them.
 */
export function rankDriftTrial(
  target: number,
  driftedBefore: number,
  cells: readonly CellRecord[],
  comparisons: readonly Comparison[],
  cellExecutions: number,
  opts: { earliestFirst?: boolean } = {},
): TrialOutcome {
  const failed = firstFailure(cells);
  const judged = comparisons.filter((c) => !c.outOfOrder);
  const drifted = judged.filter((c) => !c.ok).length;
  const atTarget = judged.filter((c) => c.cell === target);
  const base = { compared: judged.length, drifted, cellExecutions, reached: failed ? failed.index : Infinity };
  if (failed) return { ...base, rank: 'error-moved', detail: `cell ${failed.index} fails: ${failed.error?.ename ?? failed.status}` };
  const targetBad = atTarget.find((c) => !c.ok);
  if (targetBad) return { ...base, rank: 'runs-drifts', detail: `cell ${target} still differs (${targetBad.original} -> ${targetBad.new}); ${drifted} stored values differ in all` };
  const upToTarget = judged.filter((c) => !c.ok && c.cell !== null && c.cell <= target).length;
  if (opts.earliestFirst && upToTarget === 0 && drifted > 0) return { ...base, rank: 'agrees', detail: `cell ${target} and every cell before it agree; ${drifted} stored values differ further down (${driftedBefore} before)` };
  if (drifted >= driftedBefore) return { ...base, rank: 'runs-drifts', detail: `cell ${target} agrees but ${drifted} stored values differ elsewhere (${driftedBefore} before)` };
  return { ...base, rank: 'agrees', detail: `cell ${target} agrees; ${drifted} stored values differ in all (${driftedBefore} before)` };
}

/**
 * The reproducibility verdict, shared by `modernize` (after its final clean run) and by the
 * audit baseline (no edits): a notebook reproduces when a clean run from a fresh kernel finished
 * without an error cell, within the time budget, and its result matches the target within
 * tolerance (expected score with a scorer, else the notebook's own stored outputs).
 */
import type { Notebook } from '../core/notebook.js';
import { firstFailure, type RunResult } from '../core/run-result.js';
import { excuseUnstable, findSubmissionFile, judge, type ExpectedScoreInput, type OracleVerdict, type UnjudgedReason } from './oracle/index.js';

export type Verdict = 'reproduced' | 'not-reproduced' | 'failed';

/** How a reproduced verdict names the cells not run because this run lacks what they need (the audit summary counts them). */
export const NOT_RUN_INPUT = 'not run: cells that need an input the data provided does not hold';
export const NOT_RUN_MODULE = 'not run: cells that need a module the environment does not have';

export interface ExpectedTarget extends Omit<ExpectedScoreInput, 'submission'> {}

export interface VerdictResult {
  verdict: Verdict;
  /** One line: why this verdict. */
  reason: string;
  oracle: OracleVerdict;
}

export function decideVerdict(input: {
  original: Notebook;
  executed: Notebook;
  run: RunResult;
  expected?: ExpectedTarget;
  tolerance?: number;
  /** Values seen to differ between two clean runs: not judged (see oracle/nondeterminism.ts). */
  unstable?: ReadonlySet<string>;
  /** Why some of them are set aside, when not nondeterminism (ill-conditioned-drift.ts). */
  unstableWhy?: ReadonlyMap<string, UnjudgedReason>;
}): VerdictResult {
  const { run } = input;
  const submission = findSubmissionFile(run.producedFiles);
  const oracle = excuseUnstable(judge({
    original: input.original,
    current: input.executed,
    ...(input.expected ? { expectedScore: input.expected } : {}),
    ...(submission ? { submission } : {}),
    tolerance: input.tolerance,
  }), input.unstable ?? new Set(), input.unstableWhy);
  if (run.status !== 'ok') {
    return { verdict: 'not-reproduced', reason: `the clean run ended with ${run.status}: ${run.message ?? ''}`.trim(), oracle };
  }
  const errorCell = firstFailure(run.cells);
  if (errorCell) return { verdict: 'not-reproduced', reason: `cell ${errorCell.index} ended with ${errorCell.status}`, oracle };
  if (!oracle.matches) {
    const bad = oracle.comparisons.filter((c) => !c.ok && !(c as { outOfOrder?: boolean }).outOfOrder).slice(0, 3)
      .map((c) => `${c.cell === null ? 'score' : `cell ${c.cell}`}: ${c.original} -> ${c.new}`).join('; ');
    return { verdict: 'not-reproduced', reason: `results drifted beyond tolerance (${oracle.oracle}${bad ? `: ${bad}` : ''})`, oracle };
  }
  const count = (why: string): number => oracle.comparisons.filter((c) => c.unjudged === why).length;
  const plural = (n: number, what: string): string => `${n} ${what} value${n > 1 ? 's' : ''}`;
  const unjudgedNote = [['nondeterministic', 'nondeterministic'], ['ill-conditioned', 'ill-conditioned (nearly singular least squares)'], ['tie', 'tied-label'], ['stale', 'stale stored'], ['unreachable', 'unreachable stored'], ['library-docs', 'library-documentation'], ['skipped', 'skipped-cell']]
    .filter(([why]) => count(why!) > 0).map(([why, what]) => plural(count(why!), what!)).join(', ');
  const named = (cells: typeof run.cells) => cells.map((c) => `cell ${c.index} ${c.expectedError!.ename}`).join(', ');
  const asAuthor = run.cells.filter((c) => c.expectedError && !c.expectedError.neverRun && !c.expectedError.skipped);
  const unrun = run.cells.filter((c) => c.expectedError?.neverRun && !c.expectedError.skipped);
  const skipped = run.cells.filter((c) => c.expectedError?.skipped && !c.expectedError.picture && !c.expectedError.unbound && !c.expectedError.missingInput && !c.expectedError.missingLibrary);
  const inputCells = run.cells.filter((c) => c.expectedError?.missingInput);
  const libraryCells = run.cells.filter((c) => c.expectedError?.missingLibrary);
  const unboundCells = run.cells.filter((c) => c.expectedError?.unbound);
  const pictures = run.cells.filter((c) => c.expectedError?.picture);
  const asAuthorNote = (asAuthor.length ? `; raised as the author's record has it: ${named(asAuthor)}` : '') + (unrun.length ? `; raised in cells the author never ran (no record to hold them to): ${named(unrun)}` : '')
    + (skipped.length ? `; not run: cells the author never ran (or did not finish) that fail, are over the time or memory limit, or rebind what a recorded cell reads here: ${skipped.map((c) => `cell ${c.index} ${c.expectedError!.overwrites ? `rebinds ${c.expectedError!.overwrites.names.join(', ')} for cell ${c.expectedError!.overwrites.cell}` : c.expectedError!.ename}`).join(', ')}` : '')
    + (pictures.length ? `; not run: cells that only show a picture file of the author's repository, absent here: ${pictures.map((c) => `cell ${c.index} (${c.expectedError!.picture})`).join(', ')}` : '')
    + (unboundCells.length ? `; not run: cells that read a name no cell of the notebook binds (the author's deleted code), which no later cell depends on: ${unboundCells.map((c) => `cell ${c.index} (${c.expectedError!.unbound})`).join(', ')}` : '')
    + (inputCells.length ? `; ${NOT_RUN_INPUT}: ${inputCells.map((c) => `cell ${c.index} (${c.expectedError!.missingInput})`).join(', ')}` : '')
    + (libraryCells.length ? `; ${NOT_RUN_MODULE}: ${libraryCells.map((c) => `cell ${c.index} (${c.expectedError!.missingLibrary})`).join(', ')}` : '');
  return { verdict: 'reproduced', reason: `clean run within budget; ${oracle.oracle === 'none' ? 'no stored results to compare' : `${oracle.oracle} oracle matches`}${unjudgedNote ? ` (${unjudgedNote} not judged)` : ''}${asAuthorNote}`, oracle };
}

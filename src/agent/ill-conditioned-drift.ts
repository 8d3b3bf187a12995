/**
 * A drift in a cell fed by a least-squares fit of a nearly singular design: LinearRegression on
 * one-hot groups kept whole plus an intercept, or on near-duplicate columns. Its smallest singular
 * values are rounding-sized, and whether lstsq keeps or cuts each one depends on the BLAS build, its
 * kernels, even memory alignment: the author's fit and this one solve different problems, and a
 * prediction can move from an RMSE of 0.15 to 4.9e6. No repair makes such a value reproducible (the
 * rank-cutoff candidate, SK091, was tried first by the rules); it is set aside, listed as
 * `ill-conditioned`, not judged, and the verdict rests on the other values.
 *
 * Evidence from the live run, not from the code alone: the drifted cell is fed by a LinearRegression
 * call (def-use), and the kernel's state after it holds a fitted model whose design's condition
 * number (kernel-probe: largest over smallest singular value) is above ILL_CONDITIONED. A
 * well-conditioned fit that drifts stays a drift.
 */
import type { Notebook } from '../core/notebook.js';
import type { FixDiagnosis } from './fixers.js';
import type { RunState } from './environment.js';
import { failingValuesIn, type OracleVerdict, type UnjudgedReason } from './oracle/index.js';
import { fedBy } from './rule-fixer.js';
import { LINEAR_REGRESSION } from '../fixers/rules/sklearn-linear-regression-rank.js';

/** Above this, relative rounding (1e-16) amplified by the condition reaches the oracle's tolerance. */
export const ILL_CONDITIONED = 1e12;

export interface IllConditionedAside { cells: Array<{ cell: number; model: string; condition: number }>; unstable: string[] }

/** The drifted cell's values to set aside (added to `unstable`, their reason to `why`), or undefined. */
export function illConditionedAside(work: Notebook, d: FixDiagnosis, state: RunState, verdict: () => OracleVerdict, unstable: Set<string>, why: Map<string, UnjudgedReason>): IllConditionedAside | undefined {
  if (d.fixType !== 'score-calibration') return undefined;
  const record = state.cells.find((c) => c.index === d.cell);
  const model = record?.state?.variables.find((v) => (v.condition ?? 0) > ILL_CONDITIONED);
  if (!model || !fedBy(work, [LINEAR_REGRESSION]).has(d.cell)) return undefined;
  const keys = failingValuesIn(verdict(), new Set([d.cell])).filter((k) => !unstable.has(k));
  if (!keys.length) return undefined;
  for (const k of keys) {
    unstable.add(k);
    why.set(k, 'ill-conditioned');
  }
  return { cells: [{ cell: d.cell, model: model.name, condition: model.condition! }], unstable: keys };
}

/**
 * The reproducibility oracles: did the modernized notebook reproduce the original result?
 *
 * - expected-score: the submission the notebook wrote, scored against ground truth with a named
 *   metric, compared with an expected score within a relative tolerance (default ±10%).
 * - stored-outputs: the numbers the original run printed (stored in the .ipynb) compared with the
 *   new run's, cell by cell: DataFrames shown as HTML tables and Series reprs in both runs by
 *   (row label, column label) (tables.ts), everything else line by line after normalizing
 *   presentation (numbers.ts); text and images are reported, not judged; cells the
 *   original ran out of order are reported, not judged by default (order.ts).
 * - none: nothing to compare against (the verdict then rests on a clean run alone).
 *
 * The one way in from outside this folder. A value passes one way through it: extract the stored
 * results (extract.ts, numbers.ts, tables.ts, order.ts, stale-results.ts) -> align cells, lines and
 * tables (align.ts) -> compare (compare.ts, compare-tables.ts) -> judge (stored-outputs.ts,
 * expected-score.ts with scorers.ts, and judge below). types.ts is the vocabulary all of them share.
 */
import type { Notebook } from '../../core/notebook.js';
import { expectedScoreOracle, type ExpectedScoreInput } from './expected-score.js';
import { storedOutputsOracle, type StoredOutputsOptions } from './stored-outputs.js';
import type { Csv } from './scorers.js';
import { DEFAULT_TOLERANCE, type OracleVerdict } from './types.js';

export * from './types.js';
export { expectedScoreOracle, findSubmissionFile, type ExpectedScoreInput } from './expected-score.js';
export { storedOutputsOracle, type StoredOutputsOptions } from './stored-outputs.js';
export { hasStoredNumbers } from './extract.js';
export { outOfOrderCells, type OutOfOrder } from './order.js';
export { excuseUnstable, failingValuesIn, unstableValues } from './nondeterminism.js';
export { isMetricName, METRICS, parseCsv, readCsvFile, ScoringError, type Csv, type MetricName } from './scorers.js';

export interface OracleInputs {
  original: Notebook;
  current: Notebook;
  /** Set when the user gave --expected-score (with a metric and ground truth). */
  expectedScore?: Omit<ExpectedScoreInput, 'submission'>;
  /** The submission file the run wrote (see findSubmissionFile). */
  submission?: string | Csv;
  tolerance?: number;
  storedOutputs?: Omit<StoredOutputsOptions, 'tolerance'>;
}

/** The oracle in order of preference: expected score, then stored outputs, else none. */
export function judge(inputs: OracleInputs): OracleVerdict {
  const tol = inputs.tolerance ?? DEFAULT_TOLERANCE;
  if (inputs.expectedScore) {
    return expectedScoreOracle({ ...inputs.expectedScore, tolerance: inputs.expectedScore.tolerance ?? tol, ...(inputs.submission !== undefined ? { submission: inputs.submission } : {}) });
  }
  return storedOutputsOracle(inputs.original, inputs.current, { ...(inputs.storedOutputs ?? {}), tolerance: tol });
}

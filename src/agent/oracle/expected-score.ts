/**
 * The expected-score oracle: the submission the notebook wrote, scored against ground truth with a
 * named metric (scorers.ts), compared with an expected score within a relative tolerance.
 */
import {
  METRICS, type MetricName, readCsvFile, relativeDifference, scoreSubmission, ScoringError, type Csv, type ScoreResult,
} from './scorers.js';
import { DEFAULT_TOLERANCE, type OracleVerdict } from './types.js';

export interface ExpectedScoreInput {
  expected: number;
  metric: MetricName;
  /** The submission the notebook wrote (path or parsed); undefined = none was written. */
  submission?: string | Csv;
  groundTruth: string | Csv;
  tolerance?: number;
  idColumn?: string;
  targetColumn?: string;
  truthTargetColumn?: string;
  positiveLabel?: string;
}

export function expectedScoreOracle(input: ExpectedScoreInput): OracleVerdict {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE;
  const info = METRICS[input.metric];
  const base = { metric: input.metric, expected: input.expected, tolerance, higherIsBetter: info.higherIsBetter };
  if (input.submission === undefined) {
    return { oracle: 'expected-score', matches: false, details: { ...base, reason: 'the notebook wrote no submission file' }, comparisons: [] };
  }
  let result: ScoreResult;
  try {
    const sub = typeof input.submission === 'string' ? readCsvFile(input.submission) : input.submission;
    const truth = typeof input.groundTruth === 'string' ? readCsvFile(input.groundTruth) : input.groundTruth;
    result = scoreSubmission(sub, truth, {
      metric: input.metric,
      ...(input.idColumn ? { idColumn: input.idColumn } : {}),
      ...(input.targetColumn ? { targetColumn: input.targetColumn } : {}),
      ...(input.truthTargetColumn ? { truthTargetColumn: input.truthTargetColumn } : {}),
      ...(input.positiveLabel !== undefined ? { positiveLabel: input.positiveLabel } : {}),
    });
  } catch (err) {
    if (!(err instanceof ScoringError)) throw err;
    return { oracle: 'expected-score', matches: false, details: { ...base, reason: `the submission cannot be scored: ${err.message}` }, comparisons: [] };
  }
  const relDiff = relativeDifference(input.expected, result.score);
  const withinTolerance = relDiff <= tolerance + 1e-12;
  const complete = result.missingIds === 0;
  const better = info.higherIsBetter ? result.score > input.expected : result.score < input.expected;
  const direction = result.score === input.expected ? 'equal' : better ? 'better' : 'worse';
  const reasons: string[] = [];
  if (!withinTolerance) reasons.push(`${input.metric} ${round(result.score)} is ${(relDiff * 100).toFixed(1)}% from the expected ${input.expected} (tolerance ${(tolerance * 100).toFixed(0)}%)`);
  if (!complete) reasons.push(`the submission lacks ${result.missingIds} of the ${result.n + result.missingIds} ids of the ground truth`);
  return {
    oracle: 'expected-score',
    matches: withinTolerance && complete,
    details: { ...base, ...result, relDiff, direction, ...(reasons.length ? { reason: reasons.join('; ') } : {}) },
    comparisons: [{ cell: null, original: input.expected, new: result.score, relDiff, ok: withinTolerance, context: input.metric }],
  };
}

function round(x: number): number {
  return Number(x.toPrecision(6));
}

/** The submission among the files a run produced: CSVs, names with submission/submit/pred/result first. */
export function findSubmissionFile(files: Array<{ name: string; path?: string }>): string | undefined {
  const csvs = files.filter((f) => /\.csv(\.gz)?$/i.test(f.name));
  const score = (n: string): number => (/submission/i.test(n) ? 3 : /submit/i.test(n) ? 2 : /pred|result|output|answer/i.test(n) ? 1 : 0);
  const best = [...csvs].sort((a, b) => score(b.name) - score(a.name))[0];
  return best ? (best.path ?? best.name) : undefined;
}

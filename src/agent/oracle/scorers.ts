/**
 * Scoring a submission CSV against a ground-truth CSV: join on the id column, pick the target
 * column, compute a metric. Pure functions plus a small RFC 4180 CSV reader; no dependencies.
 */
import fs from 'node:fs';

export type MetricName = 'accuracy' | 'f1' | 'auc' | 'logloss' | 'rmse' | 'rmsle' | 'mae' | 'r2';

export interface MetricInfo {
  higherIsBetter: boolean;
  /** What the predictions must be: labels, probabilities/scores of the positive class, or numbers. */
  predictions: 'labels' | 'scores' | 'numbers';
  description: string;
}

export const METRICS: Readonly<Record<MetricName, MetricInfo>> = {
  accuracy: { higherIsBetter: true, predictions: 'labels', description: 'share of exactly right labels (probabilities of a 0/1 target are cut at 0.5)' },
  f1: { higherIsBetter: true, predictions: 'labels', description: 'F1 of the positive class for two classes, macro F1 for more' },
  auc: { higherIsBetter: true, predictions: 'scores', description: 'area under the ROC curve of a binary target' },
  logloss: { higherIsBetter: false, predictions: 'scores', description: 'binary log loss, probabilities clipped to [1e-15, 1-1e-15]' },
  rmse: { higherIsBetter: false, predictions: 'numbers', description: 'root mean squared error' },
  rmsle: { higherIsBetter: false, predictions: 'numbers', description: 'root mean squared logarithmic error (log1p)' },
  mae: { higherIsBetter: false, predictions: 'numbers', description: 'mean absolute error' },
  r2: { higherIsBetter: true, predictions: 'numbers', description: 'coefficient of determination' },
};

export function isMetricName(s: string): s is MetricName {
  return Object.prototype.hasOwnProperty.call(METRICS, s);
}

export class ScoringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScoringError';
  }
}

export interface Csv {
  header: string[];
  rows: string[][];
}

/** RFC 4180: quoted fields, "" escapes, newlines inside quotes, CRLF, a leading BOM. */
export function parseCsv(text: string): Csv {
  const src = text.replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endField = (): void => { record.push(field); field = ''; };
  const endRecord = (): void => {
    endField();
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') { quoted = true; i++; continue; }
    if (ch === ',') { endField(); i++; continue; }
    if (ch === '\r') { i++; continue; }
    if (ch === '\n') { endRecord(); i++; continue; }
    field += ch;
    i++;
  }
  if (field !== '' || record.length) endRecord();
  const [header, ...rows] = records;
  if (!header) throw new ScoringError('the CSV is empty');
  return { header: header.map((h) => h.trim()), rows };
}

export function readCsvFile(file: string): Csv {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScoringError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return parseCsv(text);
  } catch (err) {
    throw new ScoringError(`${file}: ${(err as Error).message}`);
  }
}

/** Ids compare as numbers when both look like integers ("892" = "892.0"), else as trimmed text. */
export function normalizeId(s: string): string {
  const t = s.trim();
  if (/^[-+]?\d+(\.0*)?$/.test(t)) return String(BigInt(t.replace(/\.0*$/, '').replace(/^\+/, '')));
  return t;
}

function toNumber(s: string): number | undefined {
  const t = s.trim();
  if (/^(true)$/i.test(t)) return 1;
  if (/^(false)$/i.test(t)) return 0;
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** Metric from aligned true values and predictions (strings as read from CSV). */
export function metricValue(metric: MetricName, yTrue: string[], yPred: string[], opts: { positiveLabel?: string; threshold?: number } = {}): number {
  if (yTrue.length !== yPred.length) throw new ScoringError(`${yTrue.length} true values but ${yPred.length} predictions`);
  if (yTrue.length === 0) throw new ScoringError('nothing to score: no rows in common');
  const threshold = opts.threshold ?? 0.5;
  const numsOrFail = (xs: string[], what: string): number[] =>
    xs.map((x, i) => {
      const n = toNumber(x);
      if (n === undefined) throw new ScoringError(`${what} ${JSON.stringify(x)} (row ${i + 1}) is not a number`);
      return n;
    });

  switch (metric) {
    case 'accuracy':
    case 'f1': {
      const t = yTrue.map(labelOf);
      const tNums = yTrue.map(toNumber);
      const binary01 = tNums.every((n) => n === 0 || n === 1);
      const p = yPred.map((x) => {
        const n = toNumber(x);
        // Probabilities for a 0/1 target are cut at the threshold.
        if (binary01 && n !== undefined && n > 0 && n < 1) return n >= threshold ? '1' : '0';
        return labelOf(x);
      });
      if (metric === 'accuracy') return t.filter((v, i) => v === p[i]).length / t.length;
      const classes = [...new Set(t)];
      if (classes.length <= 2) {
        const pos = opts.positiveLabel !== undefined ? labelOf(opts.positiveLabel) : classes.includes('1') ? '1' : [...classes].sort().pop()!;
        return f1For(t, p, pos);
      }
      return classes.reduce((s, c) => s + f1For(t, p, c), 0) / classes.length;
    }
    case 'auc': {
      const t = numsOrFail(yTrue, 'true value');
      if (!t.every((v) => v === 0 || v === 1)) throw new ScoringError('auc needs a 0/1 target');
      return rocAuc(t, numsOrFail(yPred, 'prediction'));
    }
    case 'logloss': {
      const t = numsOrFail(yTrue, 'true value');
      if (!t.every((v) => v === 0 || v === 1)) throw new ScoringError('logloss here needs a 0/1 target (binary)');
      const p = numsOrFail(yPred, 'prediction').map((v) => Math.min(1 - 1e-15, Math.max(1e-15, v)));
      return -t.reduce((s: number, y, i) => s + (y ? Math.log(p[i]!) : Math.log(1 - p[i]!)), 0) / t.length;
    }
    case 'rmse':
    case 'mae':
    case 'r2':
    case 'rmsle': {
      const t = numsOrFail(yTrue, 'true value');
      const p = numsOrFail(yPred, 'prediction');
      if (metric === 'rmse') return Math.sqrt(t.reduce((s, y, i) => s + (y - p[i]!) ** 2, 0) / t.length);
      if (metric === 'mae') return t.reduce((s, y, i) => s + Math.abs(y - p[i]!), 0) / t.length;
      if (metric === 'rmsle') {
        if ([...t, ...p].some((v) => v <= -1)) throw new ScoringError('rmsle needs values greater than -1');
        return Math.sqrt(t.reduce((s, y, i) => s + (Math.log1p(y) - Math.log1p(p[i]!)) ** 2, 0) / t.length);
      }
      const mean = t.reduce((s, y) => s + y, 0) / t.length;
      const ssTot = t.reduce((s, y) => s + (y - mean) ** 2, 0);
      const ssRes = t.reduce((s, y, i) => s + (y - p[i]!) ** 2, 0);
      if (ssTot === 0) throw new ScoringError('r2 is undefined when the target is constant');
      return 1 - ssRes / ssTot;
    }
  }
}

function labelOf(s: string): string {
  const n = toNumber(s);
  return n !== undefined ? String(n) : s.trim();
}

function f1For(t: string[], p: string[], pos: string): number {
  let tp = 0, fp = 0, fn = 0;
  t.forEach((v, i) => {
    if (p[i] === pos && v === pos) tp++;
    else if (p[i] === pos) fp++;
    else if (v === pos) fn++;
  });
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** Mann-Whitney form of ROC AUC, ties counted half. */
export function rocAuc(t: number[], s: number[]): number {
  const idx = t.map((_, i) => i).sort((a, b) => s[a]! - s[b]!);
  const ranks = new Array<number>(t.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && s[idx[j + 1]!] === s[idx[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = r;
    i = j + 1;
  }
  const pos = t.filter((v) => v === 1).length;
  const neg = t.length - pos;
  if (pos === 0 || neg === 0) throw new ScoringError('auc needs both classes in the ground truth');
  const sumPos = t.reduce((acc, v, i) => acc + (v === 1 ? ranks[i]! : 0), 0);
  return (sumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

export interface ScoreOptions {
  metric: MetricName;
  /** Default: the first column of the ground truth. */
  idColumn?: string;
  /** Default: inferred (the only non-id column of the submission, or the only one both files share). */
  targetColumn?: string;
  /** The target's name in the ground truth when it differs. */
  truthTargetColumn?: string;
  positiveLabel?: string;
  threshold?: number;
}

export interface ScoreResult {
  metric: MetricName;
  score: number;
  higherIsBetter: boolean;
  /** Rows scored. */
  n: number;
  idColumn: string;
  targetColumn: string;
  /** Ground-truth ids absent from the submission (Kaggle would reject such a file). */
  missingIds: number;
  /** Submission ids absent from the ground truth (ignored). */
  extraIds: number;
  duplicateIds: number;
}

function findColumn(header: string[], name: string): number {
  const exact = header.indexOf(name);
  if (exact >= 0) return exact;
  return header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
}

export function scoreSubmission(submission: Csv, truth: Csv, opts: ScoreOptions): ScoreResult {
  const idName = opts.idColumn ?? truth.header[0]!;
  const sId = findColumn(submission.header, idName);
  const tId = findColumn(truth.header, idName);
  if (tId < 0) throw new ScoringError(`the ground truth has no id column ${JSON.stringify(idName)} (columns: ${truth.header.join(', ')})`);
  if (sId < 0) throw new ScoringError(`the submission has no id column ${JSON.stringify(idName)} (columns: ${submission.header.join(', ')})`);

  let target = opts.targetColumn;
  if (!target) {
    const subCols = submission.header.filter((_, i) => i !== sId);
    const truthCols = truth.header.filter((_, i) => i !== tId);
    const shared = subCols.filter((c) => findColumn(truthCols, c) >= 0);
    if (subCols.length === 1 && (truthCols.length === 1 || shared.length === 1)) target = subCols[0]!;
    else if (shared.length === 1) target = shared[0]!;
    else throw new ScoringError(`cannot tell the target column: submission has ${subCols.join(', ') || 'none'}, ground truth has ${truthCols.join(', ') || 'none'}; name it`);
  }
  const sT = findColumn(submission.header, target);
  const truthTarget = opts.truthTargetColumn ?? (findColumn(truth.header, target) >= 0 ? target : truth.header.filter((_, i) => i !== tId).length === 1 ? truth.header.find((_, i) => i !== tId)! : target);
  const tT = findColumn(truth.header, truthTarget);
  if (sT < 0) throw new ScoringError(`the submission has no column ${JSON.stringify(target)} (columns: ${submission.header.join(', ')})`);
  if (tT < 0) throw new ScoringError(`the ground truth has no column ${JSON.stringify(truthTarget)} (columns: ${truth.header.join(', ')})`);

  const preds = new Map<string, string>();
  let duplicateIds = 0;
  for (const r of submission.rows) {
    const id = normalizeId(r[sId] ?? '');
    if (preds.has(id)) { duplicateIds++; continue; }
    preds.set(id, r[sT] ?? '');
  }
  const yTrue: string[] = [];
  const yPred: string[] = [];
  let missingIds = 0;
  const truthIds = new Set<string>();
  for (const r of truth.rows) {
    const id = normalizeId(r[tId] ?? '');
    truthIds.add(id);
    const p = preds.get(id);
    if (p === undefined) { missingIds++; continue; }
    yTrue.push(r[tT] ?? '');
    yPred.push(p);
  }
  const extraIds = [...preds.keys()].filter((id) => !truthIds.has(id)).length;
  const score = metricValue(opts.metric, yTrue, yPred, { ...(opts.positiveLabel !== undefined ? { positiveLabel: opts.positiveLabel } : {}), ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}) });
  return {
    metric: opts.metric,
    score,
    higherIsBetter: METRICS[opts.metric].higherIsBetter,
    n: yTrue.length,
    idColumn: submission.header[sId]!,
    targetColumn: submission.header[sT]!,
    missingIds,
    extraIds,
    duplicateIds,
  };
}

/**
 * Below this magnitude a printed number is floating-point noise around zero, not a result: the mean
 * of a standardised column prints as -2.1e-16 in one numpy and 3.6e-16 in the next (the summation
 * order changed), and a relative difference between two such values is meaningless.
 */
export const NOISE_FLOOR = 1e-9;

/** |new - original| / |original|; with an original of 0 the absolute difference; two values that are both noise around zero are equal. */
export function relativeDifference(original: number, current: number): number {
  if (original === current) return 0;
  if (Math.abs(original) < NOISE_FLOOR && Math.abs(current) < NOISE_FLOOR) return 0;
  if (!Number.isFinite(original) || !Number.isFinite(current)) return Infinity;
  return original === 0 ? Math.abs(current) : Math.abs(current - original) / Math.abs(original);
}

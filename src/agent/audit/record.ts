/**
 * What the audit keeps per notebook: one AuditRecord, written to the store when the notebook is
 * finished and read back by `report`. Everything the summary and the pages show comes from here
 * (plus the artifacts it points to), so a report can be rebuilt from the store alone.
 */
import type { Verdict } from '../verdict.js';
import type { Taxonomy } from './taxonomy.js';

export const AUDIT_RECORD_VERSION = 1;

/** How the notebook ended beyond the verdict: a run status, or why it could not be evaluated. */
export type RecordStatus =
  | 'ok' | 'error' | 'timeout' | 'kernel-died' | 'budget-exceeded'
  | 'malformed-notebook' | 'unsupported-kernel' | 'no-code-cells' | 'missing-data' | 'environment'
  | 'crashed' | 'internal-error'
  /** --fix: the LLM provider failed past its retries (timeouts, 5xx/429, auth); not a verdict on the notebook. */
  | 'llm-error';

export interface RecordError { cell: number | null; ename: string; evalue: string }

export interface RecordComparison {
  cell: number | null; original: number | null; new: number | null; relDiff: number | null; ok: boolean; context?: string;
  /** Not judged, and why (a value that differs between two clean runs: 'nondeterministic'). */
  unjudged?: string;
}

export interface RecordFix { type: string; source: string; sourceKind?: string; cell: number; summary?: string }

export interface Stage {
  verdict: Verdict;
  status: RecordStatus;
  reason: string;
  error?: RecordError;
  taxonomy: Taxonomy | null;
}

export interface AuditRecord {
  v: number;
  /** Stable key: the notebook's path relative to the input (or the manifest's id). */
  id: string;
  /** The notebook file as given. */
  path: string;
  mode: 'baseline' | 'fix';
  verdict: Verdict;
  status: RecordStatus;
  reason: string;
  oracle: string;
  /** One representative pair: expected vs achieved score, else the worst (or last) compared number. */
  score: { original: number | null; new: number | null; label: string } | null;
  /** Compared values, mismatches first, bounded. */
  comparisons: RecordComparison[];
  error?: RecordError;
  /** Why it does not reproduce (null when it does). */
  taxonomy: Taxonomy | null;
  /** --fix: the notebook as-is, before any edit (the baseline is this record itself otherwise). */
  before?: Stage;
  stopReason?: string;
  fixes: RecordFix[];
  llm: { calls: number; inputTokens: number; outputTokens: number; costUsd: number };
  /** Time the notebook took in its worker, sandbox start included. */
  wallMs: number;
  /** Sum of the cell execution durations (every execution, from the kernel's timestamps). */
  cellMs: number;
  cellExecutions: number;
  sandbox: string | null;
  /** Files under the audit directory (relative paths). */
  artifacts: { dir: string; notebook?: string; runResult?: string; report?: string; diff?: string; drift?: string; trajectory?: string; edits?: string };
  finishedAt: string;
}

export const ZERO_LLM = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 } as const;

/** Keep the stored record small: the comparisons that tell the story, not all 20,000 of them. */
export function pickComparisons(all: RecordComparison[], limit = 20): RecordComparison[] {
  const bad = all.filter((c) => !c.ok).sort((a, b) => (b.relDiff ?? Infinity) - (a.relDiff ?? Infinity));
  // Values left unjudged are listed right after the failures: the report must say what it did not judge.
  const unjudged = all.filter((c) => c.ok && c.unjudged);
  const good = all.filter((c) => c.ok && !c.unjudged);
  return [...bad, ...unjudged, ...good].slice(0, limit).map((c) => ({ ...c, ...(c.context ? { context: c.context.slice(0, 160) } : {}) }));
}

/** The one pair of numbers a table cell can show. */
export function representativeScore(oracle: string, all: RecordComparison[]): AuditRecord['score'] {
  if (!all.length) return null;
  if (oracle === 'expected-score') {
    const c = all.find((x) => x.cell === null) ?? all[0]!;
    return { original: c.original, new: c.new, label: c.context ?? 'score' };
  }
  const worst = all.filter((c) => !c.ok).sort((a, b) => (b.relDiff ?? Infinity) - (a.relDiff ?? Infinity))[0];
  const c = worst ?? all[all.length - 1]!;
  return { original: c.original, new: c.new, label: c.cell === null ? 'score' : `cell ${c.cell}` };
}

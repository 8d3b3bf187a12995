/**
 * From the store's records to summary.json: counts per verdict before and after, outcomes, the
 * failure taxonomy, fix statistics, cost and time, and one row per notebook (sorted by id, so the
 * same records always give the same summary, whatever order the workers finished in).
 */
import { toolVersion } from '../../core/version.js';
import type { AuditRecord } from '../audit/record.js';
import type { StoreState } from '../audit/store.js';
import { NOT_RUN_INPUT, NOT_RUN_MODULE } from '../verdict.js';
import { AuditSummary, SUMMARY_SCHEMA_VERSION, type NotebookRow } from './summary-schema.js';

const RUNTIME_BUCKETS: Array<[string, number | null]> = [
  ['<10s', 10_000], ['10–30s', 30_000], ['30s–1m', 60_000], ['1–2m', 120_000], ['2–5m', 300_000], ['5–10m', 600_000], ['>10m', null],
];

function count<T>(items: T[], key: (t: T) => string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) {
    const k = key(it);
    if (k !== undefined) out[k] = (out[k] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function verdictCounts(verdicts: string[]) {
  return {
    notebooks: verdicts.length,
    reproduced: verdicts.filter((v) => v === 'reproduced').length,
    'not-reproduced': verdicts.filter((v) => v === 'not-reproduced').length,
    failed: verdicts.filter((v) => v === 'failed').length,
  };
}

function quantile(xs: number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

export function outcomeOf(r: AuditRecord): string {
  const before = r.before?.verdict ?? r.verdict;
  if (r.status === 'crashed') return 'crashed';
  if (r.verdict === 'failed' && (before === 'failed' || r.status === 'llm-error')) return 'could not evaluate';
  if (before === 'reproduced' && r.verdict === 'reproduced') return 'reproduced as-is';
  if (r.verdict === 'reproduced') return 'fixed';
  if (before === 'reproduced') return 'broken by the fix';
  return 'not reproduced';
}

function row(r: AuditRecord): NotebookRow {
  const artifacts: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.artifacts)) if (typeof v === 'string') artifacts[k] = v;
  return {
    id: r.id,
    path: r.path,
    verdict: r.verdict,
    status: r.status,
    reason: r.reason,
    oracle: r.oracle,
    score: r.score,
    before: r.before?.verdict ?? r.verdict,
    taxonomy: r.taxonomy,
    beforeTaxonomy: r.before ? r.before.taxonomy : r.taxonomy,
    ...(r.error ? { error: r.error } : {}),
    fixes: r.fixes.length,
    fixTypes: [...new Set(r.fixes.map((f) => f.type))],
    ...(r.stopReason ? { stopReason: r.stopReason } : {}),
    costUsd: r.llm.costUsd,
    wallMs: r.wallMs,
    cellMs: r.cellMs,
    artifacts,
  };
}

export interface SummaryMeta {
  /** Notebooks in the input (null when unknown, e.g. `report` on a directory alone). */
  planned?: number | null;
  sandbox?: string | null;
  environment?: string | null;
}

export function buildSummary(state: StoreState, meta: SummaryMeta = {}): AuditSummary {
  const records = [...state.finished.values()].sort((a, b) => a.id.localeCompare(b.id));
  const first = state.sessions[0];
  const last = state.sessions[state.sessions.length - 1];
  const mode = last?.mode ?? (records.some((r) => r.mode === 'fix') ? 'fix' : 'baseline');
  const fixes = records.flatMap((r) => r.fixes);
  const walls = records.map((r) => r.wallMs);
  const notebookMs = walls.reduce((a, b) => a + b, 0);
  const cellMs = records.reduce((a, r) => a + r.cellMs, 0);
  const notReproducedBefore = records.filter((r) => (r.before?.verdict ?? r.verdict) !== 'reproduced');
  const taxBefore = notReproducedBefore.map((r) => (r.before ? r.before.taxonomy : r.taxonomy)).filter((t) => t !== null);
  const matrix = new Map<string, { exceptionClass: string; cause: string; count: number }>();
  for (const t of taxBefore) {
    const k = `${t.exceptionClass}\u0000${t.cause}`;
    const m = matrix.get(k) ?? { exceptionClass: t.exceptionClass, cause: t.cause, count: 0 };
    m.count += 1;
    matrix.set(k, m);
  }
  const elapsedMs = state.spans.reduce((s, sp) => s + (Date.parse(sp.end) - Date.parse(sp.start)), 0);
  const planned = meta.planned ?? last?.notebooks ?? null;
  const summary: AuditSummary = {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    tool: { name: 'nbmodernize', version: toolVersion() },
    generatedAt: new Date().toISOString(),
    audit: {
      input: last?.input ?? null,
      mode,
      sessions: state.sessions.length,
      jobs: last?.jobs ?? null,
      sandbox: meta.sandbox ?? (records.find((r) => r.sandbox)?.sandbox ?? null),
      environment: meta.environment ?? ((last?.options?.environment as string | undefined) ?? null),
      startedAt: first?.at ?? null,
      elapsedMs,
      planned,
      complete: planned !== null && records.length >= planned,
    },
    totals: verdictCounts(records.map((r) => r.verdict)),
    setAside: {
      missingInput: records.filter((r) => r.verdict === 'reproduced' && r.reason?.includes(NOT_RUN_INPUT)).length,
      missingModule: records.filter((r) => r.verdict === 'reproduced' && r.reason?.includes(NOT_RUN_MODULE)).length,
    },
    before: verdictCounts(records.map((r) => r.before?.verdict ?? r.verdict)),
    outcomes: count(records, outcomeOf),
    cost: {
      usd: Number(records.reduce((a, r) => a + r.llm.costUsd, 0).toFixed(6)),
      llmCalls: records.reduce((a, r) => a + r.llm.calls, 0),
      inputTokens: records.reduce((a, r) => a + r.llm.inputTokens, 0),
      outputTokens: records.reduce((a, r) => a + r.llm.outputTokens, 0),
    },
    time: {
      notebookMs,
      cellMs,
      overheadMs: Math.max(0, notebookMs - cellMs),
      medianNotebookMs: quantile(walls, 0.5),
      p90NotebookMs: quantile(walls, 0.9),
    },
    taxonomy: {
      causes: count(taxBefore, (t) => t.cause),
      classes: count(taxBefore, (t) => t.exceptionClass),
      matrix: [...matrix.values()].sort((a, b) => b.count - a.count || a.exceptionClass.localeCompare(b.exceptionClass) || a.cause.localeCompare(b.cause)),
      basis: 'before',
      remaining: mode === 'fix' ? count(records.filter((r) => r.taxonomy), (r) => r.taxonomy!.cause) : {},
    },
    fixTypes: count(fixes, (f) => f.type),
    fixSources: count(fixes, (f) => f.sourceKind ?? (/^[a-z0-9-]+(\+[a-z0-9-]+)*$/.test(f.source) ? 'rule' : 'llm')),
    fixesPerNotebook: Object.fromEntries(
      Object.entries(count(records, (r) => String(Math.min(r.fixes.length, 10)))).sort((a, b) => Number(a[0]) - Number(b[0])).map(([k, v]) => [k === '10' ? '10+' : k, v]),
    ),
    runtime: RUNTIME_BUCKETS.map(([label, maxMs], i) => {
      const min = i === 0 ? -Infinity : RUNTIME_BUCKETS[i - 1]![1]!;
      return { label, maxMs, count: walls.filter((w) => w >= min && (maxMs === null || w < maxMs)).length };
    }),
    notebooks: records.map(row),
  };
  return AuditSummary.parse(summary);
}

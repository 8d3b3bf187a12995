/**
 * Per-notebook material the HTML page opens on demand: the diff (code changes of --fix, else the
 * output drift of the as-is run) and the trajectory, read from the artifacts and bounded so a
 * report over thousands of notebooks stays a file a browser opens.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditSummary } from './summary-schema.js';

export interface NotebookDetail {
  diff: string;
  diffKind: 'changes' | 'outputs' | 'none';
  diffTruncated: boolean;
  trajectory: Array<Record<string, unknown>>;
  trajectoryTruncated: boolean;
  comparisons: Array<{ cell: number | null; original: number | null; new: number | null; relDiff: number | null; ok: boolean; context?: string }>;
}

const MAX_DIFF_CHARS = 60_000;
const MAX_TRAJECTORY = 120;
/** Past this, diffs and trajectories are left out of the page (the row links to the files instead). */
const MAX_TOTAL_CHARS = 40_000_000;

function readText(dir: string, rel: string | undefined): string | undefined {
  if (!rel) return undefined;
  try {
    return fs.readFileSync(path.join(dir, rel), 'utf8');
  } catch {
    return undefined;
  }
}

/** Drop what is large and not shown: runtime state, full LLM replies and prompts. */
function compactEntry(e: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (k === 'state' || k === 'edits' || k === 'patch') continue;
    if (k === 'cells' && Array.isArray(v)) {
      out.cells = v.slice(0, 400).map((c: any) => ({ index: c.index, status: c.status, durationMs: c.durationMs, ...(c.error ? { error: { ename: c.error.ename, evalue: String(c.error.evalue ?? '').slice(0, 300) } } : {}) }));
      continue;
    }
    if (k === 'calls' && Array.isArray(v)) {
      out.calls = v.map((c: any) => ({ outcome: c.outcome, costUsd: c.costUsd, usage: c.usage, ...(c.feedback ? { feedback: String(c.feedback).slice(0, 300) } : {}) }));
      continue;
    }
    out[k] = typeof v === 'string' ? v.slice(0, 600) : v;
  }
  return out;
}

export function loadDetails(dir: string, summary: AuditSummary, records: Map<string, { comparisons: NotebookDetail['comparisons'] }>): Record<string, NotebookDetail> {
  const details: Record<string, NotebookDetail> = {};
  let total = 0;
  for (const n of summary.notebooks) {
    const changes = readText(dir, n.artifacts.diff);
    const drift = readText(dir, n.artifacts.drift);
    let diff = changes && changes.trim() ? changes : drift ?? '';
    const diffKind: NotebookDetail['diffKind'] = changes && changes.trim() ? 'changes' : drift ? 'outputs' : 'none';
    const diffTruncated = diff.length > MAX_DIFF_CHARS;
    if (diffTruncated) diff = diff.slice(0, diff.lastIndexOf('\n', MAX_DIFF_CHARS));
    const lines = (readText(dir, n.artifacts.trajectory) ?? '').split('\n').filter((l) => l.trim());
    const trajectory: Array<Record<string, unknown>> = [];
    for (const l of lines.slice(0, MAX_TRAJECTORY)) {
      try {
        trajectory.push(compactEntry(JSON.parse(l)));
      } catch { /* a torn last line */ }
    }
    const d: NotebookDetail = { diff, diffKind, diffTruncated, trajectory, trajectoryTruncated: lines.length > MAX_TRAJECTORY, comparisons: records.get(n.id)?.comparisons ?? [] };
    const size = diff.length + JSON.stringify(trajectory).length;
    if (total + size > MAX_TOTAL_CHARS) {
      details[n.id] = { ...d, diff: '', diffTruncated: diff.length > 0, trajectory: [], trajectoryTruncated: trajectory.length > 0 };
      continue;
    }
    total += size;
    details[n.id] = d;
  }
  return details;
}

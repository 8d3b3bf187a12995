/**
 * `audit --fix` for one notebook: first the baseline (as-is; that is the "before" of the report's
 * before -> after), then, when it does not reproduce, the full modernization loop. A notebook
 * that already reproduces, or that the tool cannot evaluate at all, is not handed to the loop.
 * The loop (src/agent/modernize.ts) is imported dynamically so the baseline audit works without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NbmError, ExitCode, errorMessage } from '../../core/errors.js';
import { notebookKernel, type Notebook } from '../../core/notebook.js';
import { auditBaseline, emptyRecord, JobInterrupted, jobSandbox, type JobContext } from './baseline.js';
import type { AuditJob } from './jobs.js';
import { pickComparisons, representativeScore, type AuditRecord, type RecordStatus, type Stage } from './record.js';
import { classifyFailure } from './taxonomy.js';

export interface FixSettings {
  /** The provider the loop uses (null = rules only) and why. */
  llm: { provider: unknown; reason: string; model?: string; providerName?: string };
  maxFixes?: number;
  spendCapUsd?: number;
  maxWallS?: number;
}

/** What this module reads from report.json (the loop's versioned report); the rest is kept on disk. */
interface ModernizeReportLike {
  verdict: 'reproduced' | 'not-reproduced' | 'failed';
  reason: string;
  stopReason: string;
  oracle: string;
  comparisons?: Array<{ cell: number | null; original: number | null; new: number | null; relDiff: number | null; ok: boolean; context?: string }>;
  baseline?: { status: string; error?: { cell: number; ename: string; evalue: string } };
  finalRun?: { status: string; wallMs: number; errorCell: number | null } | null;
  fixes: Array<{ type: string; source: string; sourceKind?: string; cell: number; summary?: string }>;
  cellExecutions: number;
  llm: { calls: number; inputTokens: number; outputTokens: number; costUsd: number };
  sandbox?: string | null;
  wallMs: number;
  artifacts?: Record<string, string>;
}

type ModernizeFn = (nb: Notebook, opts: Record<string, unknown>) => Promise<ModernizeReportLike>;

export class ModernizeUnavailable extends NbmError {
  constructor(detail: string) {
    super(`--fix needs the modernization loop (src/agent/modernize.ts), which is not in this build: ${detail}`, ExitCode.usage, 'usage', 'run the baseline audit without --fix');
  }
}

let cached: ModernizeFn | undefined;

/** The loop, or a clear error when this build does not have it yet. */
export async function loadModernize(): Promise<ModernizeFn> {
  if (cached) return cached;
  // A computed specifier: the audit must compile and run (baseline) before the loop exists.
  const spec = '../modernize.js';
  let mod: { modernizeNotebook?: ModernizeFn };
  try {
    mod = (await import(spec)) as { modernizeNotebook?: ModernizeFn };
  } catch (err) {
    throw new ModernizeUnavailable(errorMessage(err).split('\n')[0]!);
  }
  if (typeof mod.modernizeNotebook !== 'function') throw new ModernizeUnavailable('it does not export modernizeNotebook');
  cached = mod.modernizeNotebook;
  return cached;
}

function stageOf(r: AuditRecord): Stage {
  return { verdict: r.verdict, status: r.status, reason: r.reason, ...(r.error ? { error: r.error } : {}), taxonomy: r.taxonomy };
}

/** Sum of cell durations over every execution, and the last execution's first error (trajectory.jsonl). */
function readTrajectory(file: string): { cellMs: number; lastError?: { cell: number; ename: string; evalue: string }; lastStatus?: string } {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { cellMs: 0 };
  }
  let cellMs = 0;
  let lastError: { cell: number; ename: string; evalue: string } | undefined;
  let lastStatus: string | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let e: any;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e.type !== 'execution' || !Array.isArray(e.cells)) continue;
    for (const c of e.cells) cellMs += typeof c.durationMs === 'number' ? c.durationMs : 0;
    const bad = e.cells.find((c: any) => c.error);
    lastError = bad ? { cell: bad.index, ename: bad.error.ename, evalue: String(bad.error.evalue ?? '').slice(0, 500) } : undefined;
    lastStatus = e.status;
  }
  return { cellMs, ...(lastError ? { lastError } : {}), ...(lastStatus ? { lastStatus } : {}) };
}

export async function auditFix(job: AuditJob, ctx: JobContext, settings: FixSettings): Promise<AuditRecord> {
  const t0 = Date.now();
  const modernize = await loadModernize();
  const base = await auditBaseline(job, { ...ctx, subdir: 'baseline' });
  const before = stageOf(base.record);
  if (base.record.verdict !== 'not-reproduced' || !base.notebook) {
    // Reproduces as-is, or cannot be evaluated at all: nothing for the loop to do.
    return { ...base.record, mode: 'fix', before };
  }
  const outDir = path.join(ctx.auditDir, job.artifactDir);
  let python2 = false;
  try {
    python2 = notebookKernel(base.notebook).pythonMajor === 2;
  } catch { /* the baseline already vetted the kernel */ }
  let report: ModernizeReportLike;
  try {
    report = await modernize(base.notebook, {
      sandbox: jobSandbox(job, ctx.sandbox),
      outDir,
      notebookPath: job.path,
      llm: settings.llm,
      budgets: {
        ...(settings.maxFixes !== undefined ? { maxFixes: settings.maxFixes } : {}),
        ...(settings.spendCapUsd !== undefined ? { spendCapUsd: settings.spendCapUsd } : {}),
        ...(settings.maxWallS !== undefined ? { maxWallS: settings.maxWallS } : {}),
      },
      ...(job.timeoutS !== undefined ? { timeoutS: job.timeoutS } : {}),
      ...(job.cellTimeoutS !== undefined ? { cellTimeoutS: job.cellTimeoutS } : {}),
      ...(job.expected ? { expected: job.expected, forbiddenPaths: [job.expected.groundTruth] } : {}),
      ...(job.tolerance !== undefined ? { tolerance: job.tolerance } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onEvent: (e: any) => {
        if (e?.type === 'fix') ctx.onProgress?.({ phase: 'fixing', fixes: e.fix?.step ?? 0 });
        else if (e?.type === 'exec' && e.event?.type === 'cell-start') ctx.onProgress?.({ phase: 'cell', cell: e.event.codeIndex + 1, of: e.event.total });
      },
    });
  } catch (err) {
    if (ctx.signal?.aborted) throw new JobInterrupted();
    const status: RecordStatus = err instanceof NbmError && err.kind === 'environment' ? 'environment' : 'internal-error';
    return emptyRecord(job, 'fix', {
      verdict: 'failed', status, reason: `the modernization loop failed: ${errorMessage(err)}`,
      error: { cell: null, ename: (err as Error)?.name ?? 'Error', evalue: errorMessage(err).slice(0, 500) },
      taxonomy: classifyFailure({ verdict: 'failed', status }, ctx.env),
      before, wallMs: Date.now() - t0, cellMs: base.record.cellMs, cellExecutions: base.record.cellExecutions,
      artifacts: { dir: job.artifactDir },
    });
  }
  if (ctx.signal?.aborted && report.stopReason === 'interrupted') throw new JobInterrupted();

  const rel = (f: string | undefined) => (f ? path.relative(ctx.auditDir, path.resolve(outDir, f)).split(path.sep).join('/') : undefined);
  const trajectoryFile = report.artifacts?.trajectory ?? path.join(outDir, 'trajectory.jsonl');
  const traj = readTrajectory(path.resolve(outDir, trajectoryFile));
  const status = (report.finalRun?.status ?? traj.lastStatus ?? report.baseline?.status ?? 'error') as RecordStatus;
  const error = report.verdict === 'reproduced' ? undefined : traj.lastError;
  const comparisons = (report.comparisons ?? []).map((c) => ({ ...c }));
  const artifacts: AuditRecord['artifacts'] = { dir: job.artifactDir };
  for (const [k, key] of [['notebook', 'notebook'], ['diff', 'diff'], ['report', 'report'], ['trajectory', 'trajectory'], ['edits', 'edits']] as const) {
    const f = rel(report.artifacts?.[k]);
    if (f) artifacts[key] = f;
  }
  if (!artifacts.report) artifacts.report = rel('report.json');
  if (!artifacts.diff && fs.existsSync(path.join(outDir, 'changes.diff'))) artifacts.diff = rel('changes.diff');
  if (!artifacts.trajectory) artifacts.trajectory = rel('trajectory.jsonl');
  if (base.record.artifacts.drift) artifacts.drift = base.record.artifacts.drift;
  return emptyRecord(job, 'fix', {
    verdict: report.verdict,
    status,
    reason: report.reason,
    oracle: report.oracle,
    score: representativeScore(report.oracle, comparisons),
    comparisons: pickComparisons(comparisons),
    ...(error ? { error } : {}),
    taxonomy: classifyFailure({ verdict: report.verdict, status, ...(error ? { error } : {}), python2 }, ctx.env),
    before,
    stopReason: report.stopReason,
    fixes: report.fixes.map((f) => ({ type: f.type, source: f.source, ...(f.sourceKind ? { sourceKind: f.sourceKind } : {}), cell: f.cell, ...(f.summary ? { summary: f.summary.slice(0, 200) } : {}) })),
    llm: { calls: report.llm.calls, inputTokens: report.llm.inputTokens, outputTokens: report.llm.outputTokens, costUsd: report.llm.costUsd },
    wallMs: Date.now() - t0,
    cellMs: base.record.cellMs + traj.cellMs,
    cellExecutions: base.record.cellExecutions + report.cellExecutions,
    sandbox: report.sandbox ?? base.record.sandbox,
    artifacts,
  });
}

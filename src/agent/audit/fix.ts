/**
 * `audit --fix` for one notebook: first the baseline (as-is; that is the "before" of the report's
 * before -> after), then, when it does not reproduce, the full modernization loop. A notebook
 * that already reproduces, or that the tool cannot evaluate at all, is not handed to the loop.
 * The loop (src/agent/modernize.ts) is loaded only for --fix. What the record needs beyond
 * report.json (time in cells, the last run's error) comes from the loop's events, not from files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NbmError, errorMessage } from '../../core/errors.js';
import type { ModernizeReport } from '../../core/modernize-report.js';
import type { Budgets } from '../budgets.js';
import type { AgentEvent } from '../events.js';
import type { ModernizeOptions } from '../modernize.js';
import { ReportBuilder } from '../report-builder.js';
import { notebookKernel, type Notebook } from '../../core/notebook.js';
import { auditBaseline, emptyRecord, JobInterrupted, jobSandbox, type JobContext } from './baseline.js';
import type { AuditJob } from './jobs.js';
import { pickComparisons, representativeScore, type AuditRecord, type RecordStatus, type Stage } from './record.js';
import { classifyFailure } from './taxonomy.js';

export interface FixSettings {
  /** The provider the loop uses (null = rules only) and why; the loop meters it against the spend cap. */
  /** As for modernize (provider, --llm-max-tokens, --llm-mode). */
  llm: NonNullable<ModernizeOptions['llm']>;
  budgets: Partial<Budgets>;
}

type ModernizeFn = (nb: Notebook, opts: ModernizeOptions) => Promise<ModernizeReport>;

let cached: ModernizeFn | undefined;

/** The loop, loaded on the first --fix notebook only (a baseline audit never pays for it). */
export async function loadModernize(): Promise<ModernizeFn> {
  cached ??= (await import('../modernize.js')).modernizeNotebook;
  return cached;
}

function stageOf(r: AuditRecord): Stage {
  return { verdict: r.verdict, status: r.status, reason: r.reason, ...(r.error ? { error: r.error } : {}), taxonomy: r.taxonomy };
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
  // Listens to the same events as the trajectory: the executions' time and the last run's error.
  const seen = new ReportBuilder();
  const onEvent = (e: AgentEvent) => {
    seen.on(e);
    if (e.type === 'fix') ctx.onProgress?.({ phase: 'fixing', fixes: e.fix.step });
    else if (e.type === 'exec' && e.event.type === 'cell-start') ctx.onProgress?.({ phase: 'cell', cell: e.event.codeIndex + 1, of: e.event.total });
  };
  let report: ModernizeReport;
  try {
    report = await modernize(base.notebook, {
      sandbox: jobSandbox(job, ctx.sandbox),
      outDir,
      notebookPath: job.path,
      llm: settings.llm,
      budgets: settings.budgets,
      ...(job.timeoutS !== undefined ? { timeoutS: job.timeoutS } : {}),
      ...(job.cellTimeoutS !== undefined ? { cellTimeoutS: job.cellTimeoutS } : {}),
      ...(job.expected ? { expected: job.expected, forbiddenPaths: typeof job.expected.groundTruth === 'string' ? [job.expected.groundTruth] : [] } : {}),
      ...(job.tolerance !== undefined ? { tolerance: job.tolerance } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onEvent,
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
  // Whatever the loop concluded once the audit was stopping (a cancelled LLM call reads as a
  // provider failure) is not a verdict: the notebook is given back and --resume runs it.
  if (ctx.signal?.aborted) throw new JobInterrupted();

  // The provider failed past its retries: the notebook could not be evaluated (--retry-failed runs it again).
  const providerFailed = report.stopReason === 'llm-error';
  const rel = (f: string | undefined) => (f ? path.relative(ctx.auditDir, path.resolve(outDir, f)).split(path.sep).join('/') : undefined);
  const traj = seen.executions;
  const status = providerFailed ? 'llm-error' : (report.finalRun?.status ?? traj.lastStatus ?? report.baseline?.status ?? 'error') as RecordStatus;
  const error = providerFailed ? { cell: null, ename: 'LlmError', evalue: report.reason.slice(0, 500) } : report.verdict === 'reproduced' ? undefined : traj.lastError;
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
    verdict: providerFailed ? 'failed' : report.verdict,
    status,
    reason: providerFailed ? `the LLM provider failed: ${report.reason}` : report.reason,
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

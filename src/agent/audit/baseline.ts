/**
 * The baseline for one notebook: does it reproduce as-is in the fixed environment? Load, run in a
 * fresh kernel (no edits), decide the shared verdict, classify the failure, leave the artifacts.
 * Never throws for a bad notebook: malformed files, non-Python kernels, missing data and sandbox
 * failures become "failed" records with a clear reason, so nothing aborts the batch. Only an
 * interruption escapes (JobInterrupted): the notebook is then given back, not recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NbmError, errorMessage } from '../../core/errors.js';
import { assertHasCode, notebookKernel, readNotebookFile, serializeNotebook, writeFileAtomic, type Notebook } from '../../core/notebook.js';
import type { RunResult } from '../../core/run-result.js';
import { validateDataMount } from '../../executor/kaggle-layout.js';
import { runNotebook, type ExecEvent } from '../../executor/run-notebook.js';
import type { Sandbox, SandboxRequest } from '../../executor/types.js';
import { decideVerdict } from '../verdict.js';
import { outputDrift } from './drift.js';
import type { AuditJob } from './jobs.js';
import { AUDIT_RECORD_VERSION, pickComparisons, representativeScore, ZERO_LLM, type AuditRecord, type RecordStatus } from './record.js';
import { classifyFailure, type EnvironmentFacts } from './taxonomy.js';

export class JobInterrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

export type JobProgress =
  | { phase: 'loading' }
  | { phase: 'sandbox' }
  | { phase: 'kernel' }
  | { phase: 'cell'; cell: number; of: number }
  | { phase: 'fixing'; fixes: number };

export interface JobContext {
  /** Absolute audit directory; the job's artifacts go to auditDir/job.artifactDir. */
  auditDir: string;
  /** The audit-wide request (backend, memory); the job's data replaces `data`. */
  sandbox: SandboxRequest;
  env: EnvironmentFacts;
  signal?: AbortSignal;
  onProgress?: (p: JobProgress) => void;
  /**
   * A sandbox started for this job ahead of time (its data mounted); the caller stops it. Asked
   * for only once the notebook loaded: a malformed file does not wait for a sandbox it won't use.
   */
  prestarted?: () => Promise<Sandbox | undefined>;
  /** Called once the kernel is up and the notebook's cells run: a good moment to start the next sandbox. */
  onCellsStarted?: () => void;
  /**
   * Called when the run is recorded (outputs collected, produced files copied out): the pre-started
   * sandbox may go now, which spares the kernel's graceful shutdown (~0.7 s) in a sandbox that is
   * discarded anyway.
   */
  onRunRecorded?: () => void;
  /** Artifacts go to this subdirectory of the job's directory (--fix keeps the baseline apart). */
  subdir?: string;
}

export interface BaselineOutcome {
  record: AuditRecord;
  /** The notebook as loaded (the --fix stage starts from it); absent when it could not be loaded. */
  notebook?: Notebook;
}

export function jobSandbox(job: AuditJob, base: SandboxRequest): SandboxRequest {
  // The notebook's own project: its directory, unless the audit set one or turned it off.
  const req: SandboxRequest = { ...base, ...(base.project === undefined ? { project: { dir: path.dirname(job.path) } } : {}) };
  delete req.data;
  delete req.dataNextToNotebook;
  if (job.data) {
    req.data = job.data;
    if (job.dataNextToNotebook) req.dataNextToNotebook = true;
  }
  return req;
}

const INPUT_KINDS = new Set(['malformed-notebook', 'unsupported-kernel', 'no-code-cells', 'missing-data', 'environment']);

function statusOf(err: NbmError): RecordStatus {
  return INPUT_KINDS.has(err.kind) ? (err.kind as RecordStatus) : 'internal-error';
}

function rel(ctx: JobContext, file: string): string {
  return path.relative(ctx.auditDir, file).split(path.sep).join('/');
}

export function emptyRecord(job: AuditJob, mode: AuditRecord['mode'], fields: Partial<AuditRecord> & Pick<AuditRecord, 'verdict' | 'status' | 'reason'>): AuditRecord {
  return {
    v: AUDIT_RECORD_VERSION,
    id: job.id,
    path: job.path,
    mode,
    oracle: 'none',
    score: null,
    comparisons: [],
    taxonomy: null,
    fixes: [],
    llm: { ...ZERO_LLM },
    wallMs: 0,
    cellMs: 0,
    cellExecutions: 0,
    sandbox: null,
    artifacts: { dir: job.artifactDir },
    finishedAt: new Date().toISOString(),
    ...fields,
  };
}

/** A record for a notebook the tool could not evaluate. */
export function failedRecord(job: AuditJob, status: RecordStatus, reason: string, env: EnvironmentFacts, extra: Partial<AuditRecord> = {}): AuditRecord {
  return emptyRecord(job, 'baseline', {
    verdict: 'failed',
    status,
    reason,
    taxonomy: classifyFailure({ verdict: 'failed', status }, env),
    ...extra,
  });
}

export async function auditBaseline(job: AuditJob, ctx: JobContext): Promise<BaselineOutcome> {
  const t0 = Date.now();
  const outDir = path.join(ctx.auditDir, job.artifactDir, ctx.subdir ?? '');
  // A notebook audited again (resume after a crash) must not keep files of the attempt that died.
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const fail = (status: RecordStatus, reason: string, extra: Partial<AuditRecord> = {}): BaselineOutcome => {
    const reportFile = path.join(outDir, 'report.json');
    const record = failedRecord(job, status, reason, ctx.env, { wallMs: Date.now() - t0, artifacts: { dir: rel(ctx, outDir), report: rel(ctx, reportFile) }, ...extra });
    writeFileAtomic(reportFile, JSON.stringify({ kind: 'audit-baseline', ...record }, null, 2) + '\n');
    return { record };
  };

  ctx.onProgress?.({ phase: 'loading' });
  let notebook: Notebook;
  let originalFormat = 4;
  let notes: string[] = [];
  let python2 = false;
  try {
    const loaded = readNotebookFile(job.path);
    notebook = loaded.notebook;
    originalFormat = loaded.originalFormat;
    notes = loaded.notes;
    const kernel = notebookKernel(notebook, path.basename(job.path));
    python2 = kernel.pythonMajor === 2;
    assertHasCode(notebook, path.basename(job.path));
    if (job.data) validateDataMount(job.data);
  } catch (err) {
    if (err instanceof NbmError) return fail(statusOf(err), err.message);
    return fail('malformed-notebook', errorMessage(err));
  }

  const emit = (e: ExecEvent) => {
    if (e.type === 'sandbox-starting') ctx.onProgress?.({ phase: 'sandbox' });
    else if (e.type === 'sandbox-ready') ctx.onProgress?.({ phase: 'kernel' });
    else if (e.type === 'kernel-ready') ctx.onCellsStarted?.();
    else if (e.type === 'cell-start') ctx.onProgress?.({ phase: 'cell', cell: e.codeIndex + 1, of: e.total });
    else if (e.type === 'run-end') ctx.onRunRecorded?.();
  };
  let run: RunResult;
  let executed: Notebook;
  try {
    ctx.onProgress?.({ phase: 'sandbox' });
    const reuse = ctx.prestarted ? await ctx.prestarted() : undefined;
    const out = await runNotebook(notebook, {
      sandbox: jobSandbox(job, ctx.sandbox),
      ...(job.cellTimeoutS !== undefined ? { cellTimeoutS: job.cellTimeoutS } : {}),
      ...(job.timeoutS !== undefined ? { timeoutS: job.timeoutS } : {}),
      allowErrors: job.allowErrors ?? false,
      outDir,
      notebookPath: job.path,
      originalFormat,
      notes,
      onEvent: emit,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(reuse ? { reuseSandbox: reuse, sandboxStopsAfter: true } : {}),
    });
    run = out.result;
    executed = out.notebook;
  } catch (err) {
    if (ctx.signal?.aborted) throw new JobInterrupted();
    if (err instanceof NbmError) return { ...fail(statusOf(err), err.message), notebook };
    return { ...fail('internal-error', `the run failed: ${errorMessage(err)}`, { error: { cell: null, ename: (err as Error)?.name ?? 'Error', evalue: errorMessage(err) } }), notebook };
  }
  // Cut short by Ctrl-C: the cells that did not run say nothing about the notebook.
  if (ctx.signal?.aborted) throw new JobInterrupted();

  const verdict = decideVerdict({ original: notebook, executed, run, ...(job.expected ? { expected: job.expected } : {}), ...(job.tolerance !== undefined ? { tolerance: job.tolerance } : {}) });
  const error = run.error ? { cell: run.error.cell, ename: run.error.ename, evalue: run.error.evalue.slice(0, 500) } : undefined;
  const taxonomy = classifyFailure({ verdict: verdict.verdict, status: run.status, ...(error ? { error } : {}), python2 }, ctx.env);

  const name = path.basename(job.path).replace(/\.ipynb$/i, '');
  const nbFile = path.join(outDir, `${name}.executed.ipynb`);
  writeFileAtomic(nbFile, serializeNotebook(executed));
  run.outputs.notebook = nbFile;
  const runFile = path.join(outDir, 'run-result.json');
  writeFileAtomic(runFile, JSON.stringify(run, null, 2) + '\n');
  const trajectoryFile = path.join(outDir, 'trajectory.jsonl');
  const trajectory = [
    { at: run.startedAt, type: 'execution', mode: 'full', fromCell: 0, status: run.status, wallMs: run.wallMs, cells: run.cells.map((c) => ({ index: c.index, status: c.status, durationMs: c.durationMs, peakMemoryBytes: c.peakMemoryBytes, ...(c.error ? { error: { ename: c.error.ename, evalue: c.error.evalue } } : {}) })) },
    { at: run.finishedAt, type: 'verdict', verdict: verdict.verdict, reason: verdict.reason, oracle: verdict.oracle.oracle },
  ];
  writeFileAtomic(trajectoryFile, trajectory.map((t) => JSON.stringify(t)).join('\n') + '\n');
  const drift = outputDrift(notebook, executed);
  const driftFile = path.join(outDir, 'drift.diff');
  if (drift) writeFileAtomic(driftFile, drift);
  const comparisons = verdict.oracle.comparisons.map((c) => ({ cell: c.cell, original: c.original, new: c.new, relDiff: c.relDiff, ok: c.ok, ...(c.context ? { context: c.context } : {}) }));
  const reportFile = path.join(outDir, 'report.json');
  const record = emptyRecord(job, 'baseline', {
    verdict: verdict.verdict,
    status: run.status,
    reason: verdict.reason,
    oracle: verdict.oracle.oracle,
    score: representativeScore(verdict.oracle.oracle, comparisons),
    comparisons: pickComparisons(comparisons),
    ...(error ? { error } : {}),
    taxonomy,
    wallMs: Date.now() - t0,
    cellMs: run.cells.reduce((s, c) => s + (c.durationMs ?? 0), 0),
    cellExecutions: run.cellExecutions,
    sandbox: run.sandbox,
    artifacts: {
      dir: rel(ctx, outDir),
      notebook: rel(ctx, nbFile),
      runResult: rel(ctx, runFile),
      report: rel(ctx, reportFile),
      trajectory: rel(ctx, trajectoryFile),
      ...(drift ? { drift: rel(ctx, driftFile) } : {}),
    },
  });
  writeFileAtomic(reportFile, JSON.stringify({ kind: 'audit-baseline', ...record, oracleDetails: verdict.oracle.details }, null, 2) + '\n');
  return { record, notebook };
}

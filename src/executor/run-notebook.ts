/**
 * `nbmodernize run`: execute a notebook top to bottom in a fresh kernel inside a sandbox and
 * return the record — the executed notebook (outputs, per-cell status/duration in metadata,
 * papermill-style) and a RunResult. Stops at the first error unless allowErrors; a timeout,
 * budget overrun or dead kernel always stops the run (later cells would run on broken state).
 */
import path from 'node:path';
import { selectProjectFiles, stageProject, unchangedStaged } from './project-files.js';
import { codeCells, sourceText, type Notebook, type CodeCell, type Output } from '../core/notebook.js';
import { upgradeToV45 } from '../core/notebook-schema.js';
import { RUN_RESULT_SCHEMA_VERSION, isExpected, type CellError, type CellRecord, type ExpectedError, type RunResult, type RunStatus } from '../core/run-result.js';
import { toolVersion } from '../core/version.js';
import { log } from '../core/log.js';
import { KernelSession, type CellRun } from './kernel-session.js';
import { listProducedFiles } from './kaggle-layout.js';
import { copyOutFiles, type CopyOutLimits } from './copy-out.js';
import { openSandbox, type OpenSandboxOptions } from './sandbox.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './outputs.js';
import type { Sandbox, SandboxRequest } from './types.js';
import type { BuildEvent } from './environment/build.js';

export const DEFAULT_TIMEOUT_S = 600;

export interface RunOptions {
  sandbox: SandboxRequest;
  /** Per-cell timeout (default: the whole budget). */
  cellTimeoutS?: number;
  /** Whole-notebook time budget, default 600 s (the peer system's limit). */
  timeoutS?: number;
  allowErrors?: boolean;
  /** Where files written to the working dir are copied. */
  outDir?: string;
  notebookPath?: string;
  originalFormat?: number;
  notes?: string[];
  collectState?: boolean;
  outputLimits?: OutputLimits;
  /** Caps on the files copied to outDir/files (default DEFAULT_COPY_OUT_LIMITS). */
  copyOutLimits?: CopyOutLimits;
  onEvent?: (e: ExecEvent) => void;
  onBuildEvent?: (e: BuildEvent) => void;
  signal?: AbortSignal;
  /** Run in an already-started sandbox (the caller stops it). */
  reuseSandbox?: Sandbox;
  /** The caller stops reuseSandbox right after this run: leave the kernel to die with it. */
  sandboxStopsAfter?: boolean;
}

export type ExecEvent =
  | { type: 'sandbox-starting'; requested: string }
  | { type: 'sandbox-ready'; kind: string; reason: string; startMs: number }
  | { type: 'kernel-ready'; ms: number }
  | { type: 'cell-start'; index: number; codeIndex: number; total: number; preview: string }
  /** `outputs`: what the cell showed, for displays that follow a run live (the review page). */
  | { type: 'cell-end'; record: CellRecord; total: number; outputs: Output[] }
  | { type: 'run-end'; result: RunResult };

export interface RunOutcome { result: RunResult; notebook: Notebook }

export async function runNotebook(input: Notebook, opts: RunOptions): Promise<RunOutcome> {
  const started = new Date();
  const timeoutS = opts.timeoutS ?? DEFAULT_TIMEOUT_S;
  const cellTimeoutS = opts.cellTimeoutS ?? timeoutS;
  const emit = opts.onEvent ?? (() => {});
  emit({ type: 'sandbox-starting', requested: opts.sandbox.kind });
  const sandbox = opts.reuseSandbox ?? (await openSandbox(opts.sandbox, { signal: opts.signal, onBuildEvent: opts.onBuildEvent } as OpenSandboxOptions));
  emit({ type: 'sandbox-ready', kind: sandbox.kind, reason: sandbox.reason, startMs: sandbox.startMs });
  let session: KernelSession | undefined;
  try {
    // The budget starts with the kernel: sandbox start-up is reported separately, not charged to the notebook.
    // The notebook's own project files next to it, as in its repository checkout.
    const staged = opts.sandbox.project && sandbox.workDirHost ? stageProject(opts.sandbox.project, selectProjectFiles(opts.sandbox.project), sandbox.workDirHost) : undefined;
    session = await KernelSession.start(sandbox, opts.outputLimits ?? DEFAULT_OUTPUT_LIMITS);
    emit({ type: 'kernel-ready', ms: session.kernelStartMs });
    const { notebook, cells, status, message } = await executeCells(input, session, {
      deadline: Date.now() + timeoutS * 1000,
      cellTimeoutMs: cellTimeoutS * 1000,
      allowErrors: opts.allowErrors ?? false,
      collectState: opts.collectState ?? true,
      signal: opts.signal,
      emit,
    });
    const produced = collectProducedFiles(sandbox, opts.outDir, staged ? unchangedStaged(staged, sandbox.workDirHost) : undefined, opts.copyOutLimits);
    const finished = new Date();
    const firstError = cells.find((c) => c.error);
    const result: RunResult = {
      schemaVersion: RUN_RESULT_SCHEMA_VERSION,
      tool: { name: 'nbmodernize', version: toolVersion() },
      notebook: { path: opts.notebookPath ?? '<memory>', originalFormat: opts.originalFormat ?? 4, notes: opts.notes ?? [] },
      status,
      sandbox: sandbox.kind,
      sandboxInfo: { kind: sandbox.kind, requested: opts.sandbox.kind, reason: sandbox.reason, startMs: sandbox.startMs, limits: sandbox.limits },
      environment: sandbox.environment,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      wallMs: finished.getTime() - started.getTime(),
      kernelStartMs: session.kernelStartMs,
      options: {
        cellTimeoutS,
        timeoutS,
        allowErrors: opts.allowErrors ?? false,
        competition: opts.sandbox.data?.competition ?? null,
        dataDir: opts.sandbox.data?.dir ?? null,
      },
      cellExecutions: session.cellExecutions,
      cells,
      ...(firstError?.error ? { error: { ...firstError.error, cell: firstError.index } } : {}),
      ...(message ? { message } : {}),
      producedFiles: produced,
      outputs: { notebook: null, dir: opts.outDir ?? null },
    };
    notebook.metadata.nbmodernize = {
      ...(notebook.metadata.nbmodernize ?? {}),
      run: {
        status,
        environment: sandbox.environment,
        sandbox: sandbox.kind,
        startedAt: result.startedAt,
        finishedAt: result.finishedAt,
        wallMs: result.wallMs,
        toolVersion: result.tool.version,
      },
    };
    emit({ type: 'run-end', result });
    return { result, notebook };
  } finally {
    const sandboxEnds = !opts.reuseSandbox || opts.sandboxStopsAfter === true;
    await session?.close({ abandon: sandboxEnds && sandbox.killsAllOnStop === true }).catch(() => undefined);
    if (!opts.reuseSandbox) await sandbox.stop().catch((err) => log.warn(`sandbox stop failed: ${err}`));
  }
}

export interface ExecuteCellsOptions {
  deadline: number;
  cellTimeoutMs: number;
  allowErrors: boolean;
  collectState: boolean;
  signal?: AbortSignal;
  emit: (e: ExecEvent) => void;
  /** Only run code cells with index >= this (incremental re-execution); earlier ones keep their records. */
  fromCell?: number;
  /**
   * Run the code cells in this order (code cell indices; the author's execution order). Records keep
   * their notebook index and the executed notebook keeps file order; with `fromCell`, execution
   * resumes from that cell's position in the order.
   */
  order?: number[];
  /**
   * Errors the notebook's stored outputs show (cell index -> exception class): the author's own run
   * raised there. The same class again is recorded as expected and the run goes on, as the author's
   * did; a cell the author interrupted (KeyboardInterrupt), or one marked `skipped`, is not run at all.
   */
  expectedErrors?: ReadonlyMap<number, ExpectedError>;
  /**
   * Asked when a cell raises an error its record does not show: is it a consequence of the author's
   * own errors (`raisedAsAuthor`: the cells that raised theirs in this run)? The caller knows the
   * notebook's names; an answer makes the error part of the record too.
   */
  followsAuthorError?: (index: number, error: CellError, raisedAsAuthor: ReadonlySet<number>) => ExpectedError | undefined;
}

/** Execute the code cells of `input` in `session`; returns a new notebook with outputs and metadata. */
export async function executeCells(input: Notebook, session: KernelSession, o: ExecuteCellsOptions): Promise<{ notebook: Notebook; cells: CellRecord[]; status: RunStatus; message?: string }> {
  const notebook = upgradeToV45(structuredClone(input));
  notebook.metadata.kernelspec = { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' };
  const py = session.sandbox.environment.python;
  notebook.metadata.language_info = { ...(notebook.metadata.language_info ?? {}), name: 'python', ...(py ? { version: py } : {}) };
  const inFileOrder = codeCells(notebook);
  const rank = o.order ? new Map(o.order.map((idx, k) => [idx, k])) : undefined;
  // Cells the order leaves out run after it, in file order (a safety net, not a feature).
  const code = rank ? [...inFileOrder].sort((a, b) => (rank.get(a.index) ?? Infinity) - (rank.get(b.index) ?? Infinity) || a.index - b.index) : inFileOrder;
  const fromPos = o.fromCell !== undefined ? code.findIndex((c) => c.index === o.fromCell) : -1;
  if (rank) notebook.metadata.nbmodernize = { ...(notebook.metadata.nbmodernize ?? {}), runOrder: code.map((c) => c.index) };
  const cells: CellRecord[] = [];
  let status: RunStatus = 'ok';
  let message: string | undefined;
  let stopped = false;
  const raisedAsAuthor = new Set<number>();
  for (const [pos, { index, cell }] of code.entries()) {
    const codeIndex = inFileOrder.findIndex((c) => c.index === index);
    if (o.fromCell !== undefined && (rank ? pos < fromPos : index < o.fromCell)) continue;
    const src = sourceText(cell.source);
    if (stopped || o.signal?.aborted) {
      markCell(cell, null);
      cells.push(notRun(index, codeIndex));
      continue;
    }
    if (src.trim() === '') {
      // Jupyter does not send empty cells to the kernel either.
      markCell(cell, null);
      cell.outputs = [];
      cell.execution_count = null;
      cells.push({ ...notRun(index, codeIndex), status: 'ok', durationMs: 0 });
      continue;
    }
    const skip = o.expectedErrors?.get(index);
    if (skip?.ename === 'KeyboardInterrupt' || skip?.skipped) {
      // The author stopped this cell by hand (its stored outputs are all there is of it), or never ran
      // it and here it exceeds the time or memory limit: either way it has no record to run for.
      const expectedError = skip.skipped ? skip : { ename: 'KeyboardInterrupt', reason: 'the author interrupted this cell in the original run; it is not run' };
      markCell(cell, null);
      // The oracle reads this: the stored outputs of a cell not run here are not judged.
      (cell.metadata as { nbmodernize: Record<string, unknown> }).nbmodernize.skipped = expectedError.reason;
      cell.outputs = [{ output_type: 'stream', name: 'stderr', text: `[nbmodernize: ${expectedError.reason}]\n` }];
      cells.push({ ...notRun(index, codeIndex), status: 'error', error: { ename: expectedError.ename, evalue: '', traceback: [] }, expectedError });
      continue;
    }
    o.emit({ type: 'cell-start', index, codeIndex, total: code.length, preview: src.trim().split('\n')[0].slice(0, 60) });
    const run = await session.runCell(src, { timeoutMs: o.cellTimeoutMs, deadline: o.deadline, collectState: o.collectState, signal: o.signal });
    cell.outputs = run.outputs;
    cell.execution_count = run.executionCount;
    markCell(cell, run);
    const want = o.expectedErrors?.get(index);
    const expected = run.status !== 'error' || !run.error ? undefined
      : isExpected(want, run.error.ename, run.error.traceback) ? { ename: run.error.ename, ...(want!.neverRun ? { neverRun: true } : {}), reason: expectedReason(want!, run.error.ename) }
      : o.followsAuthorError?.(index, run.error, raisedAsAuthor);
    if (expected) {
      raisedAsAuthor.add(index);
      // The output notebook is the record: it says which errors were the author's (the oracle reads this).
      cell.metadata = { ...cell.metadata, nbmodernize: { ...(cell.metadata?.nbmodernize ?? {}), asAuthor: expected } };
    }
    const record: CellRecord = {
      ...(expected ? { expectedError: expected } : {}),
      index,
      codeIndex,
      status: run.status,
      executionCount: run.executionCount,
      durationMs: run.durationMs,
      startedAt: run.startedAt,
      peakMemoryBytes: run.peakMemoryBytes,
      outputsTruncated: run.outputsTruncated,
      ...(run.error ? { error: run.error } : {}),
      ...(run.state ? { state: run.state } : {}),
      ...(run.swallowed ? { swallowed: run.swallowed } : {}),
    };
    cells.push(record);
    o.emit({ type: 'cell-end', record, total: code.length, outputs: cell.outputs });
    if (run.status !== 'ok' && !expected) {
      if (status === 'ok') {
        status = run.status === 'not-run' ? 'error' : run.status;
        message = `cell ${index}: ${run.message ?? run.status}`;
      }
      const fatal = run.status !== 'error' || o.signal?.aborted;
      if (fatal || !o.allowErrors) stopped = true;
    }
  }
  return { notebook, cells, status, message };
}

/** Why this run's error in the cell is the author's (isExpected said it is). */
function expectedReason(want: ExpectedError, ename: string): string {
  if (want.ename === ename) return want.reason;
  if (want.ename === 'ModuleNotFoundError' || want.ename === 'ImportError') return `${want.reason}; it stopped at a missing module there, so the ${ename} the rest of the cell raises here is outside the record too`;
  return `${want.reason}, at the same statement; today's library raises ${ename} for it`;
}

function notRun(index: number, codeIndex: number): CellRecord {
  return { index, codeIndex, status: 'not-run', executionCount: null, durationMs: null, startedAt: null, peakMemoryBytes: null, outputsTruncated: false };
}

/** Per-cell status and timing in cell metadata, papermill-style, plus JupyterLab's `execution` timing keys. */
function markCell(cell: CodeCell, run: CellRun | null): void {
  const meta: Record<string, any> = { ...(cell.metadata ?? {}) };
  if (!run) {
    // Outputs from the original run would be misleading next to this run's results.
    cell.outputs = [];
    cell.execution_count = null;
    meta.papermill = { status: 'pending', start_time: null, end_time: null, duration: null, exception: null };
    meta.nbmodernize = { ...(meta.nbmodernize ?? {}), status: 'not-run' };
    delete meta.execution;
  } else {
    meta.papermill = {
      status: run.status === 'ok' ? 'completed' : 'failed',
      start_time: run.startedAt,
      end_time: run.finishedAt,
      duration: run.durationMs !== null ? run.durationMs / 1000 : null,
      exception: run.status !== 'ok',
    };
    meta.execution = { 'shell.execute_reply.started': run.startedAt, 'shell.execute_reply': run.finishedAt };
    meta.nbmodernize = {
      ...(meta.nbmodernize ?? {}),
      status: run.status,
      durationMs: run.durationMs,
      peakMemoryBytes: run.peakMemoryBytes,
      ...(run.outputsTruncated ? { outputsTruncated: true } : {}),
    };
  }
  cell.metadata = meta;
}

/** Copy what the notebook wrote into its working dir (submission.csv, ...) to outDir/files, within the caps. */
function collectProducedFiles(sandbox: Sandbox, outDir: string | undefined, staged?: Set<string>, limits?: CopyOutLimits): RunResult['producedFiles'] {
  if (!sandbox.workDirHost) return [];
  const files = listProducedFiles(sandbox.workDirHost, staged);
  if (!outDir) return files;
  const copied = copyOutFiles(sandbox.workDirHost, files, path.join(outDir, 'files'), limits);
  const skipped = copied.filter((f) => f.notCopied);
  if (skipped.length) log.warn(`${skipped.length} file${skipped.length === 1 ? '' : 's'} the notebook wrote not copied to ${outDir}/files: ${skipped.map((f) => `${f.name} (${f.notCopied})`).join('; ')}`);
  return copied;
}

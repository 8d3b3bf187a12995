/**
 * The real Environment: one sandbox and one Jupyter kernel for the whole modernization. A fresh
 * run restarts the kernel (when it ran anything, died, or another kernelspec is asked for),
 * clears the working dir so one run's files cannot satisfy the next, and stages the notebook's
 * own project files; an incremental run keeps the kernel and the outputs above its start cell.
 */
import fs from 'node:fs';
import path from 'node:path';
import { toolVersion } from '../core/version.js';
import type { ExpectedError, RunResult } from '../core/run-result.js';
import { DEFAULT_KERNEL, KernelSession } from '../executor/kernel-session.js';
import { executeCells } from '../executor/run-notebook.js';
import { openSandbox } from '../executor/sandbox.js';
import { listProducedFiles } from '../executor/kaggle-layout.js';
import { copyOutFiles } from '../executor/copy-out.js';
import { log } from '../core/log.js';
import { selectProjectFiles, stageProject, unchangedStaged, type StagedManifest } from '../executor/project-files.js';
import type { Sandbox, SandboxRequest } from '../executor/types.js';
import { findSubmissionFile } from './oracle/index.js';
import type { Environment, RunRequest, RunState } from './environment.js';
import { authorErrorConsequence } from './stored-errors.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';

export interface KernelEnvironmentOptions {
  request: SandboxRequest;
  notebookPath: string;
  outDir: string;
  timeoutS: number;
  cellTimeoutS: number;
  /** The author's own stored errors (cell -> exception class): raised again, they are the record. */
  expectedErrors: ReadonlyMap<number, ExpectedError>;
  signal?: AbortSignal;
}

export class KernelEnvironment implements Environment {
  private staged: StagedManifest | undefined;
  readonly project;
  private startedAt = new Date();
  /** The stored errors, and the errors excused since (never-run cells). */
  private readonly expectedErrors: Map<number, ExpectedError>;

  private constructor(readonly sandbox: Sandbox, readonly session: KernelSession, private readonly o: KernelEnvironmentOptions) {
    this.expectedErrors = new Map(o.expectedErrors);
    const req = o.request.project;
    // The output dir may lie inside the project: keep it out of the copy.
    this.project = req ? { request: { ...req, exclude: [...(req.exclude ?? []), ...relInside(req.dir, o.outDir)] }, selection: selectProjectFiles(req) } : undefined;
  }

  /** `onSandbox` hears of the sandbox as soon as it is up, so a report can name it even when the kernel then fails. */
  static async open(o: KernelEnvironmentOptions, onSandbox?: (sb: Sandbox) => void): Promise<KernelEnvironment> {
    const sandbox = await openSandbox(o.request, { signal: o.signal });
    onSandbox?.(sandbox);
    try {
      return new KernelEnvironment(sandbox, await KernelSession.start(sandbox), o);
    } catch (err) {
      await sandbox.stop().catch(() => undefined);
      throw err;
    }
  }

  get alive(): boolean { return this.session.alive; }
  get cellExecutions(): number { return this.session.cellExecutions; }
  get kernelName(): string { return this.session.kernelName; }
  get threads(): number | undefined { return this.o.request.threads; }
  get description(): Sandbox['environment'] { return this.sandbox.environment; }

  excuse(cell: number, expected: ExpectedError): void {
    this.expectedErrors.set(cell, expected);
  }

  inspect(name: string): Promise<string> {
    return this.session.inspect(name);
  }

  async run(req: RunRequest): Promise<RunState> {
    const { session: sess, sandbox: sb } = this;
    if (req.mode !== 'incremental') {
      if (sess.cellExecutions > 0 || !sess.alive || (req.kernel ?? DEFAULT_KERNEL) !== sess.kernelName) await sess.restart(req.kernel ? { kernel: req.kernel } : {});
      clearWorkDir(sb);
      if (this.project && sb.workDirHost) this.staged = stageProject(this.project.request, this.project.selection, sb.workDirHost);
    }
    const input = structuredClone(req.notebook);
    const prev = req.mode === 'incremental' ? req.prev : undefined;
    // Cells above the re-run point keep the outputs of their earlier execution.
    if (prev) for (let i = 0; i < req.fromCell; i++) if (input.cells[i]?.cell_type === 'code') (input.cells[i] as any).outputs = (prev.notebook.cells[i] as any).outputs;
    const spentBefore = prev ? prev.cells.filter((c) => c.index < req.fromCell).reduce((s, c) => s + (c.durationMs ?? 0), 0) : 0;
    const res = await executeCells(input, sess, {
      ...(req.order ? { order: req.order } : {}),
      ...(this.expectedErrors.size ? { expectedErrors: this.expectedErrors, followsAuthorError: authorErrorConsequence(() => analyzeNotebook(input)) } : {}),
      deadline: Date.now() + this.o.timeoutS * 1000 - spentBefore,
      cellTimeoutMs: this.o.cellTimeoutS * 1000,
      allowErrors: false,
      collectState: true,
      signal: this.o.signal,
      emit: req.onExec ?? (() => {}),
      ...(prev ? { fromCell: req.fromCell } : {}),
    });
    const cells = prev ? [...prev.cells.filter((c) => c.index < req.fromCell), ...res.cells] : res.cells;
    return { notebook: res.notebook, cells, ran: res.cells, status: res.status, complete: !cells.some((c) => c.status === 'not-run'), fresh: !prev };
  }

  /** The files the run wrote (not the staged project files it left as they were). */
  private ownFiles() {
    const dir = this.sandbox.workDirHost;
    return listProducedFiles(dir, this.staged ? unchangedStaged(this.staged, dir) : undefined).map((f) => ({ ...f, path: path.join(dir, f.name) }));
  }

  submission() {
    return findSubmissionFile(this.ownFiles());
  }

  /**
   * Files the final run wrote (submission.csv) belong to the outputs. Capped (per file and in all),
   * so a notebook that fills its disk quota cannot fill the output dir.
   */
  copyOutputs(dest: string): void {
    for (const f of copyOutFiles(this.sandbox.workDirHost, this.ownFiles(), dest)) {
      if (f.notCopied) log.warn(`${f.name} (${f.bytes} bytes) was not copied to the outputs: ${f.notCopied}`);
    }
  }

  runResult(state: RunState): RunResult {
    const { sandbox: sb, session: sess, o } = this;
    const firstError = state.cells.find((c) => c.error);
    return {
      schemaVersion: '1.0.0',
      tool: { name: 'nbmodernize', version: toolVersion() },
      notebook: { path: o.notebookPath, originalFormat: 4, notes: [] },
      status: state.status,
      sandbox: sb.kind,
      sandboxInfo: { kind: sb.kind, requested: o.request.kind, reason: sb.reason, startMs: sb.startMs, limits: sb.limits },
      environment: sb.environment,
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      wallMs: state.cells.reduce((s, c) => s + (c.durationMs ?? 0), 0),
      kernelStartMs: sess.kernelStartMs,
      options: { cellTimeoutS: o.cellTimeoutS, timeoutS: o.timeoutS, allowErrors: false, competition: o.request.data?.competition ?? null, dataDir: o.request.data?.dir ?? null },
      cellExecutions: sess.cellExecutions,
      cells: state.cells,
      ...(firstError?.error ? { error: { ...firstError.error, cell: firstError.index } } : {}),
      producedFiles: this.ownFiles(),
      outputs: { notebook: null, dir: o.outDir },
    };
  }

  async close(): Promise<void> {
    await this.session.close({ abandon: this.sandbox.killsAllOnStop }).catch(() => undefined);
    await this.sandbox.stop().catch(() => undefined);
  }
}

/** Clean the working dir between full runs so one run's files cannot satisfy the next one. */
function clearWorkDir(sb: Sandbox): void {
  if (!sb.workDirHost) return;
  for (const entry of fs.readdirSync(sb.workDirHost)) {
    const p = path.join(sb.workDirHost, entry);
    if (fs.lstatSync(p).isSymbolicLink()) continue; // data links (--data-next-to-notebook)
    fs.rmSync(p, { recursive: true, force: true });
  }
}

/** `inner` relative to `root` when it lies inside it (to keep the output dir out of the project copy). */
function relInside(root: string, inner: string): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(inner));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? [rel.split(path.sep).join('/')] : [];
}


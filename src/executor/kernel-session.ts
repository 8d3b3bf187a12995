/**
 * One live kernel inside a sandbox, executing cells one at a time with nbclient's guarantees:
 * a per-cell timeout (interrupt first, then replace the kernel if the interrupt is ignored), a
 * deadline for the whole notebook, and dead-kernel detection that never hangs. After each cell
 * a silent probe collects peak memory and a runtime-state summary. The agent keeps a session
 * alive across patches to re-run from a patched cell; `restart()` gives a clean kernel.
 */
import type { Output } from '../core/notebook.js';
import type { CellError, CellStatus, StateSummary } from '../core/run-result.js';
import { errorMessage } from '../core/errors.js';
import { log } from '../core/log.js';
import { diskFullNote } from './disk-quota.js';
import { JupyterClient, type ExecuteReply, type KernelHandle, type KernelLiveness } from './jupyter-client.js';
import { afterCellExpression, inspectExpression, probeInstallCode } from './kernel-probe.js';
import { DEFAULT_OUTPUT_LIMITS, OutputCollector, stripAnsi, type OutputLimits } from './outputs.js';
import type { Sandbox } from './types.js';

export interface CellRunOptions {
  /** Per-cell timeout. */
  timeoutMs: number;
  /** Absolute epoch ms when the notebook's time budget ends. */
  deadline?: number;
  collectState?: boolean;
  signal?: AbortSignal;
}

export interface CellRun {
  status: CellStatus;
  outputs: Output[];
  outputsTruncated: boolean;
  executionCount: number | null;
  durationMs: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  peakMemoryBytes: number | null;
  error?: CellError;
  state?: StateSummary;
  /** Fit errors a scikit-learn search caught during the cell (the probe's record; see kernel-probe.ts). */
  swallowed?: Array<{ error: string; fits: number; of: number }>;
  /** One line for humans when status is not ok. */
  message?: string;
}

/** How long an interrupted cell gets to answer before the kernel is replaced. */
const INTERRUPT_GRACE_MS = 5000;
const PROBE_TIMEOUT_MS = 15000;
const PROBE_KEY = '__nbmodernize__';

/**
 * The fixed environment's second kernelspec: python3 with PYTHONHASHSEED=1 instead of the
 * server's 0 (sandboxes/debian13/environment.json). A re-check run on it tells set and hash
 * ordering apart from results: a value that moves with the hash seed is not the notebook's result.
 */
export const RESEEDED_KERNEL = 'python3-hashseed1';
/** The environment's ordinary kernelspec (PYTHONHASHSEED=0 from the server). */
export const DEFAULT_KERNEL = 'python3';

type Race =
  | { kind: 'reply'; reply: ExecuteReply }
  | { kind: 'rejected'; error: unknown }
  | { kind: 'died'; state: KernelLiveness; detail: string }
  | { kind: 'timer' }
  | { kind: 'aborted' };

export class KernelSession {
  private kernel!: KernelHandle;
  private readonly client: JupyterClient;
  kernelStartMs = 0;
  /** Cells executed through this session (the agent's cost measure vs full re-runs). */
  cellExecutions = 0;
  /** Why the kernel must be replaced before the next cell (it died, or ignored an interrupt). */
  private broken: string | undefined;

  private constructor(readonly sandbox: Sandbox, private readonly limits: OutputLimits) {
    this.client = new JupyterClient(sandbox.endpoint);
  }

  static async start(sandbox: Sandbox, limits: OutputLimits = DEFAULT_OUTPUT_LIMITS): Promise<KernelSession> {
    const s = new KernelSession(sandbox, limits);
    await s.startKernel();
    return s;
  }

  get alive(): boolean {
    return !this.broken && this.kernel.liveness === 'alive';
  }

  /** The kernelspec the live kernel runs (`python3`, or RESEEDED_KERNEL for a re-check run). */
  kernelName = DEFAULT_KERNEL;

  private async startKernel(name = DEFAULT_KERNEL): Promise<void> {
    const t0 = Date.now();
    try {
      this.kernel = await this.client.startKernel(name);
      this.kernelName = name;
    } catch (err) {
      // Environments built before the spec existed (and remote servers) have only python3.
      if (name === DEFAULT_KERNEL) throw err;
      log.info(`kernelspec ${name} is not available (${errorMessage(err)}); using ${DEFAULT_KERNEL}`);
      this.kernel = await this.client.startKernel(DEFAULT_KERNEL);
      this.kernelName = DEFAULT_KERNEL;
    }
    await this.silent(probeInstallCode(), PROBE_TIMEOUT_MS);
    this.kernelStartMs = Date.now() - t0;
    this.broken = undefined;
  }

  /** A fresh kernel: clean state for a verdict run or after contamination; `kernel` picks another spec. */
  async restart(opts: { kernel?: string } = {}): Promise<void> {
    const old = this.kernel;
    await old.shutdown().catch(() => undefined);
    await this.startKernel(opts.kernel);
  }

  /**
   * Shut the kernel down and drop the connection. `abandon`: only drop the connection — for a
   * sandbox about to be killed whole, where the kernel's orderly shutdown (hundreds of ms) buys nothing.
   */
  async close(opts: { abandon?: boolean } = {}): Promise<void> {
    if (opts.abandon) await this.kernel?.disconnect();
    else await this.kernel?.shutdown().catch(() => undefined);
    await this.client.close();
  }

  async runCell(code: string, opts: CellRunOptions): Promise<CellRun> {
    if (this.broken) {
      log.info(`replacing the kernel before the next cell: ${this.broken}`);
      await this.restart();
    }
    this.cellExecutions += 1;
    const collector = new OutputCollector(this.limits);
    const wallStart = Date.now();
    const budgetLeft = opts.deadline !== undefined ? opts.deadline - wallStart : Infinity;
    const limitMs = Math.max(0, Math.min(opts.timeoutMs, budgetLeft));
    const limitedBy: 'cell' | 'budget' = budgetLeft < opts.timeoutMs ? 'budget' : 'cell';

    let unsubscribe = () => {};
    const died = new Promise<Race>((resolve) => {
      if (this.kernel.liveness !== 'alive') resolve({ kind: 'died', state: this.kernel.liveness, detail: 'kernel not alive' });
      unsubscribe = this.kernel.onLivenessChange((state, detail) => resolve({ kind: 'died', state, detail }));
    });
    let onAbort = () => {};
    const aborted = new Promise<Race>((resolve) => {
      if (opts.signal?.aborted) resolve({ kind: 'aborted' });
      onAbort = () => resolve({ kind: 'aborted' });
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    // The probe rides on the cell's own request as a user expression (one round trip per cell,
    // as nbclient has); the kernel skips user expressions after an error, so then it runs apart.
    const exec: Promise<Race> = this.kernel
      .execute({ code, userExpressions: { [PROBE_KEY]: afterCellExpression(opts.collectState !== false) } }, (msg) => collector.handle(msg))
      .then((reply) => ({ kind: 'reply' as const, reply }), (error) => ({ kind: 'rejected' as const, error }));
    const timers: NodeJS.Timeout[] = [];
    const timer = (ms: number) => new Promise<Race>((r) => timers.push(setTimeout(() => r({ kind: 'timer' }), ms)));

    try {
      let first = await Promise.race([exec, died, aborted, timer(limitMs)]);
      let status: CellStatus;
      let message: string | undefined;
      if (first.kind === 'timer' || first.kind === 'aborted') {
        const why = first.kind === 'aborted'
          ? 'interrupted by the user'
          : limitedBy === 'budget'
            ? `the notebook's time budget ran out during this cell (after ${Math.round(limitMs / 1000)} s in it)`
            : `cell timed out after ${Math.round(limitMs / 1000)} s`;
        status = first.kind === 'aborted' ? 'error' : limitedBy === 'budget' ? 'budget-exceeded' : 'timeout';
        await this.kernel.interrupt().catch((err) => log.warn(`interrupt failed: ${errorMessage(err)}`));
        const second = await Promise.race([exec, died, timer(INTERRUPT_GRACE_MS)]);
        if (second.kind === 'reply') {
          first = second;
          message = `${why}; the kernel was interrupted`;
        } else {
          this.broken = `it did not answer an interrupt within ${INTERRUPT_GRACE_MS / 1000} s`;
          message = `${why}; the kernel ignored the interrupt and was replaced`;
        }
        collector.addError(status === 'timeout' ? 'CellTimeoutError' : status === 'budget-exceeded' ? 'BudgetExceededError' : 'KeyboardInterrupt', message);
        const run = this.finish(collector, first.kind === 'reply' ? first.reply : undefined, wallStart, status, message);
        run.error = { ename: status === 'timeout' ? 'CellTimeoutError' : status === 'budget-exceeded' ? 'BudgetExceededError' : 'KeyboardInterrupt', evalue: message, traceback: [] };
        if (!this.broken) await this.probe(run, opts);
        return run;
      }
      if (first.kind === 'died' || first.kind === 'rejected') {
        const oom = this.sandbox.oomKilled();
        message = oom
          ? `the kernel was killed: out of memory (sandbox limit ${this.sandbox.limits.memoryMb ?? '?'} MB)`
          : `the kernel died during this cell (${first.kind === 'died' ? first.detail : errorMessage(first.error)})`;
        this.broken = 'the previous kernel died';
        collector.addError('DeadKernelError', message);
        const run = this.finish(collector, undefined, wallStart, 'kernel-died', message);
        run.error = { ename: oom ? 'MemoryError' : 'DeadKernelError', evalue: message, traceback: [] };
        return run;
      }
      const reply = first.reply;
      status = reply.status === 'ok' ? 'ok' : 'error';
      const run = this.finish(collector, reply, wallStart, status, undefined);
      const probed = applyProbe(run, reply.userExpressions?.[PROBE_KEY]);
      if (reply.status !== 'ok') {
        run.error = {
          ename: reply.ename ?? 'Error',
          evalue: reply.evalue ?? '',
          traceback: (reply.traceback ?? []).map(stripAnsi),
        };
        run.message = `${run.error.ename}: ${run.error.evalue}`.slice(0, 300) + diskFullNote(run.error.evalue, this.sandbox.limits);
      }
      if (!probed) await this.probe(run, opts);
      return run;
    } finally {
      unsubscribe();
      opts.signal?.removeEventListener('abort', onAbort);
      for (const t of timers) clearTimeout(t);
    }
  }

  private finish(collector: OutputCollector, reply: ExecuteReply | undefined, wallStart: number, status: CellStatus, message: string | undefined): CellRun {
    // Durations come from the kernel's own clock (reply metadata "started" -> reply header date), like nbclient.
    let durationMs: number | null = null;
    if (reply?.started && reply.finished) {
      const d = Date.parse(reply.finished) - Date.parse(reply.started);
      if (Number.isFinite(d) && d >= 0) durationMs = d;
    }
    if (durationMs === null) durationMs = Date.now() - wallStart;
    return {
      status,
      outputs: collector.finish(),
      outputsTruncated: collector.truncated,
      executionCount: reply?.executionCount ?? null,
      durationMs,
      startedAt: reply?.started ?? new Date(wallStart).toISOString(),
      finishedAt: reply?.finished ?? new Date().toISOString(),
      peakMemoryBytes: null,
      message,
    };
  }

  /**
   * A description of one live value (the LLM's `inspect` tool): evaluated silently as a user
   * expression (no output, no history, no execution count), by name lookup only, never code.
   */
  async inspect(name: string): Promise<string> {
    if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(name)) return `not a name: ${JSON.stringify(name)} (give a variable, optionally with attributes: df, df.columns)`;
    if (!this.alive) return 'the kernel is not running (its state is gone)';
    const reply = await this.silent('', PROBE_TIMEOUT_MS, { [PROBE_KEY]: inspectExpression(name) });
    const expr: any = reply?.userExpressions?.[PROBE_KEY];
    if (expr?.status !== 'ok') return `could not inspect ${name}${expr?.ename ? `: ${expr.ename}: ${expr.evalue}` : ''}`;
    try {
      return String(JSON.parse(expr.data['text/plain']));
    } catch {
      return `could not inspect ${name}: unreadable answer`;
    }
  }

  /** Peak RSS during the cell and the namespace summary after it; never fails the cell. */
  private async probe(run: CellRun, opts: CellRunOptions): Promise<void> {
    try {
      const reply = await this.silent('', PROBE_TIMEOUT_MS, { [PROBE_KEY]: afterCellExpression(opts.collectState !== false) });
      applyProbe(run, reply?.userExpressions?.[PROBE_KEY], false);
    } catch (err) {
      log.debug(`probe failed: ${errorMessage(err)}`);
    }
  }

  private async silent(code: string, timeoutMs: number, userExpressions?: Record<string, string>): Promise<ExecuteReply | undefined> {
    let t: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.kernel.execute({ code, silent: true, storeHistory: false, userExpressions }, () => {}),
        new Promise<undefined>((r) => (t = setTimeout(() => r(undefined), timeoutMs))),
      ]);
    } finally {
      clearTimeout(t);
    }
  }
}

/**
 * Take peak memory and state from the probe's user-expression result; true when it was there.
 * `inCell`: the probe ran inside the cell's request, so its own time is taken off the duration.
 */
function applyProbe(run: CellRun, expr: any, inCell = true): boolean {
  if (expr?.status !== 'ok') return false;
  try {
    const parsed = JSON.parse(expr.data['text/plain']);
    run.peakMemoryBytes = typeof parsed.peak === 'number' ? parsed.peak : null;
    if (parsed.state) run.state = parsed.state;
    if (Array.isArray(parsed.swallowed) && parsed.swallowed.length) run.swallowed = parsed.swallowed;
    if (inCell && run.durationMs !== null && typeof parsed.probeMs === 'number') {
      run.durationMs = Math.max(0, Math.round(run.durationMs - parsed.probeMs));
    }
    return true;
  } catch (err) {
    log.debug(`probe result unreadable: ${errorMessage(err)}`);
    return false;
  }
}

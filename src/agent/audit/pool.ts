/**
 * The coordinator side of the workers: N worker processes, a queue, and the bookkeeping that makes
 * results durable. Each worker runs one notebook at a time; when plenty of work is queued it is
 * also told which notebook comes next so it can start that sandbox early. Near the end of the
 * queue such a reservation is taken back from a busy worker and given to an idle one, so no
 * notebook waits behind a long-running one while a worker sits idle.
 */
import type { ChildProcess } from 'node:child_process';
import { log } from '../../core/log.js';
import type { JobProgress } from './baseline.js';
import type { AuditJob } from './jobs.js';
import type { FromWorker, ToWorker, WorkerConfig } from './protocol.js';
import type { AuditRecord } from './record.js';
import { forwardWorkerLog } from './worker-log.js';

/** What the pool needs of a worker process (a forked ChildProcess; a fake in tests). */
export type WorkerProcess = Pick<ChildProcess, 'pid' | 'send' | 'on' | 'once' | 'kill' | 'connected' | 'disconnect'> & {
  stderr?: NodeJS.ReadableStream | null;
};

export interface PoolHooks {
  /** A worker took the notebook (write the "started" line before it runs). */
  started(job: AuditJob): void;
  finished(record: AuditRecord): void;
  /** Given back unfinished (interrupted). */
  released(job: AuditJob, reason: string): void;
  /** The worker died while running it: record it as crashed. */
  crashed(job: AuditJob, detail: string): void;
  progress?(job: AuditJob, p: JobProgress): void;
  /** Stop handing out new notebooks (e.g. the total spend cap is reached). */
  shouldStop?(): string | undefined;
}

interface Slot {
  n: number;
  proc: WorkerProcess;
  ready: boolean;
  current?: AuditJob;
  next?: AuditJob;
  exited: boolean;
}

const MAX_EARLY_DEATHS = 3;
/** Worker deaths while running the same notebook before it is recorded as crashed. */
const MAX_WORKER_DEATHS = 2;

export class AuditPool {
  private readonly slots: Slot[] = [];
  /** Every worker ever started (slots drops the dead ones). */
  private readonly all: Slot[] = [];
  private queue: AuditJob[] = [];
  private earlyDeaths = 0;
  /** Worker deaths so far per notebook id. */
  private readonly deaths = new Map<string, number>();
  private stopping = false;
  private done!: () => void;
  private fail!: (err: Error) => void;
  private spawned = 0;

  constructor(
    private readonly opts: {
      size: number;
      config: WorkerConfig;
      spawn: () => WorkerProcess;
      hooks: PoolHooks;
      /** Milliseconds to wait for a worker to clean up after an abort before killing it. */
      shutdownGraceMs?: number;
    },
  ) {}

  /** Runs every job; resolves when all are finished (or given back after an abort). */
  run(jobs: AuditJob[], signal?: AbortSignal): Promise<void> {
    this.queue = [...jobs];
    return new Promise<void>((resolve, reject) => {
      this.done = resolve;
      this.fail = reject;
      if (!jobs.length) return resolve();
      const onAbort = () => this.abort();
      if (signal?.aborted) return resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
      const n = Math.min(this.opts.size, jobs.length);
      for (let i = 0; i < n; i++) this.spawn();
    }).finally(() => this.killAll());
  }

  private spawn(): void {
    const proc = this.opts.spawn();
    const slot: Slot = { n: ++this.spawned, proc, ready: false, exited: false };
    this.slots.push(slot);
    this.all.push(slot);
    forwardWorkerLog(proc.stderr, `worker ${slot.n}`);
    proc.on('message', (m: unknown) => this.onMessage(slot, m as FromWorker));
    proc.once('exit', (code, sig) => this.onExit(slot, code, sig));
    this.send(slot, { type: 'init', config: this.opts.config });
  }

  private send(slot: Slot, msg: ToWorker): void {
    if (slot.exited || !slot.proc.connected) return;
    try {
      slot.proc.send(msg);
    } catch (err) {
      log.warn(`worker ${slot.n}: send failed: ${(err as Error).message}`);
    }
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        slot.ready = true;
        this.earlyDeaths = 0;
        this.dispatch(slot);
        break;
      case 'progress':
        if (slot.current?.id === m.id) this.opts.hooks.progress?.(slot.current, m.progress);
        break;
      case 'done': {
        const job = slot.current;
        slot.current = undefined;
        if (job?.id === m.id) this.opts.hooks.finished(m.record);
        this.dispatch(slot);
        break;
      }
      case 'interrupted': {
        const job = slot.current;
        slot.current = undefined;
        if (job?.id === m.id) this.opts.hooks.released(job, 'interrupted');
        this.settle();
        break;
      }
      case 'fatal':
        this.stopping = true;
        this.fail(new Error(`an audit worker could not start: ${m.message}`));
        break;
    }
  }

  private onExit(slot: Slot, code: number | null, sig: NodeJS.Signals | null): void {
    slot.exited = true;
    const job = slot.current;
    slot.current = undefined;
    if (slot.next) this.queue.unshift(slot.next);
    slot.next = undefined;
    this.slots.splice(this.slots.indexOf(slot), 1);
    if (job) {
      // Ctrl-C reaches the workers too (same process group); they exit 130 after cleaning up.
      const interrupted = this.stopping || code === 130 || sig === 'SIGINT' || sig === 'SIGTERM';
      const how = sig ? `signal ${sig}` : `exit code ${code}`;
      const deaths = (this.deaths.get(job.id) ?? 0) + 1;
      if (interrupted) this.opts.hooks.released(job, 'interrupted');
      else if (deaths < MAX_WORKER_DEATHS) {
        // A worker can die of something else than its notebook (killed from outside, the OOM
        // killer choosing it): run the notebook once more on a new worker before blaming it.
        this.deaths.set(job.id, deaths);
        log.warn(`worker ${slot.n} died (${how}) while running ${job.id}; running it again on a new worker`);
        this.opts.hooks.released(job, `the worker died (${how}); running it again`);
        this.queue.unshift(job);
      } else this.opts.hooks.crashed(job, `the worker process died (${how}) while running this notebook, ${deaths} times`);
    }
    if (this.stopping) return this.settle();
    if (!slot.ready && ++this.earlyDeaths >= MAX_EARLY_DEATHS) {
      this.stopping = true;
      this.fail(new Error(`audit workers keep dying before they start (last: ${sig ?? `exit code ${code}`}); see audit.log`));
      return;
    }
    if (this.queue.length) this.spawn();
    else this.settle();
  }

  private dispatch(slot: Slot): void {
    if (this.stopping) return this.settle();
    const stop = this.opts.hooks.shouldStop?.();
    if (stop) {
      log.warn(`not starting more notebooks: ${stop}`);
      this.stopping = true;
      this.queue = [];
      for (const s of this.slots) if (s.next) this.send(s, { type: 'drop-next' });
      for (const s of this.slots) s.next = undefined;
      return this.settle();
    }
    let job = slot.next ?? this.queue.shift();
    slot.next = undefined;
    if (!job) {
      // Take a reservation back from a busy worker: better run it now here than later there.
      const holder = this.slots.find((s) => s !== slot && s.next);
      if (holder) {
        job = holder.next;
        holder.next = undefined;
        this.send(holder, { type: 'drop-next' });
      }
    }
    if (!job) return this.settle();
    // Reserve the next only while there is more queued than workers to take it.
    const next = this.queue.length >= this.slots.length ? this.queue.shift() : undefined;
    slot.current = job;
    slot.next = next;
    this.opts.hooks.started(job);
    this.send(slot, { type: 'run', job, ...(next ? { next } : {}) });
  }

  /** Resolve once nothing runs and nothing is left to run. */
  private settle(): void {
    const busy = this.slots.some((s) => s.current);
    if (busy) return;
    if (!this.stopping && (this.queue.length || this.slots.some((s) => s.next))) {
      for (const s of this.slots) if (s.ready && !s.current) this.dispatch(s);
      return;
    }
    this.done();
  }

  /** Ctrl-C: workers stop their notebooks (tearing the sandboxes down) and report them interrupted. */
  abort(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.queue = [];
    for (const s of this.slots) {
      s.next = undefined;
      this.send(s, { type: 'abort' });
    }
    this.settle();
  }

  private killAll(): void {
    const grace = this.opts.shutdownGraceMs ?? 15_000;
    for (const s of [...this.slots]) {
      if (s.exited) continue;
      // Disconnecting lets the worker clean up (stop its pre-started sandbox) and exit by itself.
      try {
        if (s.proc.connected) s.proc.disconnect();
      } catch { /* already gone */ }
      const timer = setTimeout(() => {
        if (!s.exited) s.proc.kill('SIGKILL');
      }, grace);
      timer.unref();
    }
  }

  /** Resolves when every worker process has exited. */
  async drained(timeoutMs = 20_000): Promise<void> {
    const t0 = Date.now();
    while (this.all.some((s) => !s.exited) && Date.now() - t0 < timeoutMs) await new Promise((r) => setTimeout(r, 50));
  }
}

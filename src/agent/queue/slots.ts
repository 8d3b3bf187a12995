/**
 * A queue worker's local processes: the same `audit --worker` processes (and so the same warm
 * sandboxes) as a local audit, but fed one job at a time as the queue hands them out rather than
 * from a fixed list. A process is kept while jobs come with the same configuration (mode,
 * backend, environment), which keeps its warm sandbox warm; another configuration replaces it.
 */
import type { WorkerProcess } from '../audit/pool.js';
import type { AuditJob } from '../audit/jobs.js';
import type { FromWorker, WorkerConfig } from '../audit/protocol.js';
import type { AuditRecord } from '../audit/record.js';
import { forwardWorkerLog } from '../audit/worker-log.js';

export type SlotOutcome =
  | { type: 'done'; record: AuditRecord }
  | { type: 'interrupted' }
  /** The process died (or could not start) while it had the job: an infrastructure failure. */
  | { type: 'died'; detail: string };

interface Slot {
  n: number;
  proc: WorkerProcess;
  key: string;
  busy: boolean;
  exited: boolean;
  ready: Promise<void>;
  /** Settles the job in hand, if any. */
  settle?: (o: SlotOutcome) => void;
}

export class WorkerSlots {
  private readonly slots: Slot[] = [];
  private spawned = 0;

  constructor(private readonly opts: { size: number; spawn: () => WorkerProcess }) {}

  async run(config: WorkerConfig, job: AuditJob): Promise<SlotOutcome> {
    const key = JSON.stringify(config);
    let slot = this.slots.find((s) => !s.busy && !s.exited && s.key === key);
    if (!slot) {
      // Make room: an idle process of another configuration goes first.
      const idle = this.slots.find((s) => !s.busy);
      if (idle && this.slots.length >= this.opts.size) this.retire(idle);
      slot = this.start(config, key);
    }
    slot.busy = true;
    try {
      const s = slot;
      return await new Promise<SlotOutcome>((resolve) => {
        s.settle = resolve;
        s.ready.then(
          () => {
            try {
              s.proc.send({ type: 'run', job });
            } catch (err) {
              // Gone between "ready" and now: its exit settles the job as died.
              if (!s.exited) resolve({ type: 'died', detail: `could not hand the notebook to its process: ${(err as Error).message}` });
            }
          },
          (err: Error) => resolve({ type: 'died', detail: err.message }),
        );
      });
    } finally {
      slot.settle = undefined;
      slot.busy = false;
      if (slot.exited) this.remove(slot);
    }
  }

  private start(config: WorkerConfig, key: string): Slot {
    const proc = this.opts.spawn();
    let readyFn!: () => void;
    let failFn!: (e: Error) => void;
    const slot: Slot = { n: ++this.spawned, proc, key, busy: false, exited: false, ready: new Promise<void>((res, rej) => ((readyFn = res), (failFn = rej))) };
    slot.ready.catch(() => undefined);
    this.slots.push(slot);
    forwardWorkerLog(proc.stderr, `process ${slot.n}`);
    proc.on('message', (raw: unknown) => {
      const m = raw as FromWorker;
      if (m.type === 'ready') readyFn();
      else if (m.type === 'fatal') failFn(new Error(`the audit process could not start: ${m.message}`));
      else if (m.type === 'done') slot.settle?.({ type: 'done', record: m.record });
      else if (m.type === 'interrupted') slot.settle?.({ type: 'interrupted' });
    });
    proc.once('exit', (code, sig) => {
      slot.exited = true;
      failFn(new Error(`the audit process exited before it was ready (${sig ?? `exit code ${code}`})`));
      slot.settle?.(code === 130 || sig === 'SIGINT' ? { type: 'interrupted' } : { type: 'died', detail: `the worker process died (${sig ? `signal ${sig}` : `exit code ${code}`}) while running this notebook` });
      if (!slot.busy) this.remove(slot);
    });
    proc.send({ type: 'init', config });
    return slot;
  }

  private remove(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private retire(slot: Slot): void {
    this.remove(slot);
    try {
      if (slot.proc.connected) slot.proc.disconnect();
    } catch { /* gone */ }
  }

  /** Stop the running notebooks (their sandboxes torn down); they come back as interrupted. */
  abort(): void {
    for (const s of this.slots) if (s.busy && s.proc.connected) s.proc.send({ type: 'abort' });
  }

  /** Let every process clean up and exit; kill those that do not within graceMs. */
  async close(graceMs = 15_000): Promise<void> {
    const all = [...this.slots];
    await Promise.all(all.map((s) => new Promise<void>((resolve) => {
      if (s.exited) return resolve();
      s.proc.once('exit', () => resolve());
      try {
        if (s.proc.connected) s.proc.disconnect();
      } catch { /* gone */ }
      setTimeout(() => {
        if (!s.exited) s.proc.kill('SIGKILL');
      }, graceMs).unref();
    })));
  }
}

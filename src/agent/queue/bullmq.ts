/**
 * The one module that imports BullMQ (which drives ioredis underneath). Everything else sees an
 * AuditQueue (the coordinator's and `queue status`'s view) and consume() (a worker's), so the
 * SDK's delivery rules live in one place:
 *   - job ids are ours (payload.ts): adding a job that exists is a no-op;
 *   - a handler's result completes the job; a plain error retries it with exponential backoff up
 *     to `attempts`, then leaves it in the failed set with the reason; JobRefused fails it at once;
 *     JobGivenBack puts it back for another worker without using an attempt;
 *   - a worker that dies loses its lock; the stalled check of the remaining workers puts the job
 *     back (at most maxStalledCount times, then it fails).
 */
import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { JobGivenBack, JobRefused } from './errors.js';
import type { LockTiming } from './policy.js';
import type { QueueConnection } from './url.js';

export const DEFAULT_QUEUE_NAME = 'nbmodernize-audit';

function connectionOptions(c: QueueConnection, clientName: string, failFast = false) {
  return {
    host: c.host,
    port: c.port,
    db: c.db,
    ...(c.username ? { username: c.username } : {}),
    ...(c.password ? { password: c.password } : {}),
    ...(c.tls ? { tls: { servername: c.host } } : {}),
    connectionName: clientName,
    // Wait for Redis to come back (a restart) instead of failing the command: required by BullMQ
    // workers. A one-off look (queue status) fails at once instead: a wrong password or address.
    maxRetriesPerRequest: failFast ? 1 : null,
    retryStrategy: (times: number) => (failFast ? null : Math.min(200 * times, 2_000)),
  };
}

export type FinishedState =
  | { state: 'completed'; value: unknown }
  | { state: 'failed'; reason: string; attemptsMade: number }
  | { state: 'pending' };

/** A hash per queue where workers note themselves: `queue status` lists workers seen, also gone ones. */
const seenKey = (qualifiedName: string) => `${qualifiedName}:nbm-workers-seen`;

export interface WorkerSeen { name: string; lastSeen: string; done: number; failed: number }

export interface QueueCounts { waiting: number; active: number; delayed: number; completed: number; failed: number }

export class AuditQueue {
  private constructor(private readonly q: Queue) {}

  static open(c: QueueConnection, name = DEFAULT_QUEUE_NAME, o: { failFast?: boolean } = {}): AuditQueue {
    const q = new Queue(name, { connection: connectionOptions(c, 'nbmodernize-coordinator', o.failFast) });
    // Connection errors are retried by the client; say so once per error, without the URL's secrets.
    q.on('error', (err) => log.warn(`queue ${c.display}: ${errorMessage(err)}`));
    return new AuditQueue(q);
  }

  /** Adds the jobs whose ids are not in the queue yet (existing ones are left as they are). */
  async add(jobs: Array<{ id: string; data: unknown }>, o: { attempts: number; backoffMs: number }): Promise<void> {
    for (let i = 0; i < jobs.length; i += 100) {
      await this.q.addBulk(jobs.slice(i, i + 100).map((j) => ({
        name: 'notebook',
        data: j.data,
        opts: { jobId: j.id, attempts: o.attempts, backoff: { type: 'exponential', delay: o.backoffMs }, removeOnComplete: false, removeOnFail: false },
      })));
    }
  }

  /** Ids of the jobs now completed or failed (the coordinator then reads only those it waits for). */
  async finishedIds(): Promise<Set<string>> {
    return new Set(await this.q.getRanges(['completed', 'failed'], 0, -1));
  }

  async finished(id: string): Promise<FinishedState> {
    const job = await this.q.getJob(id);
    if (!job) return { state: 'pending' };
    const state = await job.getState();
    if (state === 'completed') return { state, value: job.returnvalue };
    if (state === 'failed') return { state, reason: job.failedReason ?? 'unknown', attemptsMade: job.attemptsMade };
    return { state: 'pending' };
  }

  /** Forget a finished job (its result is stored by the coordinator); a waiting or running one is kept. */
  async removeFinished(id: string): Promise<void> {
    const job = await this.q.getJob(id);
    if (!job) return;
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') await job.remove();
  }

  /** Take a job back that no worker has started yet; false when it runs or ran already. */
  async withdraw(id: string): Promise<boolean> {
    const job = await this.q.getJob(id);
    if (!job) return true;
    const state = await job.getState();
    if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return false;
    try {
      await job.remove();
      return true;
    } catch {
      // A worker locked it between the two calls: it runs, and is collected.
      return false;
    }
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.q.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    return { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, completed: c.completed ?? 0, failed: c.failed ?? 0 };
  }

  /** The failed jobs with their reasons (most recent first). */
  async failures(limit = 20): Promise<Array<{ id: string; notebook: string; reason: string; attemptsMade: number }>> {
    const jobs = await this.q.getFailed(0, limit - 1);
    return jobs.map((j) => ({ id: j.id ?? '?', notebook: String((j.data as { id?: string })?.id ?? '?'), reason: j.failedReason ?? '', attemptsMade: j.attemptsMade }));
  }

  /** Workers connected now (their client names), as Redis sees them. */
  async workers(): Promise<Array<{ name: string; addr: string; idleS: number }>> {
    const list = await this.q.getWorkers();
    // BullMQ names a worker's connection bull:<queue>:w:<worker name>.
    return list.map((w) => ({ name: /:w:(.*)$/.exec(w.rawname ?? '')?.[1] ?? w.name ?? '?', addr: w.addr ?? '?', idleS: Number(w.idle ?? 0) }));
  }

  /** Every worker that ever took jobs from this queue, with when it was last heard of. */
  async workersSeen(): Promise<WorkerSeen[]> {
    const all = await (await this.q.getBackend().client).hgetall(seenKey(this.q.qualifiedName));
    return Object.entries(all).map(([name, v]) => ({ name, ...(JSON.parse(v) as Omit<WorkerSeen, 'name'>) })).sort((a, b) => b.lastSeen.localeCompare(a.lastSeen));
  }

  async close(): Promise<void> {
    await this.q.close();
  }
}

export interface JobHandle {
  id: string;
  data: unknown;
  attemptsMade: number;
  attempts: number;
}

export interface Consumer {
  /** Stop taking jobs and wait for the running ones (the handlers) to return. */
  close(): Promise<void>;
}

export function consume(
  c: QueueConnection,
  o: LockTiming & { name?: string; concurrency: number; workerName: string; maxStalledCount: number },
  handler: (job: JobHandle) => Promise<unknown>,
): Consumer {
  const worker = new Worker(
    o.name ?? DEFAULT_QUEUE_NAME,
    async (job: Job, token?: string) => {
      try {
        return await handler({ id: job.id ?? '', data: job.data, attemptsMade: job.attemptsMade, attempts: job.opts.attempts ?? 1 });
      } catch (err) {
        if (err instanceof JobRefused) throw new UnrecoverableError(err.message);
        if (err instanceof JobGivenBack) {
          // Due now: the next free worker takes it; no attempt is counted.
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError();
        }
        throw err;
      }
    },
    {
      connection: connectionOptions(c, `nbmodernize-worker-${o.workerName}`),
      name: o.workerName,
      concurrency: o.concurrency,
      lockDuration: o.lockDurationMs,
      stalledInterval: o.stalledIntervalMs,
      maxStalledCount: o.maxStalledCount,
    },
  );
  worker.on('error', (err) => log.warn(`queue ${c.display}: ${errorMessage(err)}`));
  worker.on('failed', (job, err) => job && log.warn(`job ${job.id} (${(job.data as { id?: string })?.id}) failed: ${err.message}`));
  // "Workers seen": noted at start, after each job and every 15 s; a note that fails is only a missed note.
  const seen = { done: 0, failed: 0 };
  const note = () => void worker.getBackend().client
    .then((r) => r.hset(seenKey(worker.qualifiedName), { [o.workerName]: JSON.stringify({ lastSeen: new Date().toISOString(), ...seen }) }))
    .catch(() => undefined);
  worker.on('completed', () => (seen.done++, note()));
  worker.on('failed', () => (seen.failed++, note()));
  note();
  const beat = setInterval(note, 15_000);
  beat.unref();
  return {
    close: async () => {
      clearInterval(beat);
      await worker.close();
    },
  };
}

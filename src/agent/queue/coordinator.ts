/**
 * `audit --queue`: the coordinator's side. Instead of running notebooks on local processes it
 * enqueues one job per notebook and collects the results as workers anywhere finish them; the
 * audit runner (runner.ts) does the rest exactly as for a local audit (store, resume, reports),
 * through the same hooks as the local pool.
 *
 * Exactly once in results.jsonl: a result is written, then its job is removed from the queue; a
 * coordinator that dies in between finds the notebook finished in the store on --resume and does
 * not enqueue it again. Jobs keep running while no coordinator is there (Ctrl-C, kill): --resume
 * re-adds the same ids, which finds them running, done, or failed.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import type { AuditJob } from '../audit/jobs.js';
import type { PoolHooks } from '../audit/pool.js';
import type { AuditRecord } from '../audit/record.js';
import { discardArtifacts, receiveArtifacts, unpackArtifacts } from './artifacts.js';
import { AuditQueue } from './bullmq.js';
import { ARTIFACTS_MARK, FOLDER_MARK, jobIdFor, jobPayload, swapRecordPaths, type QueueJobResult, type QueueRunOptions } from './payload.js';
import type { QueueConnection } from './url.js';

export interface QueueCoordinatorOptions {
  connection: QueueConnection;
  queueName?: string;
  options: QueueRunOptions;
  auditDir: string;
  /** A fresh audit (not --resume) runs its notebooks again even when the queue still holds a result for them. */
  resume: boolean;
  /** Attempts per job before it lands in the failed set (infrastructure failures only). */
  attempts: number;
  backoffMs: number;
  /** Shared storage where workers put artifacts too large for the queue. */
  artifactsDir?: string;
  /** How often to look for finished jobs. */
  pollMs?: number;
}

export class QueueDispatch {
  private queue?: AuditQueue;

  constructor(private readonly o: QueueCoordinatorOptions, private readonly hooks: PoolHooks) {}

  async run(jobs: AuditJob[], signal?: AbortSignal): Promise<void> {
    if (!jobs.length) return;
    const queue = (this.queue = AuditQueue.open(this.o.connection, this.o.queueName));
    const pending = new Map<string, AuditJob>();
    const payloads = jobs.map((job) => {
      const data = jobPayload(job, this.o.options);
      const id = jobIdFor(data);
      pending.set(id, job);
      return { id, data };
    });
    if (!this.o.resume) for (const { id } of payloads) await queue.removeFinished(id);
    await queue.add(payloads, { attempts: this.o.attempts, backoffMs: this.o.backoffMs });
    log.info(`queue ${this.o.connection.display}: ${payloads.length} notebooks enqueued`);
    const workers = await queue.workers().catch(() => []);
    // Not an error (workers may come later), but the likeliest reason for an audit that never moves.
    if (!workers.length) log.warn(`no worker is connected to ${this.o.connection.display} yet; start some with: nbmodernize worker --queue URL --data-root DIR`);
    let stopped: string | undefined;
    while (pending.size && !signal?.aborted) {
      try {
        const done = await queue.finishedIds();
        for (const id of [...pending.keys()].filter((i) => done.has(i))) {
          if (signal?.aborted) break;
          await this.collect(queue, id, pending);
        }
        if (!stopped && (stopped = this.hooks.shouldStop?.())) {
          // Like the local pool: no new notebooks, the running ones finish and are collected.
          log.warn(`not starting more notebooks: ${stopped}`);
          for (const id of [...pending.keys()]) if (await queue.withdraw(id)) pending.delete(id);
        }
      } catch (err) {
        // Redis restarting, the network gone: the jobs are in Redis (AOF), so wait and look again.
        log.warn(`queue ${this.o.connection.display}: ${errorMessage(err)}; retrying`);
        await sleep(1_000, undefined, { signal }).catch(() => undefined);
      }
      if (pending.size) await sleep(this.o.pollMs ?? 200, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Records a finished job once: it leaves `pending` as its record is stored, before anything else can fail. */
  private async collect(queue: AuditQueue, id: string, pending: Map<string, AuditJob>): Promise<void> {
    const job = pending.get(id)!;
    const f = await queue.finished(id);
    if (f.state === 'pending') return;
    if (f.state === 'failed') {
      // Kept in the failed set for `queue status`; recorded here like a local crashed worker.
      this.hooks.crashed(job, `failed on the queue after ${f.attemptsMade} attempt${f.attemptsMade === 1 ? '' : 's'}: ${f.reason}`);
      pending.delete(id);
      return;
    }
    const result = f.value as QueueJobResult;
    const artifactDir = path.join(this.o.auditDir, job.artifactDir);
    const swaps = [{ from: ARTIFACTS_MARK, to: artifactDir }, { from: FOLDER_MARK, to: path.dirname(job.path) }];
    let record: AuditRecord = { ...swapRecordPaths(result.record, swaps), id: job.id, path: job.path };
    try {
      const gz = receiveArtifacts(result.artifacts, this.o.artifactsDir);
      if (gz) {
        unpackArtifacts(gz, artifactDir, swaps);
        discardArtifacts(result.artifacts, this.o.artifactsDir);
      }
      else if (result.artifacts?.dropped) log.warn(`${job.id}: ${result.artifacts.dropped}`);
    } catch (err) {
      log.warn(`${job.id}: artifacts not received: ${errorMessage(err)}`);
      record = { ...record, artifacts: { dir: record.artifacts.dir } };
    }
    this.hooks.finished(record);
    pending.delete(id);
    // If this fails (Redis just went away) the result stays in Redis; --resume never asks for it again.
    await queue.removeFinished(id).catch((err) => log.warn(`${job.id}: could not remove its finished job: ${errorMessage(err)}`));
  }

  async drained(): Promise<void> {
    await this.queue?.close();
  }
}


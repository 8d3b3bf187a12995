/**
 * `nbmodernize audit`: the batch. Reads what the store already holds, decides what is left,
 * runs it on the worker pool, commits each result as it finishes, and writes the summary and
 * reports at the end (also after Ctrl-C, for what finished). The CLI supplies the jobs, the
 * worker processes and the progress display.
 */
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { writeReport, type WrittenReport } from '../report/write.js';
import { emptyRecord } from './baseline.js';
import type { JobProgress } from './baseline.js';
import type { AuditJob } from './jobs.js';
import { AuditPool, type PoolHooks, type WorkerProcess } from './pool.js';
import type { WorkerConfig } from './protocol.js';
import type { AuditRecord } from './record.js';
import { MAX_UNEXPLAINED_STARTS, readStore, ResultStore } from './store.js';
import { classifyFailure } from './taxonomy.js';

export interface AuditRun {
  input: string;
  jobs: AuditJob[];
  /** Worker processes at once (already adjusted to memory). */
  concurrency: number;
  resume: boolean;
  config: WorkerConfig;
  spawnWorker: () => WorkerProcess;
  /** Stop starting notebooks once this much was spent (USD, over all sessions). */
  maxSpendUsd?: number;
  /** With resume: also run again the notebooks recorded as failed for a reason outside the notebook (see RETRYABLE_FAILURES). */
  retryFailed?: boolean;
  /** Stop starting notebooks after this many consecutive LLM provider failures (default 5). */
  maxProviderFailures?: number;
  signal?: AbortSignal;
  onEvent?: (e: AuditEvent) => void;
  /** Recorded in the session line (what the audit ran with). */
  options?: Record<string, unknown>;
  /** Runs the jobs somewhere else than the local pool (the queue: src/agent/queue/coordinator.ts). */
  dispatch?: (hooks: PoolHooks) => JobDispatch;
}

/** What runs the jobs and reports through the hooks: the local AuditPool, or a queue. */
export interface JobDispatch {
  run(jobs: AuditJob[], signal?: AbortSignal): Promise<void>;
  drained(): Promise<void>;
}

export type AuditEvent =
  | { type: 'plan'; total: number; todo: number; alreadyDone: number; crashedBefore: number; records: AuditRecord[] }
  | { type: 'started'; job: AuditJob }
  | { type: 'progress'; job: AuditJob; progress: JobProgress }
  | { type: 'finished'; record: AuditRecord }
  | { type: 'released'; job: AuditJob; reason?: string }
  | { type: 'crashed'; record: AuditRecord };

export interface AuditOutcome {
  report: WrittenReport;
  interrupted: boolean;
  ran: number;
  /** Set when the audit stopped starting notebooks (spend cap, provider down). */
  stoppedEarly?: string;
  /** The reason it stopped is the LLM provider (consecutive failures), not a cap. */
  providerDown?: boolean;
}

export const DEFAULT_MAX_PROVIDER_FAILURES = 5;

/**
 * Failures that say nothing about the notebook itself, so --retry-failed runs them again: the
 * provider, the sandbox, a crash, a bug of ours, data that was not there. A malformed file, an R
 * kernel or a notebook without code would only fail the same way.
 */
export const RETRYABLE_FAILURES: ReadonlySet<string> = new Set(['llm-error', 'environment', 'crashed', 'internal-error', 'missing-data']);

function crashedRecord(job: AuditJob, mode: AuditRecord['mode'], reason: string): AuditRecord {
  return emptyRecord(job, mode, {
    verdict: 'failed',
    status: 'crashed',
    reason,
    taxonomy: classifyFailure({ verdict: 'failed', status: 'crashed' }, { modules: new Set(), unavailable: new Set() }),
  });
}

export async function runAudit(a: AuditRun): Promise<AuditOutcome> {
  const dir = a.config.auditDir;
  const state = readStore(dir);
  const emit = a.onEvent ?? (() => {});
  const hasResults = state.sessions.length > 0 || state.finished.size > 0;
  if (hasResults && !a.resume) {
    throw new UsageError(`${dir} already holds an audit (${state.finished.size} notebooks finished)`, 'pass --resume to continue it, or choose another --out-dir');
  }
  if (a.resume && state.sessions.length) {
    const prev = state.sessions[state.sessions.length - 1]!;
    if (path.resolve(prev.input) !== path.resolve(a.input)) log.warn(`resuming an audit of ${prev.input} with input ${a.input}`);
    if (prev.mode !== a.config.mode) {
      throw new UsageError(`${dir} holds a ${prev.mode === 'fix' ? '--fix' : 'baseline'} audit; resume it with the same mode`);
    }
  }
  const store = ResultStore.open(dir, state.sessions.length + 1);
  try {
    store.sessionStart({ resume: a.resume, input: path.resolve(a.input), mode: a.config.mode, jobs: a.concurrency, notebooks: a.jobs.length, options: a.options ?? {} });
    // Notebooks that were running every time the audit died: record them, do not run them again.
    let crashedBefore = 0;
    for (const job of a.jobs) {
      const n = state.unexplainedStarts.get(job.id) ?? 0;
      if (!state.finished.has(job.id) && n >= MAX_UNEXPLAINED_STARTS) {
        const rec = crashedRecord(job, a.config.mode, `the audit process died ${n} times while this notebook ran (e.g. the machine ran out of memory); not retried`);
        store.finished(rec);
        state.finished.set(job.id, rec);
        crashedBefore += 1;
      }
    }
    if (a.retryFailed) {
      // Forget them here (the store keeps their lines): they are to run, and their new record wins.
      for (const [id, rec] of state.finished) if (rec.verdict === 'failed' && RETRYABLE_FAILURES.has(rec.status)) state.finished.delete(id);
    }
    const todo = a.jobs.filter((j) => !state.finished.has(j.id));
    const done = a.jobs.filter((j) => state.finished.has(j.id)).map((j) => state.finished.get(j.id)!);
    emit({ type: 'plan', total: a.jobs.length, todo: todo.length, alreadyDone: done.length - crashedBefore, crashedBefore, records: done });
    log.info(`audit of ${a.input}: ${a.jobs.length} notebooks, ${todo.length} to run, ${a.concurrency} at once, ${a.config.sandbox.memoryMb ?? '?'} MiB each`);

    let spent = [...state.finished.values()].reduce((s, r) => s + r.llm.costUsd, 0);
    let stoppedEarly: string | undefined;
    let providerDown = false;
    let ran = 0;
    // Provider failures in a row: an outage would otherwise turn the rest of the batch into failures.
    const maxProviderFailures = a.maxProviderFailures ?? DEFAULT_MAX_PROVIDER_FAILURES;
    let providerFailures = 0;
    let lastProviderError = '';
    const hooks: PoolHooks = {
        started: (job) => {
          store.started(job.id);
          emit({ type: 'started', job });
        },
        finished: (record) => {
          store.finished(record);
          state.finished.set(record.id, record);
          spent += record.llm.costUsd;
          ran += 1;
          if (record.status === 'llm-error') {
            providerFailures += 1;
            lastProviderError = record.error?.evalue ?? record.reason;
          } else if (record.llm.calls > 0) providerFailures = 0; // the provider answered

          log.info(`${record.id}: ${record.verdict} (${record.status}) ${record.reason}`);
          emit({ type: 'finished', record });
        },
        released: (job, reason) => {
          store.released(job.id, reason);
          emit({ type: 'released', job, reason });
        },
        crashed: (job, detail) => {
          const rec = crashedRecord(job, a.config.mode, detail);
          store.finished(rec);
          state.finished.set(job.id, rec);
          ran += 1;
          log.warn(`${job.id}: ${detail}`);
          emit({ type: 'crashed', record: rec });
        },
        progress: (job, progress) => emit({ type: 'progress', job, progress }),
        shouldStop: () => {
          if (a.maxSpendUsd !== undefined && spent >= a.maxSpendUsd) stoppedEarly = `the audit's spend cap of $${a.maxSpendUsd} is reached ($${spent.toFixed(2)})`;
          else if (providerFailures >= maxProviderFailures) {
            providerDown = true;
            stoppedEarly = `the LLM provider failed for ${providerFailures} notebooks in a row (last: ${lastProviderError.slice(0, 200)})`;
          }
          return stoppedEarly;
        },
    };
    const pool: JobDispatch = a.dispatch ? a.dispatch(hooks) : new AuditPool({ size: a.concurrency, config: a.config, spawn: a.spawnWorker, hooks });
    await pool.run(todo, a.signal);
    await pool.drained();
    const report = writeReport(dir, { planned: a.jobs.length }, readStore(dir));
    return { report, interrupted: Boolean(a.signal?.aborted), ran, ...(stoppedEarly ? { stoppedEarly } : {}), ...(providerDown ? { providerDown } : {}) };
  } finally {
    store.close();
  }
}

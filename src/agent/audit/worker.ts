/**
 * An audit worker: a separate process (`nbmodernize audit --worker`, forked by the coordinator)
 * that runs one notebook at a time. A notebook that crashes it (Node out of memory, a native
 * crash) takes down only this process; the coordinator starts another worker, runs that notebook
 * once more (the worker may have died of something else) and then records it as crashed.
 *
 * Overhead: with bwrap, the worker keeps a warm sandbox (one Jupyter server) per data mount and
 * gives each notebook a lease on it: its own working dir, and a kernel in its own namespace with
 * a fresh /tmp and HOME (warm-pool.ts, sandbox-warm.ts). Other backends, or --no-warm: while a
 * notebook runs, the worker starts the sandbox of the notebook it will most likely get next (same
 * backend, that notebook's data mounted), so the next notebook only waits for its kernel. Either
 * way nothing one notebook writes can be seen by another.
 */
import { errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { openSandbox } from '../../executor/sandbox.js';
import type { Sandbox } from '../../executor/types.js';
import { loadEnvironmentFacts } from './environment-facts.js';
import { WarmPool } from './warm-pool.js';
import { auditBaseline, failedRecord, JobInterrupted, jobSandbox, type JobContext } from './baseline.js';
import { auditFix, type FixSettings } from './fix.js';
import type { AuditJob } from './jobs.js';
import type { AuditRecord } from './record.js';
import type { ToWorker, WorkerChannel, WorkerConfig } from './protocol.js';
import type { EnvironmentFacts } from './taxonomy.js';

interface Prestarted { id: string; sandbox: Promise<Sandbox | undefined> }

/** The run ended because the Jupyter server (not just the kernel) stopped answering. */
function serverDied(r: AuditRecord): boolean {
  return r.status === 'kernel-died' && /Jupyter server stopped answering/.test(`${r.reason} ${r.error?.evalue ?? ''}`);
}

export async function serveAuditWorker(channel: WorkerChannel, outerSignal: AbortSignal): Promise<void> {
  const abort = new AbortController();
  const stopAll = () => abort.abort(new Error('audit stopped'));
  outerSignal.addEventListener('abort', stopAll, { once: true });
  let config: WorkerConfig | undefined;
  let env: EnvironmentFacts | undefined;
  let fix: FixSettings | undefined;
  let prestarted: Prestarted | undefined;
  let warm: WarmPool | undefined;
  let current: AuditJob | undefined;
  const stopping = new Set<Promise<void>>();
  let chain = Promise.resolve();
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));

  const stopSandbox = (sb: Promise<Sandbox | undefined>) => {
    // Stopping takes ~0.1 s; the next notebook need not wait for it.
    const p: Promise<void> = sb
      .then((s) => s?.stop())
      .catch((err) => void log.warn(`stopping a sandbox: ${errorMessage(err)}`))
      .finally(() => stopping.delete(p));
    stopping.add(p);
  };
  const dropPrestart = () => {
    if (prestarted) stopSandbox(prestarted.sandbox);
    prestarted = undefined;
    if (warm) warm.retain(current ? [jobSandbox(current, config!.sandbox)] : []);
  };
  const prestart = (job: AuditJob | undefined) => {
    if (!job || !config?.prestart || abort.signal.aborted || prestarted?.id === job.id) return;
    if (warm) {
      // Same data as the current notebook: the warm sandbox serves it. Other data: warm one up.
      warm.warmUp(jobSandbox(job, config.sandbox));
      return;
    }
    dropPrestart();
    const req = jobSandbox(job, config.sandbox);
    prestarted = {
      id: job.id,
      // A failure here is not this job's failure: the job then opens its own sandbox and reports it.
      sandbox: openSandbox(req, { signal: abort.signal, autoBuild: false }).catch((err) => {
        log.info(`pre-starting the sandbox for ${job.id} failed: ${errorMessage(err)}`);
        return undefined;
      }),
    };
  };

  const init = async (c: WorkerConfig) => {
    config = c;
    env = await loadEnvironmentFacts(c.sandbox.environment);
    if (c.warm && c.mode === 'baseline' && WarmPool.serves(c.sandbox)) warm = new WarmPool(abort.signal);
    if (c.mode === 'fix' && c.fix) {
      // Only --fix loads the LLM SDKs.
      const { providerFromEnv } = await import('../../fixers/llm/factory.js');
      const choice = providerFromEnv(c.fix.llmEnv, c.fix.llmFlags);
      fix = {
        llm: { provider: choice.provider, reason: choice.reason, ...(choice.model ? { model: choice.model } : {}), providerName: choice.kind, ...(choice.maxTokens ? { maxTokens: choice.maxTokens } : {}), ...(choice.mode ? { mode: choice.mode } : {}) },
        budgets: c.fix.budgets,
      };
    }
    channel.send({ type: 'ready', pid: process.pid });
  };

  const run = async (job: AuditJob, next: AuditJob | undefined) => {
    if (!config || !env) throw new Error('worker used before init');
    let mine: Promise<Sandbox | undefined> | undefined;
    let take: (() => Promise<Sandbox | undefined>) | undefined;
    current = job;
    if (warm) {
      const pool = warm;
      const req = jobSandbox(job, config.sandbox);
      pool.retain([req]);
      // Taken only when the job gets as far as running (a malformed notebook never does), so no
      // lease is held by a job that does not use it.
      take = () => (mine ??= pool.lease(req));
    } else {
      if (prestarted?.id === job.id) {
        mine = prestarted.sandbox;
        prestarted = undefined;
      } else dropPrestart();
      const held = mine;
      if (held) take = () => held;
    }
    let nextStarted = false;
    const ctx: JobContext = {
      auditDir: config.auditDir,
      sandbox: config.sandbox,
      env,
      signal: abort.signal,
      onProgress: (progress) => channel.send({ type: 'progress', id: job.id, progress }),
      ...(take ? { prestarted: take, onRunRecorded: () => mine && stopSandbox(mine) } : {}),
      onCellsStarted: () => {
        // The kernel is up: its start-up no longer competes for the CPU with the next sandbox's.
        if (!nextStarted) prestart(next);
        nextStarted = true;
      },
    };
    const mode = config.mode;
    const attempt = (c: JobContext) => (mode === 'fix' ? auditFix(job, c, fix!) : auditBaseline(job, c).then((b) => b.record));
    try {
      let record = await attempt(ctx);
      // Said by the run (the server stopped answering mid-cell), or seen afterwards: the warm
      // server is gone (killed while the kernel started: the run then fails another way).
      const serverGone = serverDied(record) || (record.verdict !== 'reproduced' && warm !== undefined && (await warm.died(jobSandbox(job, config.sandbox))));
      if (serverGone && !abort.signal.aborted) {
        // The Jupyter server can die of something else than the notebook (killed from outside, the
        // OOM killer choosing it): run it once more in a new sandbox before recording that.
        log.warn(`${job.id}: the Jupyter server died during the run; running it again in a new sandbox`);
        if (mine) stopSandbox(mine);
        mine = undefined;
        const { prestarted: _held, onRunRecorded: _stop, ...own } = ctx;
        record = await attempt(warm && take ? { ...own, prestarted: take, onRunRecorded: () => mine && stopSandbox(mine) } : own);
      }
      channel.send({ type: 'done', id: job.id, record });
    } catch (err) {
      if (err instanceof JobInterrupted || abort.signal.aborted) channel.send({ type: 'interrupted', id: job.id });
      else {
        // A bug of ours must not take the batch down: record it against this notebook.
        log.error(`${job.id}: ${err instanceof Error ? err.stack : String(err)}`);
        channel.send({ type: 'done', id: job.id, record: failedRecord(job, 'internal-error', `internal error: ${errorMessage(err)}`, env, { mode: config.mode }) });
      }
    } finally {
      if (mine) stopSandbox(mine);
      if (!nextStarted) prestart(next);
    }
  };

  const shutdown = async () => {
    stopAll();
    dropPrestart();
    await chain.catch(() => undefined);
    dropPrestart();
    await Promise.all([...stopping]);
    await warm?.stopAll();
    finish();
  };

  channel.onDisconnect(() => void shutdown());
  outerSignal.addEventListener('abort', () => void shutdown(), { once: true });
  channel.onMessage((msg: ToWorker) => {
    switch (msg.type) {
      case 'init':
        chain = chain.then(() => init(msg.config)).catch((err) => channel.send({ type: 'fatal', message: errorMessage(err) }));
        break;
      case 'run':
        chain = chain.then(() => run(msg.job, msg.next));
        break;
      case 'drop-next':
        dropPrestart();
        break;
      case 'abort':
        stopAll();
        dropPrestart();
        break;
    }
  });
  await finished;
}

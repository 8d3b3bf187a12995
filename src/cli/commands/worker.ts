/** `nbmodernize worker --queue URL`: run audit notebooks from a queue on this machine (see docs/scale-out.md). */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { packageRoot } from '../../core/paths.js';
import { planMemory } from '../../agent/audit/memory.js';
import type { WorkerChannel } from '../../agent/audit/protocol.js';
import { serveAuditWorker } from '../../agent/audit/worker.js';
import { serveQueue } from '../../agent/queue/serve.js';
import { parseQueueUrl } from '../../agent/queue/url.js';
import type { CliContext } from '../context.js';
import { commandFlags } from '../command-io.js';
import { positiveNumber } from '../options.js';
import { LLM_ENV } from './audit.js';

export const summary = 'run audit notebooks from a Redis queue (the other side of audit --queue)';

const HELP = `Usage: nbmodernize worker --queue URL [options]

Takes notebooks from the queue that \`nbmodernize audit INPUT --queue URL\` fills, runs them here
in the fixed environment (the same sandboxes and warm pool as a local audit) and returns each
record with its artifacts. Runs until stopped: SIGTERM lets running notebooks finish (up to
--grace) and then gives them back to the queue; Ctrl-C gives them back at once.

Options:
  --queue URL            redis://HOST:PORT/DB or rediss://USER:PASSWORD@HOST:PORT/DB (TLS);
                         "env" reads it from NBMODERNIZE_QUEUE_URL (keeps the password out of ps)
  --queue-name NAME      the BullMQ queue (default nbmodernize-audit)
  -j, --jobs N           notebooks at once (default: CPU cores; lowered when memory is short)
  --data-root DIR        competitions as DIR/<slug>/ (a job names its data by slug)
  --artifacts-dir DIR    shared storage for artifacts larger than --inline-artifacts-mb
  --inline-artifacts-mb N  largest compressed artifacts sent through Redis (default 4)
  --memory MB            per-notebook memory cap (default: available memory / jobs)
  --cpus N, --threads N  per-notebook CPU limit and thread count
  --timeout S            the per-notebook budget this worker expects (default 600): sets how fast
                         a dead worker's notebook is taken over by another
  --grace S              on SIGTERM, how long running notebooks may take to finish (default 600)
  --allow-wide-sandbox   accept jobs that ask for the host or remote backend (no isolation)
  --no-warm              bwrap: a sandbox per notebook instead of a warm one per process
  --name NAME            how this worker shows in \`nbmodernize queue status\` (default host:pid)`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  if (args[0] === '--child') return child(ctx);
  const { values, helpShown } = commandFlags(args, {
    queue: { type: 'string' },
    'queue-name': { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    'data-root': { type: 'string' },
    'artifacts-dir': { type: 'string' },
    'inline-artifacts-mb': { type: 'string' },
    memory: { type: 'string' },
    cpus: { type: 'string' },
    threads: { type: 'string' },
    timeout: { type: 'string' },
    grace: { type: 'string' },
    'allow-wide-sandbox': { type: 'boolean', default: false },
    'no-warm': { type: 'boolean', default: false },
    name: { type: 'string' },
  }, 'worker', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (!values.queue) throw new UsageError('worker needs --queue URL');
  const connection = parseQueueUrl(values.queue === 'env' ? (ctx.env.NBMODERNIZE_QUEUE_URL ?? '') : values.queue);
  const dataRoot = values['data-root'] ? path.resolve(ctx.cwd, values['data-root']) : undefined;
  if (dataRoot && !fs.existsSync(dataRoot)) throw new UsageError(`--data-root ${dataRoot} does not exist`);
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const wanted = values.jobs !== undefined ? Math.floor(positiveNumber(values.jobs, '--jobs')!) : cores;
  const plan = planMemory({ jobs: wanted, freeBytes: os.freemem(), totalBytes: os.totalmem(), ...(values.memory ? { requestedMb: positiveNumber(values.memory, '--memory')! } : {}) });
  if (plan.note) ctx.stderr(`nbmodernize: ${plan.note}\n`);
  const threads = values.threads !== undefined ? Math.floor(positiveNumber(values.threads, '--threads')!) : Math.max(1, Math.floor(cores / plan.jobs));
  const workerName = values.name ?? `${os.hostname()}:${process.pid}`;
  const bin = path.join(packageRoot(), 'bin', 'nbmodernize.js');
  const childEnv = { ...ctx.env };
  delete childEnv.NBMODERNIZE_QUEUE_URL;
  ctx.stderr(`nbmodernize worker ${workerName}: queue ${connection.display}, ${plan.jobs} at once, ${plan.memoryMb} MiB and ${threads} thread${threads === 1 ? '' : 's'} each\n`);
  await serveQueue({
    connection,
    ...(values['queue-name'] ? { queueName: values['queue-name'] } : {}),
    concurrency: plan.jobs,
    ...(dataRoot ? { dataRoot } : {}),
    ...(values['artifacts-dir'] ? { artifactsDir: path.resolve(ctx.cwd, values['artifacts-dir']) } : {}),
    inlineLimitBytes: Math.round((values['inline-artifacts-mb'] !== undefined ? positiveNumber(values['inline-artifacts-mb'], '--inline-artifacts-mb')! : 4) * 1024 * 1024),
    allowWideSandbox: Boolean(values['allow-wide-sandbox']),
    sandbox: {
      cacheDir: ctx.env.NBMODERNIZE_CACHE_DIR!,
      memoryMb: plan.memoryMb,
      threads,
      ...(values.cpus ? { cpus: positiveNumber(values.cpus, '--cpus')! } : {}),
    },
    budgetS: positiveNumber(values.timeout, '--timeout') ?? 600,
    llmEnv: Object.fromEntries(LLM_ENV.map((k) => [k, ctx.env[k]])),
    graceMs: (positiveNumber(values.grace, '--grace') ?? 600) * 1000,
    warm: !values['no-warm'],
    workerName,
    // The queue's URL (and its password) stays with this process.
    spawn: () => fork(bin, ['worker', '--child', '--log-level', 'info'], { cwd: ctx.cwd, env: childEnv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] }),
    onJob: (e) => ctx.stderr(`nbmodernize worker ${workerName}: ${e.type} ${e.notebook} (job ${e.id})${e.detail ? `: ${e.detail}` : ''}\n`),
  }, ctx.signal);
  return ExitCode.ok;
}

/** A worker's process: the same as a local audit's (`audit --worker`), forked by `worker`. */
async function child(ctx: CliContext): Promise<number> {
  if (!process.send) throw new UsageError('worker --child is started by the worker itself');
  // Test hook (test/sandbox/queue.test.ts): a notebook containing this marker kills its process,
  // the stand-in for a notebook that crashes the worker (native crash, OOM) every time.
  const poison = ctx.env.NBMODERNIZE_TEST_CRASH_MARKER;
  const channel: WorkerChannel = {
    send: (msg) => {
      if (process.connected) process.send!(msg, undefined, undefined, () => undefined);
    },
    onMessage: (fn) => process.on('message', (m) => {
      const msg = m as Parameters<typeof fn>[0];
      if (poison && msg.type === 'run' && fs.readFileSync(msg.job.path, 'utf8').includes(poison)) process.kill(process.pid, 'SIGKILL');
      fn(msg);
    }),
    onDisconnect: (fn) => process.once('disconnect', fn),
  };
  await serveAuditWorker(channel, ctx.signal);
  return ctx.signal.aborted ? ExitCode.interrupted : ExitCode.ok;
}

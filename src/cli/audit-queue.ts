/**
 * The `--queue` part of `nbmodernize audit`: turns the audit's flags into the coordinator of a
 * queue (src/agent/queue/coordinator.ts). Kept apart from audit.ts so the local audit's code
 * stays as it is.
 */
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import type { WorkerConfig } from '../agent/audit/protocol.js';
import type { PoolHooks } from '../agent/audit/pool.js';
import type { JobDispatch } from '../agent/audit/runner.js';
import { QueueDispatch } from '../agent/queue/coordinator.js';
import type { QueueRunOptions } from '../agent/queue/payload.js';
import { parseQueueUrl, type QueueConnection } from '../agent/queue/url.js';
import type { SandboxRequest } from '../executor/types.js';
import type { CliContext } from './context.js';
import { positiveNumber } from './options.js';

export const QUEUE_FLAGS = {
  queue: { type: 'string' },
  'queue-name': { type: 'string' },
  'artifacts-dir': { type: 'string' },
  'max-attempts': { type: 'string' },
} as const;

export const QUEUE_HELP = `  --queue URL            coordinate workers through Redis (redis://HOST:PORT/DB, rediss:// for TLS,
                         a password as redis://:PASSWORD@...; "env" reads NBMODERNIZE_QUEUE_URL):
                         enqueue the notebooks, collect the results; see docs/scale-out.md
  --queue-name NAME      the BullMQ queue (default nbmodernize-audit)
  --artifacts-dir DIR    shared storage where workers put artifacts too large for the queue
  --max-attempts N       with --queue: tries per notebook on infrastructure failures (default 3)`;

export interface QueueSetup {
  connection: QueueConnection;
  /** What the summary line says about the backend: the workers choose it. */
  backend: { kind: SandboxRequest['kind']; reason: string };
  dispatch(config: WorkerConfig, req: SandboxRequest): (hooks: PoolHooks) => JobDispatch;
}

export function queueSetup(values: Record<string, any>, ctx: CliContext): QueueSetup | undefined {
  const url = values.queue ?? undefined;
  if (!url) {
    for (const f of ['queue-name', 'artifacts-dir', 'max-attempts']) if (values[f] !== undefined) throw new UsageError(`--${f} only applies with --queue`);
    return undefined;
  }
  if (values['project-dir']) throw new UsageError('--project-dir does not travel through the queue (the notebook does, alone); use --no-project or a local audit');
  // "env" keeps the password out of `ps` and shell history.
  const connection = parseQueueUrl(url === 'env' ? (ctx.env.NBMODERNIZE_QUEUE_URL ?? '') : url);
  const attempts = values['max-attempts'] !== undefined ? Math.floor(positiveNumber(values['max-attempts'], '--max-attempts')!) : 3;
  const artifactsDir = values['artifacts-dir'] ? path.resolve(ctx.cwd, values['artifacts-dir']) : undefined;
  return {
    connection,
    backend: { kind: values.sandbox as SandboxRequest['kind'], reason: `chosen by each worker; queue ${connection.display}` },
    dispatch: (config, req) => {
      const options: QueueRunOptions = {
        mode: config.mode,
        sandbox: { kind: values.sandbox as string, environment: req.environment, project: req.project === null ? 'none' : 'notebook' },
        ...(config.fix ? { fix: { llmFlags: config.fix.llmFlags, budgets: config.fix.budgets } } : {}),
      };
      return (hooks) => new QueueDispatch({
        connection,
        ...(values['queue-name'] ? { queueName: values['queue-name'] as string } : {}),
        options,
        auditDir: config.auditDir,
        resume: Boolean(values.resume),
        attempts,
        backoffMs: 2_000,
        ...(artifactsDir ? { artifactsDir } : {}),
      }, hooks);
    },
  };
}

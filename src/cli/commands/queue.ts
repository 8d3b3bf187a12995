/** `nbmodernize queue status --queue URL`: what the audit queue holds and which workers are connected. */
import { errorMessage, ExitCode, NbmError, UsageError } from '../../core/errors.js';
import { AuditQueue } from '../../agent/queue/bullmq.js';
import { parseQueueUrl } from '../../agent/queue/url.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';

export const summary = 'state of an audit queue (waiting, active, completed, failed; workers)';

const HELP = `Usage: nbmodernize queue status --queue URL [--queue-name NAME] [--json]

Counts of the queue's jobs (waiting, active, delayed, completed, failed), the failed ones with
their reasons, the workers connected now, and every worker seen (last seen, jobs done and
failed). "--queue env" reads NBMODERNIZE_QUEUE_URL.`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    queue: { type: 'string' },
    'queue-name': { type: 'string' },
    json: { type: 'boolean', default: false },
  }, 'queue', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals[0] !== 'status' || positionals.length !== 1) throw new UsageError('queue takes one subcommand: status', 'see: nbmodernize queue --help');
  if (!values.queue) throw new UsageError('queue status needs --queue URL');
  const connection = parseQueueUrl(values.queue === 'env' ? (ctx.env.NBMODERNIZE_QUEUE_URL ?? '') : values.queue);
  const queue = AuditQueue.open(connection, values['queue-name'], { failFast: true });
  try {
    let counts, workers, failed, seen;
    try {
      [counts, workers, failed, seen] = await Promise.all([queue.counts(), queue.workers(), queue.failures(), queue.workersSeen()]);
    } catch (err) {
      throw new NbmError(`cannot read the queue at ${connection.display}: ${errorMessage(err)}`, ExitCode.environment, 'queue');
    }
    if (values.json) {
      printJson(ctx, { queue: connection.display, ...counts, workers, workersSeen: seen, failedJobs: failed });
      return ExitCode.ok;
    }
    ctx.stdout(`queue ${connection.display}\n`);
    ctx.stdout(`  waiting ${counts.waiting}, active ${counts.active}, delayed ${counts.delayed}, completed ${counts.completed}, failed ${counts.failed}\n`);
    ctx.stdout(`  workers connected ${workers.length}${workers.map((w) => `\n    ${w.name} (${w.addr}, idle ${w.idleS} s)`).join('')}\n`);
    const connected = new Set(workers.map((w) => w.name));
    ctx.stdout(`  workers seen ${seen.length}${seen.map((w) => `\n    ${w.name}: last seen ${w.lastSeen}${connected.has(w.name) ? '' : ' (gone)'}, ${w.done} done, ${w.failed} failed`).join('')}\n`);
    for (const f of failed) ctx.stdout(`  failed: ${f.notebook} after ${f.attemptsMade} attempt${f.attemptsMade === 1 ? '' : 's'}: ${f.reason}\n`);
    return ExitCode.ok;
  } finally {
    await queue.close();
  }
}

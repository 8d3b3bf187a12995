/** `nbmodernize audit INPUT --out-dir DIR`: reproducibility audit of many notebooks (as-is, or with --fix). */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { configureLogging } from '../../core/log.js';
import { packageRoot } from '../../core/paths.js';
import { chooseBackend } from '../../executor/sandbox.js';
import { loadInput } from '../../agent/audit/manifest.js';
import { planMemory } from '../../agent/audit/memory.js';
import { AuditProgress } from '../../agent/audit/progress.js';
import type { WorkerChannel, WorkerConfig } from '../../agent/audit/protocol.js';
import { runAudit, type AuditEvent } from '../../agent/audit/runner.js';
import { serveAuditWorker } from '../../agent/audit/worker.js';
import { pct, formatDuration } from '../../agent/report/markdown.js';
import type { CliContext } from '../context.js';
import { buildProgress } from '../build-progress.js';
import { commandFlags, printJson } from '../command-io.js';
import { BUDGET_FLAGS, budgetsFrom, LLM_TUNING_FLAGS, llmTuningFrom, positiveNumber, SANDBOX_FLAGS, sandboxRequestFrom } from '../options.js';
import { QUEUE_FLAGS, QUEUE_HELP, queueSetup } from '../audit-queue.js';

export const summary = 'reproducibility audit of a directory or manifest of notebooks';

const HELP = `Usage: nbmodernize audit INPUT --out-dir DIR [options]

Runs every notebook of INPUT in the fixed environment, each in its own sandbox and kernel, and
records whether it reproduces as-is (or, with --fix, after the modernization loop). Results are
committed per notebook as they finish; --resume continues an interrupted audit. Writes
DIR/summary.json, DIR/report.md, DIR/report.html and per-notebook artifacts in DIR/notebooks/.

INPUT: a directory of notebooks (searched recursively), one notebook, or a manifest (.json or
.csv: path, data dir or competition, expected score, metric, ground truth; see docs/audit.md).

Options:
  --out-dir DIR          where results, reports and artifacts go (required)
  -j, --jobs N           notebooks at once (default: CPU cores; lowered when memory is short)
  --resume               continue the audit in DIR: skip finished notebooks
  --retry-failed         with --resume: also run again the notebooks that could not be evaluated
                         for a reason outside them (LLM provider, sandbox, crash, missing data)
  --fix                  run the modernization loop on notebooks that do not reproduce as-is
  --no-llm               with --fix: rules only
  --llm openai|anthropic|none, --model NAME, --replay-llm FILE   with --fix: the LLM (see docs/llm.md)
  --llm-timeout S, --llm-max-tokens N, --llm-mode reply|tools   with --fix: as for modernize
  --max-fixes N, --max-spend USD, --max-wall S
                         with --fix: the agent's budgets per notebook, as for modernize
                         (defaults 16, 1.00, 3600; the spend cap is checked before each LLM call)
  --max-total-spend USD  stop starting notebooks once the whole audit has spent this much
  --max-provider-failures N
                         with --fix: stop starting notebooks after N in a row failed because
                         the LLM provider did (timeouts, 5xx/429 past the retries, auth; default 5)
  --data DIR             competition data for every notebook (a manifest entry overrides it)
  --competition SLUG     slug for --data (default: the data dir's name)
  --data-root DIR        competitions as DIR/<slug>/; a notebook's is its folder's name,
                         else a similar name, else the columns its code names
  --data-next-to-notebook  also link the data files into the working dir
  --project-dir DIR   the notebook's own project (helper modules, small files), copied into the
                      working dir before each run; default: the notebook's directory
  --no-project        do not copy the notebook's directory
  --tolerance X          relative tolerance of the oracle (default 0.1)
  --sandbox KIND         auto | docker | bwrap | host | remote (default auto)
  --env NAME             environment definition (default debian13)
  --memory MB            per-notebook memory cap (default: available memory / jobs)
  --cpus N               per-notebook CPU limit
  --threads N            threads per notebook for BLAS/OpenMP/numexpr/joblib (default: cores / jobs)
  --disk MB              per-notebook quota for what it writes: working dir, /tmp, HOME (default 2048)
  --cell-timeout S       per-cell timeout (default: the whole budget)
  --timeout S            per-notebook time budget (default 600)
  --allow-errors         keep going after a failing cell
  --no-prestart          do not start the next notebook's sandbox ahead of time
  --no-warm              bwrap: a sandbox (Jupyter server) per notebook instead of a warm one
                         per worker with a namespace per notebook
  --json                 print summary.json on stdout at the end
${QUEUE_HELP}

Exit codes: 0 every notebook has a verdict, 1 stopped early (--max-total-spend), 2 usage,
7 environment/sandbox problem, 11 stopped early: the LLM provider keeps failing
(--max-provider-failures), 130 interrupted (finished notebooks are kept; use --resume).`;

/** The variables the LLM providers read; only these reach the workers. */
export const LLM_ENV = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'];

export async function run(args: string[], ctx: CliContext): Promise<number> {
  if (args[0] === '--worker') return worker(ctx);
  const { values, positionals, helpShown } = commandFlags(args, {
    ...SANDBOX_FLAGS,
    ...QUEUE_FLAGS,
    'out-dir': { type: 'string' },
    jobs: { type: 'string', short: 'j' },
    resume: { type: 'boolean', default: false },
    'retry-failed': { type: 'boolean', default: false },
    'max-provider-failures': { type: 'string' },
    fix: { type: 'boolean', default: false },
    'no-llm': { type: 'boolean', default: false },
    llm: { type: 'string' },
    model: { type: 'string' },
    'replay-llm': { type: 'string' },
    ...LLM_TUNING_FLAGS,
    ...BUDGET_FLAGS,
    // The old name of --max-spend (per notebook); kept so existing scripts keep their meaning.
    'spend-cap': { type: 'string' },
    'max-total-spend': { type: 'string' },
    'data-root': { type: 'string' },
    tolerance: { type: 'string' },
    'no-prestart': { type: 'boolean', default: false },
    'no-warm': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  }, 'audit', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals.length !== 1) throw new UsageError('audit takes exactly one INPUT (a directory, a notebook or a manifest)', 'see: nbmodernize audit --help');
  if (!values['out-dir']) throw new UsageError('audit needs --out-dir DIR');
  if (values['retry-failed'] && !values.resume) throw new UsageError('--retry-failed only applies with --resume');
  const fixOnly = ['no-llm', 'llm', 'model', 'replay-llm', 'llm-timeout', 'llm-max-tokens', 'llm-mode', 'max-fixes', 'max-spend', 'max-wall', 'spend-cap', 'max-provider-failures'].filter((f) => values[f] !== undefined && values[f] !== false);
  if (!values.fix && fixOnly.length) throw new UsageError(`--${fixOnly[0]} only applies with --fix`);
  const auditDir = path.resolve(ctx.cwd, values['out-dir']);
  const input = path.resolve(ctx.cwd, positionals[0]!);
  const tolerance = values.tolerance !== undefined ? Number(values.tolerance) : undefined;
  if (tolerance !== undefined && !(tolerance >= 0)) throw new UsageError(`--tolerance must be a number >= 0, got "${values.tolerance}"`);

  const req = sandboxRequestFrom(values, ctx);
  const queued = queueSetup(values, ctx);
  const data = req.data;
  delete req.data;
  delete req.dataNextToNotebook;
  const loaded = loadInput(input, {
    ...(data ? { data } : {}),
    ...(values['data-root'] ? { dataRoot: path.resolve(ctx.cwd, values['data-root']) } : {}),
    exclude: auditDir,
    defaults: {
      ...(values['cell-timeout'] ? { cellTimeoutS: positiveNumber(values['cell-timeout'], '--cell-timeout')! } : {}),
      ...(values.timeout ? { timeoutS: positiveNumber(values.timeout, '--timeout')! } : {}),
      ...(values['allow-errors'] ? { allowErrors: true } : {}),
      ...(tolerance !== undefined ? { tolerance } : {}),
      ...(values['data-next-to-notebook'] ? { dataNextToNotebook: true } : {}),
    },
  });
  if (!loaded.jobs.length) throw new UsageError(`no notebooks (*.ipynb) found in ${positionals[0]}`);
  for (const note of loaded.dataNotes ?? []) ctx.stderr(`nbmodernize: ${note}\n`);

  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const wanted = values.jobs !== undefined ? Math.floor(positiveNumber(values.jobs, '--jobs')!) : cores;
  const plan = planMemory({ jobs: Math.min(wanted, loaded.jobs.length), freeBytes: os.freemem(), totalBytes: os.totalmem(), ...(values.memory ? { requestedMb: positiveNumber(values.memory, '--memory')! } : {}) });
  if (plan.note) ctx.stderr(`nbmodernize: ${plan.note}\n`);
  req.memoryMb = plan.memoryMb;
  // Like the memory, the cores are shared out: N notebooks that each start a thread per core
  // would run cores x N busy threads on `cores` cores.
  req.threads ??= Math.max(1, Math.floor(cores / plan.jobs));

  let fixConfig: WorkerConfig['fix'];
  if (values.fix) {
    const { providerFromEnv } = await import('../../fixers/llm/factory.js');
    const llmEnv = Object.fromEntries(LLM_ENV.map((k) => [k, ctx.env[k]]));
    const llmFlags = {
      ...(values.llm ? { llm: values.llm as string } : {}),
      ...(values['no-llm'] ? { noLlm: true } : {}),
      ...(values.model ? { model: values.model as string } : {}),
      ...(values['replay-llm'] ? { replayLlm: path.resolve(ctx.cwd, values['replay-llm']) } : {}),
      ...llmTuningFrom(values),
    };
    // Decide (and complain) here, once, before any worker starts.
    const choice = providerFromEnv(llmEnv, llmFlags);
    ctx.stderr(`nbmodernize: --fix: ${choice.reason}\n`);
    fixConfig = {
      llmEnv,
      llmFlags,
      budgets: budgetsFrom({ ...values, 'max-spend': values['max-spend'] ?? values['spend-cap'] }),
    };
  }

  // Resolve "auto" (and build the environment if needed) once, so every worker uses the same backend.
  const build = buildProgress(ctx);
  try {
    // With --queue the workers choose (and build) on their own machines.
    const chosen = queued ? queued.backend : await chooseBackend(req, { signal: ctx.signal, onBuildEvent: build.onEvent });
    req.kind = chosen.kind;
    ctx.stderr(`nbmodernize: sandbox ${chosen.kind} (${chosen.reason}), ${plan.jobs} at once, ${plan.memoryMb} MiB and ${req.threads} thread${req.threads === 1 ? '' : 's'} each\n`);
  } finally {
    build.stop();
  }

  fs.mkdirSync(auditDir, { recursive: true });
  configureLogging({ file: path.join(auditDir, 'audit.log') });
  const config: WorkerConfig = {
    auditDir,
    mode: values.fix ? 'fix' : 'baseline',
    sandbox: req,
    prestart: !values['no-prestart'],
    warm: !values['no-warm'],
    ...(fixConfig ? { fix: fixConfig } : {}),
  };
  const bin = path.join(packageRoot(), 'bin', 'nbmodernize.js');
  const spawnWorker = () =>
    fork(bin, ['audit', '--worker', '--log-level', 'info'], {
      cwd: ctx.cwd,
      env: ctx.env,
      // stderr carries the worker's log lines (into audit.log); stdout is unused.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      execArgv: [],
    });

  const progress = new AuditProgress(plan.jobs);
  const display = liveDisplay(ctx, progress);
  let outcome;
  try {
    outcome = await runAudit({
      input,
      jobs: loaded.jobs,
      concurrency: plan.jobs,
      resume: Boolean(values.resume),
      config,
      spawnWorker,
      ...(values['max-total-spend'] ? { maxSpendUsd: positiveNumber(values['max-total-spend'], '--max-total-spend')! } : {}),
      ...(values['max-provider-failures'] ? { maxProviderFailures: Math.ceil(positiveNumber(values['max-provider-failures'], '--max-provider-failures')!) } : {}),
      ...(values['retry-failed'] ? { retryFailed: true } : {}),
      signal: ctx.signal,
      onEvent: display.onEvent,
      ...(queued ? { dispatch: queued.dispatch(config, req) } : {}),
      options: { environment: req.environment, sandbox: req.kind, memoryMb: req.memoryMb, threads: req.threads, prestart: config.prestart, warm: config.warm, timeoutS: values.timeout ?? null, cellTimeoutS: values['cell-timeout'] ?? null, tolerance: tolerance ?? null, ...(queued ? { queue: queued.connection.display } : {}) },
    });
  } finally {
    display.stop();
  }
  const s = outcome.report.summary;
  const aside = (s.setAside?.missingInput ?? 0) + (s.setAside?.missingModule ?? 0);
  const after = values.fix ? ` → ${s.totals.reproduced} of ${s.totals.notebooks} (${pct(s.totals.reproduced, s.totals.notebooks)}) after --fix${aside ? ` (${aside} with cells set aside for a missing input or module)` : ''}` : '';
  ctx.stderr(`\n${outcome.interrupted ? 'audit interrupted' : 'audit finished'}: ${s.totals.notebooks} of ${s.audit.planned ?? s.totals.notebooks} notebooks; reproducible ${s.before.reproduced} of ${s.before.notebooks} (${pct(s.before.reproduced, s.before.notebooks)}) as-is${after}; ${s.totals.failed} could not be evaluated; cost $${s.cost.usd.toFixed(2)}; ${formatDuration(s.audit.elapsedMs)}\n`);
  ctx.stderr(`report: ${outcome.report.files.html}\nsummary: ${outcome.report.files.summary} (${outcome.report.files.markdown})\n`);
  if (outcome.interrupted) ctx.stderr(`continue with: nbmodernize audit ${positionals[0]} --out-dir ${values['out-dir']} --resume\n`);
  if (outcome.stoppedEarly) ctx.stderr(`stopped early: ${outcome.stoppedEarly}\n`);
  if (outcome.providerDown) ctx.stderr(`finished notebooks are kept; once the provider is back: nbmodernize audit ${positionals[0]} --out-dir ${values['out-dir']} --fix --resume --retry-failed\n`);
  if (values.json) printJson(ctx, s);
  if (outcome.interrupted || ctx.signal.aborted) return ExitCode.interrupted;
  if (outcome.providerDown) return ExitCode.llmUnavailable;
  return outcome.stoppedEarly ? ExitCode.notebookError : ExitCode.ok;
}

/** Terminal: a bar redrawn in place; otherwise one line per notebook and a heartbeat every minute. */
function liveDisplay(ctx: CliContext, progress: AuditProgress): { onEvent: (e: AuditEvent) => void; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  // A pseudo-terminal without a size reports 0 columns.
  const width = () => Math.max(40, (process.stderr.columns || 100) - 1);
  const redraw = () => ctx.stderr(`\r\x1b[2K${progress.bar(width())}`);
  if (ctx.isTTY) {
    timer = setInterval(redraw, 500);
  } else {
    timer = setInterval(() => ctx.stderr(`${progress.bar(200)}\n`), 60_000);
  }
  timer.unref();
  return {
    onEvent: (e) => {
      const line = progress.update(e);
      if (!line) return;
      if (ctx.isTTY) {
        ctx.stderr(`\r\x1b[2K${line}\n`);
        redraw();
      } else ctx.stderr(`${line}\n`);
    },
    stop: () => {
      if (timer) clearInterval(timer);
      if (ctx.isTTY) ctx.stderr('\r\x1b[2K');
    },
  };
}

/** The hidden worker mode: serve the coordinator over the IPC channel it forked us with. */
async function worker(ctx: CliContext): Promise<number> {
  if (!process.send) throw new UsageError('audit --worker is started by the audit itself');
  const channel: WorkerChannel = {
    send: (msg) => {
      if (process.connected) process.send!(msg, undefined, undefined, () => undefined);
    },
    onMessage: (fn) => process.on('message', (m) => fn(m as Parameters<typeof fn>[0])),
    onDisconnect: (fn) => process.once('disconnect', fn),
  };
  await serveAuditWorker(channel, ctx.signal);
  // 130 tells the coordinator the notebook in hand was interrupted, not crashed.
  return ctx.signal.aborted ? ExitCode.interrupted : ExitCode.ok;
}

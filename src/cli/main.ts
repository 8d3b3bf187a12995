import { NbmError, ExitCode, errorMessage } from '../core/errors.js';
import { format } from 'node:util';
import { configureLogging, log } from '../core/log.js';
import type { CliContext, CommandModule } from './context.js';
import { cacheDirFromEnv } from './cache-dir.js';

/** Subcommand name -> module under ./commands (loaded lazily so `scan` never pays for the executor). */
const COMMANDS = ['run', 'env', 'scan', 'fix', 'modernize', 'audit', 'report', 'check', 'worker', 'queue'] as const;

const USAGE = `nbmodernize — run old Kaggle-era notebooks in one fixed modern Python environment and modernize their code

Usage: nbmodernize <command> [options]

Commands:
  run NOTEBOOK        execute a notebook in the fixed environment and record what happened
  env build [NAME]    build the fixed environment (Debian rootfs; Docker image when an engine is reachable)
  env info [NAME]     show the environment's recorded versions
  scan NOTEBOOK...    static findings of known API breakage (no execution)
  fix NOTEBOOK        apply the deterministic rules (--rules-only)
  worker --queue URL  run audit notebooks from a Redis queue (audit INPUT --queue URL fills it)
  queue status --queue URL   jobs waiting, running, done and failed; the workers connected

Run "nbmodernize <command> --help" for a command's options. Global: --log-level LEVEL, --log-file FILE.
Environment: NBMODERNIZE_CACHE_DIR (default $XDG_CACHE_HOME/nbmodernize or ~/.cache/nbmodernize).`;

export async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals += 1;
    // First signal: abort cleanly (sandboxes are torn down by their owners). Second: give up now.
    if (signals > 1) process.exit(ExitCode.interrupted);
    process.stderr.write(`\nnbmodernize: ${sig} received, stopping and cleaning up...\n`);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // Libraries (e.g. @jupyterlab/services) chat on console.*; stdout belongs to --json output.
  for (const m of ['log', 'info', 'debug', 'warn'] as const) console[m] = (...a: unknown[]) => log.debug(format(...a));

  const args = [...argv];
  const logLevel = takeOption(args, '--log-level') ?? process.env.NBMODERNIZE_LOG_LEVEL;
  const logFile = takeOption(args, '--log-file');
  configureLogging({ level: logLevel, file: logFile });

  const ctx: CliContext = {
    argv,
    env: { ...process.env, NBMODERNIZE_CACHE_DIR: cacheDirFromEnv(process.env) },
    cwd: process.cwd(),
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    signal: controller.signal,
  };

  const name = args.shift();
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    ctx.stdout(USAGE + '\n');
    process.exitCode = name ? ExitCode.ok : ExitCode.usage;
    return;
  }
  if (name === '--version') {
    ctx.stdout(`${await toolVersion()}\n`);
    return;
  }
  if (!(COMMANDS as readonly string[]).includes(name)) {
    ctx.stderr(`nbmodernize: unknown command "${name}"\n\n${USAGE}\n`);
    process.exitCode = ExitCode.usage;
    return;
  }
  let code: number;
  try {
    const mod = (await import(`./commands/${name}.js`)) as CommandModule;
    code = await mod.run(args, ctx);
  } catch (err) {
    code = reportError(err, ctx);
    // Whatever failed after Ctrl-C / SIGTERM failed because of it: report the interruption.
    if (controller.signal.aborted) code = ExitCode.interrupted;
  }
  // Let stdout drain before exiting; pending handles (sockets) must not keep us alive.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 50).unref();
}

function reportError(err: unknown, ctx: CliContext): number {
  if (err instanceof NbmError) {
    ctx.stderr(`nbmodernize: ${err.message}\n`);
    if (err.hint) ctx.stderr(`  ${err.hint}\n`);
    return err.exitCode;
  }
  if ((err as any)?.code === 'ERR_MODULE_NOT_FOUND') {
    ctx.stderr(`nbmodernize: this command is not available in this build (${errorMessage(err)})\n`);
    return ExitCode.usage;
  }
  ctx.stderr(`nbmodernize: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
  return 70;
}

function takeOption(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

async function toolVersion(): Promise<string> {
  const { toolVersion: v } = await import('../core/version.js');
  return v();
}

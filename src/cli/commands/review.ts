/** `nbmodernize review OUT_DIR`: accept or reject each change of a modernization, re-run, write the reviewed notebook. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { readReviewInput } from '../../agent/review/changes.js';
import { matchChanges } from '../../agent/review/decisions.js';
import { kernelRerun, type Rerun } from '../../agent/review/rerun.js';
import { startReviewServer } from '../../agent/review/server.js';
import { ReviewSession, type RunEvent } from '../../agent/review/session.js';
import { validateDataMount } from '../../executor/kaggle-layout.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';
import { positiveNumber, sandboxRequestFrom, SANDBOX_FLAGS, withProjectDefault } from '../options.js';

export const summary = 'review a modernization: accept or reject each change, re-run, write the reviewed notebook';

const HELP = `Usage: nbmodernize review OUT_DIR [options]

OUT_DIR is the output dir of "nbmodernize modernize" (or an audit --fix notebook dir). Serves a
page on 127.0.0.1 (a random port unless --port; a token in the URL) showing every change side by
side with its source and trigger, the outputs before and after; accept or reject each change or
cell, re-run the notebook with what you kept, and write <name>.reviewed.ipynb and review.json into
OUT_DIR. The original notebook and the modernized one are never modified. Ctrl-C stops the server.

  --no-browser          only print the URL (the browser is opened only when a display exists)
  --port N              listen on this port (default: a free one)
  --original FILE       the original notebook, when it is no longer where report.json says

Non-interactive (for scripts; writes and exits, no server):
  --accept-all          keep every change
  --reject LIST         reject the changes made by these rules: ids (pandas-ix), codes (PD001),
                        code prefixes (PD, PD0), a model name, or "llm" (comma-separated, repeatable)
  --run                 re-run the decided notebook before writing (outputs and verdict of that run)
  --json                print review.json on stdout

Re-runs use the fixed environment like modernize: give the same data and sandbox options
(--data, --competition, --data-next-to-notebook, --sandbox, --timeout, --cell-timeout, ...).
  --tolerance X         relative tolerance of the stored-outputs oracle (default 0.1)

Exit codes (non-interactive): 0 written (and, with --run, reproduced), 1 written but the re-run does
not reproduce, 2 usage, 7 environment/sandbox problem.`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    ...SANDBOX_FLAGS,
    'no-browser': { type: 'boolean', default: false },
    port: { type: 'string' },
    original: { type: 'string' },
    'accept-all': { type: 'boolean', default: false },
    reject: { type: 'string', multiple: true },
    run: { type: 'boolean', default: false },
    tolerance: { type: 'string' },
    json: { type: 'boolean', default: false },
  }, 'review', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals.length !== 1) throw new UsageError('review takes exactly one OUT_DIR (the output dir of modernize)', 'see: nbmodernize review --help');
  const rejectList: string[] = (values.reject ?? []).flatMap((r: string) => r.split(','));
  if (values['accept-all'] && rejectList.length) throw new UsageError('--accept-all and --reject exclude each other');
  const scripted = values['accept-all'] || rejectList.length > 0;
  if (!scripted && (values.run || values.json)) throw new UsageError('--run and --json are for the non-interactive mode (--accept-all or --reject)');

  const outDir = path.resolve(ctx.cwd, positionals[0]!);
  const input = readReviewInput(outDir, values.original ? { original: path.resolve(ctx.cwd, values.original) } : {});
  const sandbox = withProjectDefault(sandboxRequestFrom(values, ctx), input.originalPath);
  if (sandbox.data) validateDataMount(sandbox.data);
  const timeoutS = positiveNumber(values.timeout, '--timeout') ?? 600;
  const rerun: Rerun = kernelRerun({
    sandbox, notebookPath: input.originalPath, outDir, original: input.original, unstable: input.unstable,
    timeoutS, cellTimeoutS: positiveNumber(values['cell-timeout'], '--cell-timeout') ?? timeoutS,
    tolerance: positiveNumber(values.tolerance, '--tolerance'), signal: ctx.signal,
  });
  const session = new ReviewSession(input, rerun);
  if (input.report.oracle === 'expected-score') ctx.stderr(`${input.name}: note: modernize judged by an expected score; a re-run here is judged by the stored outputs\n`);

  if (scripted) return scriptedReview(session, rejectList, values, ctx);

  // Interactive only: a script says what it wants each time, a person takes up where they left off.
  const restored = input.previous ? session.restore(input.previous) : 0;
  if (restored) ctx.stderr(`${input.name}: took up ${restored} decision(s) from the earlier review.json\n`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  const server = await startReviewServer(session, port !== undefined ? { port } : {}).catch((err) => {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${port} on 127.0.0.1 is in use`, 'leave out --port to take a free one');
    throw err;
  });
  ctx.stderr(`${input.name}: ${input.changes.length} change(s) to review\nreview: ${server.url}\n(Ctrl-C to stop)\n`);
  if (!values['no-browser'] && (ctx.env.DISPLAY || ctx.env.WAYLAND_DISPLAY)) openBrowser(server.url, ctx);
  await new Promise<void>((done) => {
    if (ctx.signal.aborted) return done();
    ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  await server.close();
  return ExitCode.ok;
}

async function scriptedReview(session: ReviewSession, rejectList: string[], values: Record<string, any>, ctx: CliContext): Promise<number> {
  const { input } = session;
  const { ids, unmatched } = matchChanges(input.changes, rejectList);
  for (const name of unmatched) ctx.stderr(`${input.name}: --reject ${name}: no change was made by it\n`);
  if (ids.size) session.decide([...ids], 'rejected');
  const blocked = [...session.resolution().effects].filter(([, e]) => e === 'blocked').map(([id]) => id);
  ctx.stderr(`${input.name}: ${input.changes.length - ids.size} of ${input.changes.length} change(s) kept${ids.size ? `; rejected ${[...ids].join(', ')}` : ''}${blocked.length ? `; not applicable after that: ${blocked.join(', ')}` : ''}\n`);
  let failed: string | undefined;
  if (values.run) {
    await session.rerun((e: RunEvent) => {
      if (e.type === 'cell' && e.status !== 'ok') ctx.stderr(`${input.name}: cell ${e.index} ${e.status}${e.error ? `: ${e.error.ename}: ${e.error.evalue.split('\n')[0]}` : ''}\n`);
      if (e.type === 'run-failed') failed = e.message;
    });
    if (failed) throw new UsageError(`the re-run could not be done: ${failed}`);
  }
  const out = session.write();
  const run = out.content.run;
  ctx.stderr(`${input.name}: ${run ? `${run.from === 'review' ? 're-run' : 'last run (modernize)'}: ${run.current ? run.verdict : 'not run with these decisions (outputs of changed cells left empty; use --run)'}` : 'no run'}\nwrote ${out.notebook}\n      ${out.record}\n`);
  if (values.json) printJson(ctx, out.content);
  if (values.run && run?.verdict !== 'reproduced') return ExitCode.notebookError;
  return ExitCode.ok;
}

/** Best effort: the platform's opener, detached; the URL was printed anyway. */
function openBrowser(url: string, ctx: CliContext): void {
  try {
    const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
    child.on('error', () => ctx.stderr('(could not open a browser: open the URL above)\n'));
    child.unref();
  } catch {
    ctx.stderr('(could not open a browser: open the URL above)\n');
  }
}

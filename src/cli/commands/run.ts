/** `nbmodernize run NOTEBOOK`: execute in the fixed environment, write the executed notebook and run-result.json. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { serializeNotebook, writeFileAtomic } from '../../core/notebook.js';
import { validateNotebook } from '../../core/notebook-schema.js';
import type { RunResult } from '../../core/run-result.js';
import { runNotebook } from '../../executor/run-notebook.js';
import type { CliContext } from '../context.js';
import { execProgress } from '../exec-progress.js';
import { commandFlags, printJson } from '../command-io.js';
import { positiveNumber, SANDBOX_FLAGS } from '../options.js';
import { notebookInput } from '../notebook-input.js';
import { buildProgress } from '../build-progress.js';

export const summary = 'execute a notebook in the fixed environment and record what happened';

const HELP = `Usage: nbmodernize run NOTEBOOK [options]

Executes the notebook's code cells in order in a fresh kernel inside a sandbox over the fixed
environment, and writes the executed notebook plus a JSON run result.

Options:
  --data DIR             competition data, mounted read-only at /kaggle/input/<slug>/ and /kaggle/input/
  --competition SLUG     slug for the data mount (default: the data dir's name)
  --data-next-to-notebook  also link the data files into the working dir (notebooks that read 'train.csv')
  --project-dir DIR   the notebook's own project (helper modules, small files), copied into the
                      working dir before each run; default: the notebook's directory
  --no-project        do not copy the notebook's directory
  --data-exclude NAME    do not mount this top-level entry of the data dir (repeatable; e.g. ground_truth)
  -o, --output FILE      executed notebook (default: OUT-DIR/<name>.ipynb)
  --out-dir DIR          where the executed notebook, run-result.json and files/ go
                         (default: ./nbmodernize-out/<name>/)
  --sandbox KIND         auto | docker | bwrap | host | remote (default auto)
  --env NAME             environment definition (default debian13)
  --python PATH          host backend: python with jupyter_server + ipykernel
  --url URL, --token T   remote backend: Jupyter Server URL and token (or NBMODERNIZE_REMOTE_TOKEN)
  --memory MB            sandbox memory limit (default 75% of RAM, at most 16 GiB)
  --cpus N               sandbox CPU limit
  --threads N            cap BLAS/OpenMP/numexpr/joblib threads in the kernel (default: the libraries')
  --disk MB              quota for what the notebook writes: working dir, and /tmp and HOME each (default 2048)
  --cell-timeout S       per-cell timeout (default: the whole budget)
  --timeout S            whole-notebook time budget (default 600)
  --allow-errors         keep going after a failing cell
  --no-state             skip the runtime-state summary after each cell
  --json                 print the run result as JSON on stdout

Exit codes: 0 ok, 1 a cell raised, 2 usage, 3 malformed notebook, 4 non-Python kernel,
5 missing data, 6 no code cells, 7 environment/sandbox problem, 8 cell timeout,
9 time budget exceeded, 10 kernel died, 130 interrupted.`;

const STATUS_EXIT: Record<RunResult['status'], number> = {
  ok: ExitCode.ok,
  error: ExitCode.notebookError,
  timeout: ExitCode.cellTimeout,
  'budget-exceeded': ExitCode.budgetExceeded,
  'kernel-died': ExitCode.kernelDied,
};

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    ...SANDBOX_FLAGS,
    output: { type: 'string', short: 'o' },
    'out-dir': { type: 'string' },
    json: { type: 'boolean', default: false },
    'no-state': { type: 'boolean', default: false },
  }, 'run', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  const { nbPath, name, loaded, sandbox, outDir } = notebookInput('run', positionals, values, ctx);
  const outNotebook = path.resolve(ctx.cwd, (values.output as string | undefined) ?? path.join(outDir, `${name}.ipynb`));
  if (outNotebook === nbPath) throw new UsageError('the output notebook would overwrite the input; pick another -o');

  const progress = execProgress(ctx, name);
  const build = buildProgress(ctx);
  let outcome;
  try {
    outcome = await runNotebook(loaded.notebook, {
      sandbox,
      cellTimeoutS: positiveNumber(values['cell-timeout'] as string | undefined, '--cell-timeout'),
      timeoutS: positiveNumber(values.timeout as string | undefined, '--timeout'),
      allowErrors: Boolean(values['allow-errors']),
      collectState: !values['no-state'],
      outDir,
      notebookPath: nbPath,
      originalFormat: loaded.originalFormat,
      notes: loaded.notes,
      onEvent: progress.onEvent,
      onBuildEvent: build.onEvent,
      signal: ctx.signal,
    });
  } finally {
    progress.stop();
    build.stop();
  }
  const { result, notebook } = outcome;
  const problems = validateNotebook(notebook);
  if (problems.length) ctx.stderr(`nbmodernize: warning: the executed notebook does not validate: ${problems.join('; ')}\n`);
  writeFileAtomic(outNotebook, serializeNotebook(notebook));
  result.outputs.notebook = outNotebook;
  writeFileAtomic(path.join(outDir, 'run-result.json'), JSON.stringify(result, null, 2) + '\n');
  if (values.json) printJson(ctx, result);
  else {
    ctx.stderr(`executed notebook: ${outNotebook}\nrun result: ${path.join(outDir, 'run-result.json')}\n`);
    if (result.producedFiles.length) ctx.stderr(`files written by the notebook: ${result.producedFiles.map((f) => f.name).join(', ')} (in ${path.join(outDir, 'files')})\n`);
    for (const f of result.producedFiles.filter((p) => p.notCopied)) ctx.stderr(`not copied: ${f.name} (${f.bytes} bytes): ${f.notCopied}\n`);
    if (result.message) ctx.stderr(`${result.status}: ${result.message}\n`);
  }
  if (ctx.signal.aborted) return ExitCode.interrupted;
  return STATUS_EXIT[result.status];
}

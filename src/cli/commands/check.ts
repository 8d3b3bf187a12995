/** `nbmodernize check NOTEBOOK...`: for authors and CI — does each notebook reproduce as-is? */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { readNotebookFile, writeFileAtomic, type Notebook } from '../../core/notebook.js';
import { chooseBackend } from '../../executor/sandbox.js';
import { auditBaseline, JobInterrupted } from '../../agent/audit/baseline.js';
import { loadEnvironmentFacts } from '../../agent/audit/environment-facts.js';
import { artifactDirFor, type AuditJob } from '../../agent/audit/jobs.js';
import type { AuditRecord } from '../../agent/audit/record.js';
import { suggestChanges } from '../../agent/audit/suggest.js';
import { causeLabel } from '../../agent/audit/taxonomy.js';
import { driftRows, renderDriftTable } from '../../agent/report/drift-table.js';
import { renderJunit, type JunitCase } from '../../agent/report/junit.js';
import { formatDuration } from '../../agent/report/markdown.js';
import { isMetricName, type MetricName } from '../../agent/oracle/index.js';
import type { CliContext } from '../context.js';
import { buildProgress } from '../build-progress.js';
import { commandFlags } from '../command-io.js';
import { positiveNumber, SANDBOX_FLAGS, sandboxRequestFrom } from '../options.js';

export const summary = 'check that notebooks reproduce as-is (for authors and CI)';

const HELP = `Usage: nbmodernize check NOTEBOOK... [options]

Runs each notebook top to bottom in the fixed environment (no edits), compares the results with
its stored outputs (or with --expected-score), prints a drift table (cell, original, new) for
each one that does not reproduce, and exits 0 only when all reproduce.

Options:
  --data DIR             competition data, mounted read-only at /kaggle/input/
  --competition SLUG     slug for the data mount (default: the data dir's name)
  --data-next-to-notebook  also link the data files into the working dir
  --project-dir DIR   the notebook's own project (helper modules, small files), copied into the
                      working dir before each run; default: the notebook's directory
  --no-project        do not copy the notebook's directory
  --tolerance X          relative tolerance for numbers and scores (default 0.1)
  --expected-score X     compare the submission's score instead (needs --metric and --ground-truth)
  --metric NAME          accuracy | f1 | auc | logloss | rmse | rmsle | mae | r2
  --ground-truth FILE    CSV with the true labels to score the submission against
  --junit FILE           write JUnit XML (one testcase per notebook)
  --suggest              also list what the rules would change (static scan; nothing is changed)
  --out-dir DIR          keep each notebook's executed copy, run result and drift diff here
  --sandbox KIND         auto | docker | bwrap | host | remote (default auto)
  --memory MB, --cpus N, --threads N, --disk MB, --cell-timeout S, --timeout S (default 600), --allow-errors

Exit codes: 0 all reproduce, 1 at least one does not (or cannot be evaluated), 2 usage,
7 the sandbox could not run them, 130 interrupted.`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    ...SANDBOX_FLAGS,
    junit: { type: 'string' },
    tolerance: { type: 'string' },
    suggest: { type: 'boolean', default: false },
    'expected-score': { type: 'string' },
    metric: { type: 'string' },
    'ground-truth': { type: 'string' },
    'out-dir': { type: 'string' },
  }, 'check', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (!positionals.length) throw new UsageError('check needs at least one NOTEBOOK', 'see: nbmodernize check --help');
  const tolerance = values.tolerance !== undefined ? Number(values.tolerance) : undefined;
  if (tolerance !== undefined && !(tolerance >= 0)) throw new UsageError(`--tolerance must be a number >= 0, got "${values.tolerance}"`);
  let expected: AuditJob['expected'];
  if (values['expected-score'] !== undefined || values.metric || values['ground-truth']) {
    const score = Number(values['expected-score']);
    if (values['expected-score'] === undefined || !Number.isFinite(score)) throw new UsageError('--expected-score X is needed with --metric / --ground-truth');
    const metric = String(values.metric ?? '').toLowerCase();
    if (!isMetricName(metric)) throw new UsageError('--expected-score needs --metric accuracy|f1|auc|logloss|rmse|rmsle|mae|r2');
    if (!values['ground-truth']) throw new UsageError('--expected-score needs --ground-truth FILE');
    expected = { expected: score, metric: metric as MetricName, groundTruth: path.resolve(ctx.cwd, values['ground-truth']), ...(tolerance !== undefined ? { tolerance } : {}) };
  }

  const req = sandboxRequestFrom(values, ctx);
  const build = buildProgress(ctx);
  try {
    req.kind = (await chooseBackend(req, { signal: ctx.signal, onBuildEvent: build.onEvent })).kind;
  } finally {
    build.stop();
  }
  const env = await loadEnvironmentFacts(req.environment);
  const keep = values['out-dir'] ? path.resolve(ctx.cwd, values['out-dir']) : undefined;
  const root = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-check-'));
  const taken = new Set<string>();
  const cases: JunitCase[] = [];
  const started = new Date().toISOString();
  let environmentFailure = false;
  try {
    for (const given of positionals) {
      const nbPath = path.resolve(ctx.cwd, given);
      const job: AuditJob = {
        id: given,
        path: nbPath,
        artifactDir: artifactDirFor(path.basename(given), taken),
        ...(req.data ? { data: req.data, dataNextToNotebook: Boolean(req.dataNextToNotebook) } : {}),
        ...(values['cell-timeout'] ? { cellTimeoutS: positiveNumber(values['cell-timeout'], '--cell-timeout')! } : {}),
        ...(values.timeout ? { timeoutS: positiveNumber(values.timeout, '--timeout')! } : {}),
        ...(values['allow-errors'] ? { allowErrors: true } : {}),
        ...(tolerance !== undefined ? { tolerance } : {}),
        ...(expected ? { expected } : {}),
      };
      const ticker = progressLine(ctx, given);
      let record: AuditRecord;
      let original: Notebook | undefined;
      try {
        const out = await auditBaseline(job, { auditDir: root, sandbox: req, env, signal: ctx.signal, onProgress: ticker.onProgress });
        record = out.record;
        original = out.notebook;
      } catch (err) {
        if (err instanceof JobInterrupted) return ExitCode.interrupted;
        throw err;
      } finally {
        ticker.stop();
      }
      if (record.status === 'environment') environmentFailure = true;
      const table = renderDriftTable(driftRows(record, original));
      ctx.stdout(headline(record, given) + '\n' + table);
      let details = table;
      if (values.suggest) {
        const text = await suggestions(nbPath, original);
        if (text) ctx.stdout(text);
        details += text;
      }
      cases.push({ record, name: given, details: `${record.verdict}: ${record.reason}\n${details}` });
    }
  } finally {
    if (!keep) fs.rmSync(root, { recursive: true, force: true });
  }

  const ok = cases.filter((c) => c.record.verdict === 'reproduced').length;
  ctx.stdout(`\n${ok} of ${cases.length} notebook${cases.length === 1 ? '' : 's'} reproduce${cases.length === 1 ? 's' : ''} in ${req.environment} (${req.kind}).\n`);
  if (values.junit) {
    const file = path.resolve(ctx.cwd, values.junit);
    writeFileAtomic(file, renderJunit(cases, { environment: req.environment, sandbox: req.kind, tolerance: String(tolerance ?? 0.1) }, started));
    ctx.stderr(`JUnit XML: ${file}\n`);
  }
  if (ctx.signal.aborted) return ExitCode.interrupted;
  if (ok === cases.length) return ExitCode.ok;
  return environmentFailure && cases.every((c) => c.record.verdict === 'reproduced' || c.record.status === 'environment') ? ExitCode.environment : ExitCode.notebookError;
}

function headline(r: AuditRecord, given: string): string {
  const mark = r.verdict === 'reproduced' ? '✓ reproduced    ' : r.verdict === 'failed' ? '! failed        ' : '✗ not reproduced';
  const why = r.taxonomy ? ` [${r.taxonomy.exceptionClass} · ${causeLabel(r.taxonomy.cause)}]` : '';
  const reason = r.reason.split('\n')[0]!;
  return `${mark}  ${given}  (${formatDuration(r.wallMs)})\n    ${reason.length > 200 ? `${reason.slice(0, 199)}…` : reason}${why}`;
}

async function suggestions(nbPath: string, loaded: Notebook | undefined): Promise<string> {
  let nb = loaded;
  if (!nb) {
    try {
      nb = readNotebookFile(nbPath).notebook;
    } catch {
      return '';
    }
  }
  const { suggestions: list, unavailable } = await suggestChanges(nb);
  if (unavailable) return `    suggestions: ${unavailable}\n`;
  if (!list.length) return '    suggestions: the rules find nothing to change\n';
  const lines = list.slice(0, 30).map((s) => `      cell ${s.cell} line ${s.line}: ${s.message} [${s.code ? `${s.code} ` : ''}${s.rule}${s.autoFixable ? ', auto-fixable' : ''}]`);
  const more = list.length > 30 ? `\n      ... and ${list.length - 30} more` : '';
  return `    would need changing (${list.length}; \`nbmodernize fix\` applies the auto-fixable ones):\n${lines.join('\n')}${more}\n`;
}

/** A terminal shows which cell runs; logs get one line per notebook. */
function progressLine(ctx: CliContext, label: string): { onProgress: (p: { phase: string; cell?: number; of?: number }) => void; stop: () => void } {
  if (!ctx.isTTY) {
    ctx.stderr(`checking ${label} ...\n`);
    return { onProgress: () => {}, stop: () => {} };
  }
  let text = `checking ${label}`;
  const t0 = Date.now();
  const draw = () => ctx.stderr(`\r\x1b[2K${text} ${formatDuration(Date.now() - t0)}`);
  const timer = setInterval(draw, 500);
  timer.unref();
  return {
    onProgress: (p) => {
      text = `checking ${label}: ${p.phase === 'cell' ? `cell ${p.cell}/${p.of}` : p.phase}`;
      draw();
    },
    stop: () => {
      clearInterval(timer);
      ctx.stderr('\r\x1b[2K');
    },
  };
}

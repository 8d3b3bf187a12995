/** `nbmodernize modernize NOTEBOOK`: the main job — execute, diagnose, fix, re-run until it reproduces. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { modernizeNotebook, type AgentEvent } from '../../agent/modernize.js';
import { isMetricName, METRICS } from '../../agent/oracle/index.js';
import { providerFromEnv } from '../../fixers/llm/factory.js';
import type { ExecEvent } from '../../executor/run-notebook.js';
import type { CliContext } from '../context.js';
import { execProgress, formatMs } from '../exec-progress.js';
import { commandFlags, printJson } from '../command-io.js';
import { BUDGET_FLAGS, budgetsFrom, LLM_TUNING_FLAGS, llmTuningFrom, positiveNumber, SANDBOX_FLAGS } from '../options.js';
import { notebookInput } from '../notebook-input.js';

export const summary = 'modernize a notebook until it reproduces in the fixed environment';

const HELP = `Usage: nbmodernize modernize NOTEBOOK [options]

Static rules first, then execute in the fixed environment, diagnose, fix (rules, then an LLM),
re-run (incrementally when safe) until the notebook reproduces or a budget runs out. Only a
clean run from a fresh kernel decides. The original notebook is never modified.

Outputs in --out-dir (default ./nbmodernize-out/<name>/): <name>.modernized.ipynb, changes.diff,
report.json, trajectory.jsonl, edits.jsonl, files/ (what the final run wrote).

Sandbox and run options: as for "nbmodernize run" (--data, --competition, --data-next-to-notebook,
--sandbox, --env, --python, --url, --token, --memory, --cpus, --threads, --disk, --cell-timeout, --timeout).

LLM:
  --llm openai|anthropic|none   provider (default: whichever key/base URL the environment has)
  --no-llm                      rules only
  --model NAME                  model name
  --base-url URL                OpenAI-compatible server (local models); or OPENAI_BASE_URL
  --record-llm FILE             write every request/response as JSONL
  --replay-llm FILE             answer from such a file, without the network
  --llm-timeout S               per request (default 120; a local model on a CPU may need more)
  --llm-max-tokens N            output limit of each reply (default 4096)
  --llm-mode reply|tools        reply: one reply per fix (default); tools: the model views cells,
                                inspects live values, tries patches, then submits or gives up
Budgets:
  --max-fixes N (16)  --max-spend USD (1.00 per notebook)  --max-wall S (3600)
Verdict:
  --expected-score X --metric NAME --ground-truth FILE [--id-column C] [--target-column C]
  --tolerance X       relative tolerance (default 0.1 = ±10%)
  --full-reruns       re-run the whole notebook after every patch (no incremental re-execution)
  --json              print report.json on stdout

Exit codes: 0 reproduced, 1 not reproduced, 2 usage, 3-6 bad input (as for run),
7 environment/sandbox problem, 130 interrupted.`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    ...SANDBOX_FLAGS,
    'out-dir': { type: 'string' },
    llm: { type: 'string' },
    'no-llm': { type: 'boolean', default: false },
    model: { type: 'string' },
    'base-url': { type: 'string' },
    'record-llm': { type: 'string' },
    'replay-llm': { type: 'string' },
    ...LLM_TUNING_FLAGS,
    ...BUDGET_FLAGS,
    'expected-score': { type: 'string' },
    metric: { type: 'string' },
    'ground-truth': { type: 'string' },
    'id-column': { type: 'string' },
    'target-column': { type: 'string' },
    tolerance: { type: 'string' },
    'full-reruns': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  }, 'modernize', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  const { nbPath, name, loaded, sandbox, outDir } = notebookInput('modernize', positionals, values, ctx);

  const expected = expectedTarget(values, ctx);
  const choice = providerFromEnv(ctx.env, {
    llm: values.llm,
    noLlm: values['no-llm'],
    model: values.model,
    baseUrl: values['base-url'],
    recordLlm: values['record-llm'] ? path.resolve(ctx.cwd, values['record-llm']) : undefined,
    replayLlm: values['replay-llm'] ? path.resolve(ctx.cwd, values['replay-llm']) : undefined,
    ...llmTuningFrom(values),
  });
  const provider = choice.provider;
  ctx.stderr(`${name}: ${provider ? `LLM ${choice.kind} ${choice.model ?? ''}${choice.mode === 'tools' ? ', tool mode' : ''}` : choice.reason}\n`);

  const progress = execProgress(ctx, name);
  let report;
  try {
    report = await modernizeNotebook(loaded.notebook, {
      sandbox,
      outDir,
      notebookPath: nbPath,
      llm: { provider, reason: choice.reason, model: choice.model, providerName: choice.provider ? choice.kind : undefined, ...(choice.maxTokens ? { maxTokens: choice.maxTokens } : {}), ...(choice.mode ? { mode: choice.mode } : {}) },
      // The agent owns the policy: it meters the provider against the spend cap before each call.
      budgets: budgetsFrom(values),
      timeoutS: positiveNumber(values.timeout, '--timeout'),
      cellTimeoutS: positiveNumber(values['cell-timeout'], '--cell-timeout'),
      expected,
      tolerance: positiveNumber(values.tolerance, '--tolerance'),
      incremental: !values['full-reruns'],
      forbiddenPaths: values['ground-truth'] ? [path.resolve(ctx.cwd, values['ground-truth'])] : [],
      signal: ctx.signal,
      onEvent: (e) => render(e, ctx, name, progress.onEvent),
    });
  } finally {
    progress.stop();
  }
  if (values.json) printJson(ctx, report);
  ctx.stderr(`${name}: ${report.verdict} (${report.stopReason}) — ${report.reason}\n`);
  ctx.stderr(`  fixes ${report.fixes.length}, cell executions ${report.cellExecutions}, LLM calls ${report.llm.calls} ($${report.llm.costUsd.toFixed(4)}), ${formatMs(report.wallMs)}\n  report: ${report.artifacts.report}\n`);
  if (report.stopReason === 'interrupted') return ExitCode.interrupted;
  if (report.verdict === 'failed') return ExitCode.environment;
  return report.verdict === 'reproduced' ? ExitCode.ok : ExitCode.notebookError;
}

function render(e: AgentEvent, ctx: CliContext, name: string, exec: (e: ExecEvent) => void): void {
  const line = (t: string) => ctx.stderr(`${t}\n`);
  switch (e.type) {
    case 'static-pass':
      line(`${name}: static rules changed ${e.changedCells.length} cell(s) (${e.findingsBefore} finding(s))`);
      break;
    case 'run':
      line(`${name}: ${e.mode} run${e.mode === 'incremental' ? ` from cell ${e.fromCell}` : ''}`);
      break;
    case 'exec':
      if (e.event.type === 'cell-end' || e.event.type === 'cell-start') exec(e.event);
      break;
    case 'diagnosis':
      if (e.diagnosis.kind === 'fix') line(`${name}: ${e.diagnosis.fixType} of cell ${e.diagnosis.cell}: ${e.diagnosis.why}`);
      break;
    case 'fix':
      line(`${name}: fix ${e.fix.step} (${e.fix.type}) by ${e.fix.source} in cell ${e.fix.cells.join(', ')}`);
      break;
    case 'rejected':
      line(`${name}: rejected a ${e.source} patch: ${e.reason.slice(0, 200)}`);
      break;
    case 'stop':
      line(`${name}: stop: ${e.reason} — ${e.detail.slice(0, 200)}`);
      break;
    default:
      // The rest (executions, candidates, LLM calls, verdict) is for the trajectory and the report.
      break;
  }
}

function expectedTarget(values: Record<string, any>, ctx: CliContext) {
  if (values['expected-score'] === undefined) return undefined;
  const expected = Number(values['expected-score']);
  if (!Number.isFinite(expected)) throw new UsageError('--expected-score must be a number');
  if (!values.metric || !isMetricName(values.metric)) throw new UsageError(`--expected-score needs --metric (one of ${Object.keys(METRICS).join(', ')})`);
  if (!values['ground-truth']) throw new UsageError('--expected-score needs --ground-truth FILE to score the submission against');
  return {
    expected,
    metric: values.metric,
    groundTruth: path.resolve(ctx.cwd, values['ground-truth']),
    ...(values['id-column'] ? { idColumn: values['id-column'] } : {}),
    ...(values['target-column'] ? { targetColumn: values['target-column'] } : {}),
  };
}

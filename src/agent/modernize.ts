/**
 * `modernizeNotebook`: one notebook, end to end. Wires the pieces and owns the files: the static
 * pass (every safe rule before the first run), the environment (sandbox + kernel), the fixers
 * (rules, then the LLM behind the spend meter), the loop (loop.ts), and the subscribers of its
 * one event stream: trajectory.jsonl, edits.jsonl, the report and the caller's `onEvent`.
 * report.json, the diff and the modernized notebook are written at the end (also after a stop
 * or an interruption).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Notebook } from '../core/notebook.js';
import { errorMessage } from '../core/errors.js';
import type { ModernizeReport } from '../core/modernize-report.js';
import { findBuiltEnvironment } from '../executor/environment/cache.js';
import { loadSymbolIndex } from '../executor/environment/symbol-index.js';
import type { SandboxRequest } from '../executor/types.js';
import { fixNotebook, type RuleFinding } from '../fixers/rules/index.js';
import { MeteredProvider, SpendTracker, type LlmProvider, type ToolBudgets } from '../fixers/llm/index.js';
import { pinEvidentDefaults } from '../fixers/rules/evident-pins.js';
import { eraFromRemovedApis, eraFromStoredOutputs, shellFromStoredOutputs, versionLessThan } from '../fixers/rules/era-evidence.js';
import type { EraHint } from '../fixers/rules/types.js';
import { judge } from './oracle/index.js';
import type { ExpectedTarget } from './verdict.js';
import { resolveBudgets, type Budgets } from './budgets.js';
import { editsWriter, trajectoryWriter } from './trajectory.js';
import { writeArtifacts } from './artifacts.js';
import { DEFAULT_VERIFY_LIMITS, type VerifyLimits } from './generate-verify.js';
import { readDataFacts } from './data-facts.js';
import type { DataFacts } from '../fixers/rules/context.js';
import { hasStructuralEdits, layoutCells, reorderCells } from './execution-order.js';
import { deletedReason } from '../fixers/llm/index.js';
import { neverRunByAuthor, storedErrors, unfinishedByAuthor } from './stored-errors.js';
import type { AgentEvent } from './events.js';
import { KernelEnvironment } from './kernel-environment.js';
import { modernizationLoop, type LoopOutcome } from './loop.js';
import { ReportBuilder } from './report-builder.js';
import { ruleFixer } from './rule-fixer.js';
import { llmFixer } from './llm-fixer.js';
import { Workbench } from './workbench.js';

export type { AgentEvent } from './events.js';

export interface ModernizeOptions {
  sandbox: SandboxRequest;
  outDir: string;
  notebookPath: string;
  /** null: rules only (the reason says why, e.g. no API key). The agent meters it against the spend cap. */
  llm?: {
    provider: LlmProvider | null; reason: string; model?: string; providerName?: string;
    /** --llm-max-tokens */ maxTokens?: number;
    /** --llm-mode (default reply) and, for tools, the conversation's budgets. */ mode?: 'reply' | 'tools'; toolBudgets?: Partial<ToolBudgets>;
  };
  budgets?: Partial<Budgets>;
  timeoutS?: number;
  cellTimeoutS?: number;
  expected?: ExpectedTarget;
  tolerance?: number;
  /** Re-run from the patched cell when safe (default true); false = full re-run after every patch. */
  incremental?: boolean;
  /** Forbidden for patches to read (ground truth, test labels). */
  forbiddenPaths?: string[];
  /** When the notebook was written / which versions its author used (merged with what its outputs show). */
  era?: EraHint;
  /** Generate-and-verify limits per problem (candidates, cell executions). */
  verify?: Partial<VerifyLimits>;
  signal?: AbortSignal;
  onEvent?: (e: AgentEvent) => void;
}

export async function modernizeNotebook(original: Notebook, opts: ModernizeOptions): Promise<ModernizeReport> {
  const startedAt = new Date();
  const budgets = resolveBudgets(opts.budgets);
  const incremental = opts.incremental ?? true;
  const timeoutS = opts.timeoutS ?? 600;
  fs.mkdirSync(opts.outDir, { recursive: true });
  const trajectory = trajectoryWriter(path.join(opts.outDir, 'trajectory.jsonl'));
  const edits = editsWriter(path.join(opts.outDir, 'edits.jsonl'));
  const report = new ReportBuilder();
  const subscribers = [trajectory.on, edits.on, report.on, opts.onEvent ?? (() => {})];
  const publish = (e: AgentEvent) => { for (const s of subscribers) s(e); };
  const dataFiles = opts.sandbox.data ? fs.readdirSync(opts.sandbox.data.dir) : [];
  // The spend cap is checked before every call (a call that could exceed it is never sent).
  const spend = new SpendTracker({ capUsd: budgets.spendCapUsd });
  const provider = opts.llm?.provider ? new MeteredProvider(abortedBy(opts.llm.provider, opts.signal), spend) : null;
  const llmReason = opts.llm?.reason ?? 'no LLM configured';
  // The era as the stored outputs show it (estimator reprs, library warnings), for the pins.
  const era: EraHint & { bounds: NonNullable<EraHint['bounds']> } = { ...(opts.era ?? {}), bounds: { ...eraFromStoredOutputs(original), ...(opts.era?.bounds ?? {}) }, shell: opts.era?.shell ?? shellFromStoredOutputs(original) };
  let env: KernelEnvironment | undefined;
  let opened: { kind: string; environment: ModernizeReport['environment'] } | undefined;
  let outcome: LoopOutcome | undefined;
  try {
    const bench = new Workbench(structuredClone(original), publish);
    const { findings, facts } = await staticPass(bench, era, dataFiles, opts, publish);
    env = await KernelEnvironment.open({
      request: opts.sandbox, notebookPath: opts.notebookPath, outDir: opts.outDir, timeoutS, cellTimeoutS: opts.cellTimeoutS ?? timeoutS,
      // Errors the author's own run raised (stored error outputs): the same again is part of the record.
      expectedErrors: storedErrors(original), ...(opts.signal ? { signal: opts.signal } : {}),
    }, (sb) => (opened = { kind: sb.kind, environment: sb.environment }));
    const project = env.project;
    if (project) publish({ type: 'project', dir: project.request.dir, files: project.selection.files.length, bytes: project.selection.files.reduce((a, f) => a + f.bytes, 0), skipped: project.selection.skipped.slice(0, 50) });
    // The environment's public names, for moved and missing imports (built once per environment).
    const built = opts.sandbox.cacheDir ? findBuiltEnvironment(opts.sandbox.environment, opts.sandbox.cacheDir) : undefined;
    const symbols = built ? await loadSymbolIndex(built) : undefined;
    const forbiddenPaths = opts.forbiddenPaths ?? [];
    const stream = modernizationLoop({
      original, work: bench.work, environment: env, budgets, startedAt: startedAt.getTime(), incremental, forbiddenPaths,
      fixers: [
        ruleFixer({ original, dataFiles, era, ...(facts ? { dataFacts: facts } : {}), ...(symbols ? { symbols } : {}), ...(opts.sandbox.data?.competition ? { competition: opts.sandbox.data.competition } : {}) }),
        ...(provider ? [llmFixer({ provider, original, forbiddenPaths, findings: findings.filter((f) => !f.autoFixable), timeBudgetS: timeoutS, ...(opts.sandbox.data ? { dataDir: opts.sandbox.data.dir } : {}), ...(opts.llm?.maxTokens ? { maxTokens: opts.llm.maxTokens } : {}), ...(opts.llm?.mode ? { mode: opts.llm.mode } : {}), ...(opts.llm?.toolBudgets ? { toolBudgets: opts.llm.toolBudgets } : {}) })] : []),
      ],
      spentUsd: () => spend.summary.costUsd,
      verifyLimits: { ...DEFAULT_VERIFY_LIMITS, ...(opts.verify ?? {}) },
      judge: (executed, submission) => judge({ original, current: executed, ...(opts.expected ? { expectedScore: opts.expected } : {}), ...(submission ? { submission } : {}), tolerance: opts.tolerance }),
      ...(opts.expected ? { expected: opts.expected } : {}),
      ...(opts.tolerance !== undefined ? { tolerance: opts.tolerance } : {}),
      stuck: {
        findings, dataFiles, hasData: Boolean(opts.sandbox.data), llm: { enabled: Boolean(provider), reason: llmReason },
        ...(project ? { project: { files: project.selection.files.map((f) => f.rel), dir: project.request.dir } } : {}),
      },
      neverRun: neverRunByAuthor(original),
      unfinished: unfinishedByAuthor(original),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    for (let next = await stream.next(); ; next = await stream.next()) {
      if (next.done) {
        outcome = next.value;
        break;
      }
      publish(next.value);
    }
    if (outcome.final) env.copyOutputs(path.join(opts.outDir, 'files'));
  } catch (err) {
    publish(opts.signal?.aborted ? { type: 'stop', reason: 'interrupted', detail: 'interrupted by the user' } : { type: 'stop', reason: 'sandbox-error', detail: errorMessage(err) });
  } finally {
    await env?.close();
    trajectory.close();
    edits.close();
  }

  const final = report.build({
    notebookPath: opts.notebookPath, startedAt, expected: Boolean(opts.expected), incremental,
    ...(outcome?.final ? { finalRun: outcome.final.run } : {}),
    cellExecutions: env?.cellExecutions ?? 0,
    llm: { provider: opts.llm?.providerName ?? null, model: opts.llm?.model ?? null, note: provider ? 'LLM enabled' : `rules only: ${llmReason}` },
    environment: opened?.environment ?? null,
    sandbox: opened?.kind ?? null,
  });
  const work = outcome?.work ?? original;
  const executed = outcome?.final?.executed;
  const artifacts = { report: final, original, outDir: opts.outDir, notebookPath: opts.notebookPath };
  // Cells a patch inserted or deleted: the written notebook gets its real layout (the loop kept the numbers stable).
  if (hasStructuralEdits(work, original.cells.length)) {
    const laid = layoutCells(work, outcome?.runOrder);
    const removed = work.cells.flatMap((_, i) => (deletedReason(work, i) !== undefined ? [i] : []));
    const changedBy = new Map([...report.changedBy].flatMap(([cell, info]) => (laid.newIndex.has(cell) ? [[laid.newIndex.get(cell)!, info] as const] : [])));
    return writeArtifacts({ ...artifacts, modernized: laid.notebook, executed: executed ? layoutCells(executed, outcome?.runOrder).notebook : undefined, changedBy, origin: laid.origin, removed });
  }
  // An execution-order repair is written as the order itself: the cells are moved, so the notebook runs top to bottom.
  if (outcome?.runOrder) {
    const moved = reorderCells(work, outcome.runOrder);
    const remapped = new Map([...report.changedBy].map(([cell, info]) => [moved.newIndex.get(cell) ?? cell, info]));
    for (const [oldIdx, newIdx] of moved.newIndex) if (oldIdx !== newIdx && !remapped.has(newIdx)) remapped.set(newIdx, { fixType: 'error-repair', sources: ['execution-order'] });
    return writeArtifacts({ ...artifacts, modernized: moved.notebook, executed: executed ? reorderCells(executed, outcome.runOrder).notebook : undefined, changedBy: remapped });
  }
  return writeArtifacts({ ...artifacts, modernized: work, executed, changedBy: report.changedBy });
}

/**
 * The provider with the run's signal bound to every call: Ctrl-C (or the caller's abort) cancels
 * the HTTP request in flight and any backoff, instead of waiting out timeouts and retries.
 */
function abortedBy(inner: LlmProvider, signal: AbortSignal | undefined): LlmProvider {
  if (!signal) return inner;
  // Keeps what the provider can do (tool calls), so the tool-using mode is not lost to the wrapper.
  return { provider: inner.provider, model: inner.model, ...(inner.tools ? { tools: true } : {}), complete: (req) => inner.complete(req, { signal }) };
}

/** Every safe rule, all at once, before the first run (free, deterministic); returns the findings of the original. */
async function staticPass(bench: Workbench, era: EraHint & { bounds: NonNullable<EraHint['bounds']> }, dataFiles: string[], opts: ModernizeOptions, publish: (e: AgentEvent) => void): Promise<{ findings: RuleFinding[]; facts?: DataFacts }> {
  const fixed = await fixNotebook(bench.work, { dataFiles, era });
  // The removed APIs the notebook used are era evidence too (it ran before they were removed); the
  // rewritten notebook no longer shows them, so the bounds are kept for the pins that follow.
  for (const [lib, b] of Object.entries(eraFromRemovedApis(fixed.originalFindings))) {
    const cur = era.bounds[lib as keyof typeof era.bounds];
    if (!cur || versionLessThan(b.version, cur.version)) era.bounds[lib as keyof typeof era.bounds] = b;
  }
  for (const patch of fixed.patches) bench.apply(patch, 0, 'static scan');
  // Old defaults whose effect the data itself shows (e.g. 'None' fields read as NaN since pandas 2.0).
  const data = opts.sandbox.data;
  const facts = data ? readDataFacts(data.dir, { exclude: data.exclude ?? [] }) : undefined;
  if (facts) publish({ type: 'data-facts', facts });
  for (const patch of (await pinEvidentDefaults(bench.work, { dataFiles, ...(facts ? { dataFacts: facts } : {}), era })).patches) bench.apply(patch, 0, "static pin: the data or the author's shell, as the evidence shows them");
  publish({
    type: 'static-pass', changedCells: fixed.patches.map((p) => p.edits[0].cell), findingsBefore: fixed.originalFindings.length,
    findings: fixed.findings.map((f) => ({ cell: f.cell, rule: f.ruleId, message: f.message, autoFixable: f.autoFixable })),
  });
  return { findings: fixed.originalFindings, ...(facts ? { facts } : {}) };
}

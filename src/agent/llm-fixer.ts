/**
 * The LLM fixer: the problem's context (cells, error, data, versions, earlier attempts) to the
 * model, one patch back (proposePatch validates and reflects). Its usage goes out as an `llm`
 * event; a failed call stops the loop with its reason (the spend cap refuses a call before it
 * is sent: `spend-cap`).
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import { buildContext, previewDataDir } from '../fixers/context/index.js';
import type { RuleFinding } from '../fixers/rules/index.js';
import { proposePatch, proposeWithTools, type LlmProvider, type ProposeResult, type ToolBudgets, type ToolStep } from '../fixers/llm/index.js';
import type { Fixer, Problem, Proposal } from './fixers.js';
import { toolHandlers } from './llm-tools.js';

/** Characters of the prompt context kept in the trajectory's `llm` event. */
const MAX_PROMPT_RECORDED = 20_000;

export interface LlmFixerDeps {
  provider: LlmProvider;
  original: Notebook;
  /** The mounted data (previewed for the model) and what it must never read. */
  dataDir?: string;
  forbiddenPaths: string[];
  /** Static findings no rule could fix: hints for the model. */
  findings: RuleFinding[];
  timeBudgetS: number;
  /** --llm-max-tokens (default DEFAULT_MAX_TOKENS). */
  maxTokens?: number;
  /**
   * --llm-mode: `reply` (default) one reply in the reply contract; `tools` a conversation with
   * tools (view, search, inspect, try_patch, submit, give_up) when the provider speaks tool calls,
   * falling back to `reply` when it does not or its server refuses tools.
   */
  mode?: 'reply' | 'tools';
  toolBudgets?: Partial<ToolBudgets>;
}

const RETHINK = 'Earlier patches did not change the outcome. Rethink the root cause and rewrite the whole cell if needed.';

export function llmFixer(d: LlmFixerDeps): Fixer {
  let toolsRefused = false; // the server refused tools once: reply mode for the rest of the notebook
  return {
    name: 'llm',
    async propose(p: Problem): Promise<Proposal | undefined> {
      const { diagnosis, state } = p;
      const env = p.environment.description;
      const context = await buildContext({
        notebook: p.notebook,
        targetCell: diagnosis.cell,
        fixType: diagnosis.fixType,
        cells: state.cells,
        ...(diagnosis.error ? { error: diagnosis.error } : {}),
        versions: env.versions,
        python: env.python,
        dataFiles: d.dataDir ? previewDataDir(d.dataDir, { exclude: d.forbiddenPaths }) : [],
        dataDirLabel: '../input/ (also /kaggle/input/<competition>/)',
        attempts: [...p.attempts],
        findings: d.findings,
        timeBudgetS: d.timeBudgetS,
        ...(diagnosis.drift ? {
          target: {
            original: diagnosis.drift.original ?? undefined,
            current: diagnosis.drift.current ?? undefined,
            note: diagnosis.drift.oracle === 'expected-score' ? 'submission scored against the ground truth' : `stored outputs of cell ${diagnosis.cell}${diagnosis.drift.context ? `: "${diagnosis.drift.context.trim().slice(0, 120)}"` : ''}`,
          },
          targetOutputs: { original: outputText(d.original, diagnosis.cell), current: outputText(state.notebook, diagnosis.cell) },
        } : {}),
      });
      const common = {
        provider: d.provider,
        notebook: p.notebook,
        fixType: diagnosis.fixType,
        targetCell: diagnosis.cell,
        context: context.text,
        allowedCells: [diagnosis.cell, ...(context.cellsShown ?? [])],
        forbiddenPaths: d.forbiddenPaths,
        ...(p.runOrder ? { order: p.runOrder } : {}),
        ...(d.maxTokens ? { maxTokens: d.maxTokens } : {}),
        ...(p.escalate ? { note: RETHINK } : {}),
      };
      let res: ProposeResult & { steps?: ToolStep[] } | undefined;
      let mode: 'reply' | 'tools' = 'reply';
      if (d.mode === 'tools' && d.provider.tools && !toolsRefused) {
        const dataFiles = () => (d.dataDir ? previewDataDir(d.dataDir, { exclude: d.forbiddenPaths }) : []);
        const tried = await proposeWithTools({ ...common, handlers: toolHandlers(p, { dataFiles, ...(p.trial ? { trial: p.trial } : {}) }), ...(d.toolBudgets ? { budgets: d.toolBudgets } : {}) });
        // A server without tools refused the first call: the reply contract instead (said in the trajectory).
        if (tried.fallback) toolsRefused = true;
        if (tried.fallback) p.emit({ type: 'rejected', source: 'llm', reason: `tool mode refused by the server (${tried.failure?.message ?? ''}); falling back to the single-reply contract` });
        else { res = tried; mode = 'tools'; }
      }
      res ??= await proposePatch(common);
      p.emit({
        type: 'llm', step: p.step, fixType: diagnosis.fixType, cell: diagnosis.cell, mode, promptTokens: res.promptTokens, costUsd: res.costUsd,
        // What the model was shown, so a reviewer can read why a change was made (bounded: it lands in every trajectory).
        prompt: context.text.slice(0, MAX_PROMPT_RECORDED),
        calls: res.calls.map((c) => ({ outcome: c.outcome, feedback: c.feedback, usage: c.usage, costUsd: c.costUsd, reply: c.reply })),
        ...(res.failure ? { failure: res.failure } : {}),
        ...(res.viewed ? { viewed: res.viewed } : {}),
        ...(res.steps ? { tools: res.steps } : {}),
        context: { tokens: context.tokens, budgetTokens: context.budgetTokens, cellsShown: context.cellsShown, included: context.sections.filter((s) => s.included).map((s) => s.id), dropped: context.dropped },
      });
      if (res.failure) {
        for (const c of res.calls) if (c.outcome === 'malformed' || c.outcome === 'invalid') p.emit({ type: 'rejected', source: 'llm', reason: c.feedback ?? c.outcome });
        // The model's own "cannot be fixed faithfully because ...": its reason is the stop's detail.
        if (res.failure.kind === 'declined') return { kind: 'stop', reason: 'model-declined', detail: `the model declined cell ${diagnosis.cell}: ${res.failure.message}` };
        if (res.failure.kind === 'budget') return { kind: 'stop', reason: 'no-fix-available', detail: `the model gave no patch within the tool budget: ${res.failure.message}` };
        if (res.failure.kind === 'llm-error') return { kind: 'stop', reason: res.failure.llmKind === 'budget' ? 'spend-cap' : 'llm-error', detail: res.failure.message };
        return { kind: 'stop', reason: 'no-fix-available', detail: `the model gave no valid patch after reflections: ${res.failure.message}` };
      }
      return res.patch ? { kind: 'patch', patch: res.patch } : undefined;
    },
  };
}

/** Printed text (stdout and text/plain results) of one cell, for score-calibration prompts. */
function outputText(nb: Notebook, cell: number): string {
  const c = nb.cells[cell];
  if (!c || c.cell_type !== 'code') return '';
  return c.outputs
    .map((o: any) => (o.output_type === 'stream' && o.name === 'stdout' ? sourceText(o.text) : o.output_type === 'execute_result' ? sourceText(o.data?.['text/plain']) : ''))
    .join('')
    .slice(0, 2000);
}

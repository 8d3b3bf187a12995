/**
 * The tool-using mode (SWE-agent's agent-computer interface, for notebooks): instead of one reply
 * in the reply contract, the model looks before it answers. It may view cells, search the
 * notebook, inspect live values in the kernel, list the data, try a patch (run in the live kernel,
 * NOT kept) and finally submit edits or give up. Budgets: model calls, tool steps and money.
 *
 * This module holds the conversation and the checks (every submitted or tried patch goes through
 * validatePatch); what the tools DO is the caller's (the agent hands in handlers over its kernel
 * and workbench), so this layer never touches a kernel. A server that refuses tools on the first
 * call (400) makes the result `fallback: true`: the caller then uses the single-reply contract.
 */
import type { CellEdit, FixType, Patch } from '../../core/patch.js';
import type { Notebook } from '../../core/notebook.js';
import { LlmError } from './errors.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, systemPrompt } from './prompts.js';
import { validatePatch, validationReflection } from './patch-validator.js';
import { parseReply, replyAction } from './reply-parser.js';
import type { ProposeCall, ProposeResult } from './llm-fixer.js';
import type { LlmMessage, LlmProvider, LlmRequest, LlmTool, LlmToolCall } from './types.js';

export interface ToolHandlers {
  viewCell(n: number): string;
  searchNotebook(text: string): string;
  /** Read-only in the live kernel; absent when there is no kernel. */
  inspect?(name: string): Promise<string>;
  listData(): string;
  /** Run the (validated) patch in the live kernel without keeping it: the outcome and the oracle's view. */
  tryPatch(patch: Patch): Promise<string>;
}

export interface ToolBudgets {
  /** Model calls in one conversation (default 12). */
  maxCalls: number;
  /** Tool calls answered in one conversation (default 24). */
  maxToolSteps: number;
  /** Money for one conversation (the notebook's spend cap is enforced by the metered provider as well). */
  maxCostUsd?: number;
}

export const DEFAULT_TOOL_BUDGETS: ToolBudgets = { maxCalls: 12, maxToolSteps: 24 };

export interface ToolStep {
  tool: string;
  input: Record<string, unknown>;
  /** What the tool answered (cut for the record). */
  output: string;
  ok: boolean;
}

export interface ToolProposeInput {
  provider: LlmProvider;
  notebook: Notebook;
  fixType: FixType;
  targetCell: number;
  context: string;
  handlers: ToolHandlers;
  allowedCells?: number[];
  forbiddenPaths?: string[];
  order?: number[];
  budgets?: Partial<ToolBudgets>;
  maxTokens?: number;
  cacheKey?: string;
  note?: string;
}

export type ToolProposeResult = ProposeResult & { steps: ToolStep[]; fallback?: boolean };

const EDIT_ITEM = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: ['replace', 'search_replace', 'insert', 'move', 'delete'] },
    cell: { type: 'integer', description: 'the cell to change; for insert the cell the new one goes before/after' },
    source: { type: 'string', description: 'replace: the complete new source; insert: the new cell' },
    search: { type: 'string', description: 'search_replace: exact current lines, matching once' },
    replace: { type: 'string', description: 'search_replace: the new lines' },
    position: { type: 'string', enum: ['before', 'after'], description: 'insert' },
    before: { type: 'integer', description: 'move: the cell that cell now runs before' },
    reason: { type: 'string', description: 'delete: why the cell must go' },
  },
  required: ['op', 'cell'],
};
const EDITS = { type: 'array', items: EDIT_ITEM, minItems: 1 };

export const NOTEBOOK_TOOLS: LlmTool[] = [
  { name: 'view_cell', description: 'The source of cell n, with its status and outputs in the last run.', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
  { name: 'search_notebook', description: 'Lines of the notebook containing the text (case-insensitive), with their cell numbers.', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'inspect', description: 'A live value in the kernel after the last run: type, shape, dtype(s), head. Read-only; a variable name, optionally with attributes (df.columns).', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  { name: 'list_data', description: 'The data files the notebook can read, with their first lines.', parameters: { type: 'object', properties: {} } },
  { name: 'try_patch', description: 'Run edits in the live kernel (re-executing from the first changed cell) and see the outcome and the comparison with the stored outputs. Nothing is kept: submit what works.', parameters: { type: 'object', properties: { edits: EDITS, plan: { type: 'string' } }, required: ['edits'] } },
  { name: 'submit', description: 'The final edits. They are validated; if rejected you are told why and may submit again.', parameters: { type: 'object', properties: { edits: EDITS, plan: { type: 'string', description: 'one line: the root cause and the change' } }, required: ['edits', 'plan'] } },
  { name: 'give_up', description: 'The problem cannot be fixed faithfully (a missing input or library, a fix that would change the results). Work on it stops; the reason goes into the report.', parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } },
];

/** The tool's edits as CellEdits, or why they cannot be. */
export function editsFromTool(raw: unknown): CellEdit[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return 'edits must be a non-empty array of edit objects';
  const out: CellEdit[] = [];
  for (const [k, e] of raw.entries()) {
    const where = `edit ${k + 1}`;
    if (!e || typeof e !== 'object') return `${where} is not an object`;
    const { op, cell } = e as Record<string, unknown>;
    const str = (f: string): string | undefined => (typeof (e as any)[f] === 'string' ? (e as any)[f] : undefined);
    if (typeof cell !== 'number' || !Number.isInteger(cell)) return `${where}: "cell" must be an integer`;
    if (op === 'replace' && str('source') !== undefined) out.push({ cell, op: 'replace', newSource: str('source')! });
    else if (op === 'search_replace' && str('search') && str('replace') !== undefined) out.push({ cell, op: 'search-replace', search: str('search')!, replace: str('replace')! });
    else if (op === 'insert' && str('source') !== undefined && (str('position') === 'before' || str('position') === 'after')) out.push({ cell, op: 'insert', position: str('position') as 'before' | 'after', newSource: str('source')! });
    else if (op === 'move' && typeof (e as any).before === 'number') out.push({ cell, op: 'move', before: (e as any).before });
    else if (op === 'delete') out.push({ cell, op: 'delete', reason: str('reason') ?? '' });
    else return `${where}: op ${JSON.stringify(op)} needs ${op === 'replace' ? 'source' : op === 'search_replace' ? 'search and replace' : op === 'insert' ? 'source and position (before|after)' : op === 'move' ? 'before' : 'one of replace, search_replace, insert, move, delete'}`;
  }
  return out;
}

const cut = (s: string, n = 4000): string => (s.length > n ? `${s.slice(0, n)}\n... (${s.length - n} more characters)` : s);

export async function proposeWithTools(input: ToolProposeInput): Promise<ToolProposeResult> {
  const budgets = { ...DEFAULT_TOOL_BUDGETS, ...(input.budgets ?? {}) };
  const tools = input.handlers.inspect ? NOTEBOOK_TOOLS : NOTEBOOK_TOOLS.filter((t) => t.name !== 'inspect');
  const ask = `# Request\nFix the problem in cell ${input.targetCell} (the target cell).${input.note ? `\n${input.note}` : ''}\nLook with the tools as much as you need, try_patch to check a fix, then submit(edits, plan) or give_up(reason).`;
  let req: LlmRequest = {
    system: systemPrompt(input.fixType, 'tools'),
    messages: [{ role: 'user', content: `# Notebook context\n\n${input.context.trim()}\n\n${ask}` }],
    maxTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: DEFAULT_TEMPERATURE,
    tools,
    ...(input.cacheKey ? { cacheKey: input.cacheKey } : {}),
  };
  const promptTokens = Math.ceil((req.system.length + req.messages[0]!.content.length + JSON.stringify(tools).length) / 4);
  const calls: ProposeCall[] = [];
  const steps: ToolStep[] = [];
  const allowed = input.allowedCells ? [...input.allowedCells] : undefined;
  const cost = (): number => calls.reduce((s, c) => s + c.costUsd, 0);
  const done = (r: Omit<ToolProposeResult, 'calls' | 'promptTokens' | 'costUsd' | 'steps'>): ToolProposeResult => ({ ...r, calls, promptTokens, costUsd: cost(), steps });
  const source = (model: string) => ({ kind: 'llm' as const, model, provider: input.provider.provider });
  const validate = (patch: Patch) => validatePatch(patch, input.notebook, {
    ...(allowed ? { allowedCells: allowed } : {}), ...(input.forbiddenPaths ? { forbiddenPaths: input.forbiddenPaths } : {}), ...(input.order ? { order: input.order } : {}),
  });
  const patchOf = (edits: CellEdit[], plan: string, model: string): Patch => ({ fixType: input.fixType, source: source(model), edits, summary: plan.trim().split('\n')[0]!.slice(0, 200) || `LLM ${input.fixType} of cell ${input.targetCell}` });

  while (calls.length < budgets.maxCalls) {
    if (budgets.maxCostUsd !== undefined && cost() >= budgets.maxCostUsd) {
      return done({ failure: { kind: 'budget', message: `tool conversation spend budget reached ($${cost().toFixed(4)} of $${budgets.maxCostUsd})` } });
    }
    let res;
    try {
      res = await input.provider.complete(req);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      // A server that does not know tools says so on the first call: the single-reply contract instead.
      if (calls.length === 0 && err.llmKind === 'bad-request') return { ...done({ failure: { kind: 'llm-error', message: err.message, llmKind: err.llmKind } }), fallback: true };
      return done({ failure: { kind: 'llm-error', message: err.message, llmKind: err.llmKind } });
    }
    const base = { reply: res.text, usage: res.usage, costUsd: res.costUsd, latencyMs: res.latencyMs, model: res.model };
    const toolCalls = res.toolCalls ?? [];
    if (!toolCalls.length) {
      // No tool call: a give-up line, or an answer in the reply contract, is taken as such.
      const action = replyAction(res.text);
      if (action?.kind === 'give-up') {
        calls.push({ ...base, outcome: 'declined', feedback: action.reason });
        return done({ failure: { kind: 'declined', message: action.reason } });
      }
      const parsed = parseReply(res.text, { targetCell: input.targetCell, fixType: input.fixType, source: source(res.model) });
      if (parsed.ok) {
        const v = await validate(parsed.patch);
        if (v.ok) {
          calls.push({ ...base, outcome: 'ok' });
          return done({ patch: parsed.patch, format: parsed.format, plan: parsed.plan, newSources: v.newSources });
        }
        calls.push({ ...base, outcome: 'invalid', feedback: validationReflection(v), problems: v.problems });
        req = next(req, { role: 'assistant', content: res.text }, [{ role: 'user', content: `${validationReflection(v)}\nUse the tools: try_patch, then submit(edits, plan).` }]);
        continue;
      }
      calls.push({ ...base, outcome: 'malformed', feedback: 'no tool call' });
      req = next(req, { role: 'assistant', content: res.text }, [{ role: 'user', content: 'Call a tool: look (view_cell, search_notebook, inspect, list_data), try_patch, then submit(edits, plan), or give_up(reason).' }]);
      continue;
    }
    calls.push({ ...base, outcome: 'request', feedback: toolCalls.map((c) => c.name).join(', ') });
    const results: LlmMessage[] = [];
    for (const call of toolCalls) {
      if (steps.length >= budgets.maxToolSteps) {
        return done({ failure: { kind: 'budget', message: `tool step budget reached (${budgets.maxToolSteps} tool calls) before a submit` } });
      }
      const answer = await runTool(call, res.model);
      if (answer.final) {
        calls[calls.length - 1]!.outcome = answer.final.patch ? 'ok' : 'declined';
        return done(answer.final);
      }
      steps.push({ tool: call.name, input: call.input, output: cut(answer.text, 1500), ok: answer.ok });
      results.push({ role: 'tool', toolCallId: call.id, content: answer.text });
    }
    req = next(req, { role: 'assistant', content: res.text, toolCalls }, results);
  }
  return done({ failure: { kind: 'budget', message: `model call budget reached (${budgets.maxCalls} calls) before a submit` } });

  async function runTool(call: LlmToolCall, model: string): Promise<{ text: string; ok: boolean; final?: Omit<ToolProposeResult, 'calls' | 'promptTokens' | 'costUsd' | 'steps'> }> {
    const h = input.handlers;
    const a = call.input;
    if (call.badInput !== undefined) return { text: `the arguments are not a JSON object: ${cut(call.badInput, 200)}`, ok: false };
    switch (call.name) {
      case 'view_cell': {
        const n = Number(a.n);
        if (!Number.isInteger(n)) return { text: 'n must be a cell number', ok: false };
        if (allowed && !allowed.includes(n) && input.notebook.cells[n]?.cell_type === 'code') allowed.push(n); // seen: may be changed
        return { text: h.viewCell(n), ok: true };
      }
      case 'search_notebook':
        return typeof a.text === 'string' && a.text.trim() ? { text: h.searchNotebook(a.text), ok: true } : { text: 'text must be a non-empty string', ok: false };
      case 'inspect':
        if (!h.inspect) return { text: 'inspect is not available (no live kernel)', ok: false };
        return typeof a.name === 'string' ? { text: await h.inspect(a.name), ok: true } : { text: 'name must be a string', ok: false };
      case 'list_data':
        return { text: h.listData(), ok: true };
      case 'try_patch':
      case 'submit': {
        const edits = editsFromTool(a.edits);
        if (typeof edits === 'string') return { text: `rejected: ${edits}`, ok: false };
        const patch = patchOf(edits, typeof a.plan === 'string' ? a.plan : '', model);
        const v = await validate(patch);
        if (!v.ok) return { text: `rejected before running:\n${v.reasons.map((r) => `- ${r}`).join('\n')}`, ok: false };
        if (call.name === 'submit') return { text: 'submitted', ok: true, final: { patch, format: 'tool-edits', plan: patch.summary, newSources: v.newSources } };
        return { text: await h.tryPatch(patch), ok: true };
      }
      case 'give_up': {
        const reason = typeof a.reason === 'string' && a.reason.trim() ? a.reason.trim() : 'no reason given';
        return { text: '', ok: true, final: { failure: { kind: 'declined', message: reason } } };
      }
      default:
        return { text: `unknown tool ${JSON.stringify(call.name)}; the tools are ${tools.map((t) => t.name).join(', ')}`, ok: false };
    }
  }
}

function next(req: LlmRequest, assistant: LlmMessage, after: LlmMessage[]): LlmRequest {
  return { ...req, messages: [...req.messages, assistant, ...after] };
}

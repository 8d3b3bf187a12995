/**
 * One LLM fix, end to end short of running it: build the request for a fix type from the curated
 * context, ask the model, parse the reply into a Patch, validate it, and when the reply is
 * malformed or the patch invalid, send the reason back (at most `maxReflections` times).
 * Provider errors (budget, auth, exhausted retries) end the attempt with a typed failure instead
 * of an exception, so the agent loop can record its stop reason.
 */
import type { FixType, Patch } from '../../core/patch.js';
import type { Notebook } from '../../core/notebook.js';
import { LlmError, type LlmErrorKind } from './errors.js';
import { buildRequest, MAX_REFLECTIONS, withReflection } from './prompts.js';
import { parseReply, type ReplyFormat } from './reply-parser.js';
import { validatePatch, validationReflection, type Problem } from './patch-validator.js';
import type { LlmProvider, LlmUsage } from './types.js';

export interface ProposeInput {
  provider: LlmProvider;
  notebook: Notebook;
  fixType: FixType;
  targetCell: number;
  /** BuiltContext.text from the context builder. */
  context: string;
  /** Cells the patch may change (default: any code cell; pass [target, ...context.cellsShown] to confine it). */
  allowedCells?: number[];
  forbiddenPaths?: string[];
  maxReflections?: number;
  maxTokens?: number;
  temperature?: number;
  cacheKey?: string;
  note?: string;
}

export interface ProposeCall {
  reply: string;
  outcome: 'ok' | 'malformed' | 'invalid';
  /** The parse error or validation reasons fed back to the model. */
  feedback?: string;
  problems?: Problem[];
  usage: LlmUsage;
  costUsd: number;
  latencyMs: number;
  model: string;
}

export interface ProposeResult {
  patch?: Patch;
  format?: ReplyFormat;
  plan?: string;
  /** New source of each changed cell (edits applied). */
  newSources?: Map<number, string>;
  calls: ProposeCall[];
  /** Estimated tokens of the first prompt (system + context), for the report. */
  promptTokens: number;
  costUsd: number;
  failure?: { kind: 'malformed' | 'invalid' | 'llm-error'; message: string; llmKind?: LlmErrorKind };
}

export async function proposePatch(input: ProposeInput): Promise<ProposeResult> {
  const maxReflections = input.maxReflections ?? MAX_REFLECTIONS;
  let req = buildRequest({
    fixType: input.fixType,
    targetCell: input.targetCell,
    context: input.context,
    ...(input.note ? { note: input.note } : {}),
    ...(input.maxTokens ? { maxTokens: input.maxTokens } : {}),
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.cacheKey ? { cacheKey: input.cacheKey } : {}),
  });
  const promptTokens = Math.ceil((req.system.length + req.messages[0]!.content.length) / 4);
  const calls: ProposeCall[] = [];
  const cost = (): number => calls.reduce((s, c) => s + c.costUsd, 0);
  let last: ProposeResult['failure'];

  for (let round = 0; round <= maxReflections; round++) {
    let res;
    try {
      res = await input.provider.complete(req);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      return { calls, promptTokens, costUsd: cost(), failure: { kind: 'llm-error', message: err.message, llmKind: err.llmKind } };
    }
    const base = { reply: res.text, usage: res.usage, costUsd: res.costUsd, latencyMs: res.latencyMs, model: res.model };
    const parsed = parseReply(res.text, {
      targetCell: input.targetCell,
      fixType: input.fixType,
      source: { kind: 'llm', model: res.model, provider: res.provider },
      ...(res.truncated ? { truncated: true } : {}),
    });
    if (!parsed.ok) {
      calls.push({ ...base, outcome: 'malformed', feedback: parsed.reflection });
      last = { kind: 'malformed', message: parsed.error };
      req = withReflection(req, res.text, parsed.reflection);
      continue;
    }
    const v = await validatePatch(parsed.patch, input.notebook, {
      ...(input.allowedCells ? { allowedCells: input.allowedCells } : {}),
      ...(input.forbiddenPaths ? { forbiddenPaths: input.forbiddenPaths } : {}),
    });
    if (!v.ok) {
      const feedback = validationReflection(v);
      calls.push({ ...base, outcome: 'invalid', feedback, problems: v.problems });
      last = { kind: 'invalid', message: v.reasons.join('; ') };
      req = withReflection(req, res.text, feedback);
      continue;
    }
    calls.push({ ...base, outcome: 'ok' });
    return { patch: parsed.patch, format: parsed.format, plan: parsed.plan, newSources: v.newSources, calls, promptTokens, costUsd: cost() };
  }
  return {
    calls,
    promptTokens,
    costUsd: cost(),
    failure: { kind: last!.kind, message: `no usable patch after ${calls.length} replies (${maxReflections} reflections): ${last!.message}` },
  };
}

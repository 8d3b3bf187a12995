/**
 * One LLM fix, end to end short of running it: build the request for a fix type from the curated
 * context, ask the model, parse the reply into a Patch, validate it, and when the reply is
 * malformed or the patch invalid, send the reason back (at most `maxReflections` times).
 * Provider errors (budget, auth, exhausted retries) end the attempt with a typed failure instead
 * of an exception, so the agent loop can record its stop reason.
 *
 * The model may also act instead of answering: `GIVE_UP: reason` ends the attempt at once with a
 * `declined` failure (no reflection round is spent on it), and a request for cells is answered
 * with their sources (each cell once, at most MAX_VIEWS times; asking again is a decline). A cell
 * returned unchanged twice is a decline too: the model is saying the cell needs no change.
 */
import type { FixType, Patch } from '../../core/patch.js';
import type { Notebook } from '../../core/notebook.js';
import { LlmError, type LlmErrorKind } from './errors.js';
import { buildRequest, MAX_REFLECTIONS, withReflection } from './prompts.js';
import { parseReply, replyAction, type ReplyFormat } from './reply-parser.js';
import { sourceText } from '../../core/notebook.js';
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
  /** The loop's run order (undefined: file order), for validating moves and deletes. */
  order?: number[];
  maxReflections?: number;
  maxTokens?: number;
  temperature?: number;
  cacheKey?: string;
  note?: string;
}

/** Requests for cells answered per fix (a model that keeps asking is not getting anywhere). */
export const MAX_VIEWS = 2;

export interface ProposeCall {
  reply: string;
  /** `request`: the model asked for cells (answered); `declined`: it gave up (GIVE_UP or an unchanged cell twice). */
  outcome: 'ok' | 'malformed' | 'invalid' | 'request' | 'declined';
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
  /** How the patch came: a reply format, or `tool-edits` (submitted in the tool mode). */
  format?: ReplyFormat | 'tool-edits';
  plan?: string;
  /** New source of each changed cell (edits applied). */
  newSources?: Map<number, string>;
  calls: ProposeCall[];
  /** Estimated tokens of the first prompt (system + context), for the report. */
  promptTokens: number;
  costUsd: number;
  /** `budget`: the tool mode's calls, steps or spend ran out before a submit. */
  failure?: { kind: 'malformed' | 'invalid' | 'llm-error' | 'declined' | 'budget'; message: string; llmKind?: LlmErrorKind };
  /** Cells the model asked for and was shown. */
  viewed?: number[];
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

  const allowed = input.allowedCells ? [...input.allowedCells] : undefined;
  const viewed: number[] = [];
  let views = 0;
  let unchanged = 0;
  const done = (r: Omit<ProposeResult, 'calls' | 'promptTokens' | 'costUsd' | 'viewed'>): ProposeResult =>
    ({ ...r, calls, promptTokens, costUsd: cost(), ...(viewed.length ? { viewed } : {}) });

  for (let round = 0; round <= maxReflections;) {
    let res;
    try {
      res = await input.provider.complete(req);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      return done({ failure: { kind: 'llm-error', message: err.message, llmKind: err.llmKind } });
    }
    const base = { reply: res.text, usage: res.usage, costUsd: res.costUsd, latencyMs: res.latencyMs, model: res.model };
    const action = replyAction(res.text);
    if (action?.kind === 'give-up') {
      calls.push({ ...base, outcome: 'declined', feedback: action.reason });
      return done({ failure: { kind: 'declined', message: action.reason } });
    }
    if (action?.kind === 'view') {
      const fresh = action.cells.filter((c) => !viewed.includes(c));
      if (!fresh.length || views >= MAX_VIEWS) {
        const reason = `the model asked for cell${action.cells.length > 1 ? 's' : ''} ${action.cells.join(', ')} again instead of answering`;
        calls.push({ ...base, outcome: 'declined', feedback: reason });
        return done({ failure: { kind: 'declined', message: reason } });
      }
      views++;
      viewed.push(...fresh);
      // A cell the model has seen is one it may change (e.g. move a later definition up).
      if (allowed) for (const c of fresh) if (!allowed.includes(c)) allowed.push(c);
      const answer = cellsAnswer(input.notebook, fresh, input.targetCell);
      calls.push({ ...base, outcome: 'request', feedback: answer });
      req = withReflection(req, res.text, answer);
      continue;
    }
    round++;
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
      ...(allowed ? { allowedCells: allowed } : {}),
      ...(input.forbiddenPaths ? { forbiddenPaths: input.forbiddenPaths } : {}),
      ...(input.order ? { order: input.order } : {}),
    });
    if (!v.ok) {
      // The cell back unchanged: the model's way of saying this cell needs no change. Once it gets
      // the way to say so; twice is a decline, not another reflection.
      if (v.problems.every((p) => p.kind === 'no-change') && ++unchanged >= 2) {
        const reason = `the model returned cell ${[...v.newSources.keys()].join(', ')} unchanged twice: ${parsed.patch.summary}`;
        calls.push({ ...base, outcome: 'declined', feedback: reason });
        return done({ failure: { kind: 'declined', message: reason } });
      }
      const feedback = validationReflection(v);
      calls.push({ ...base, outcome: 'invalid', feedback, problems: v.problems });
      last = { kind: 'invalid', message: v.reasons.join('; ') };
      req = withReflection(req, res.text, feedback);
      continue;
    }
    calls.push({ ...base, outcome: 'ok' });
    return done({ patch: parsed.patch, format: parsed.format, plan: parsed.plan, newSources: v.newSources });
  }
  return done({ failure: { kind: last!.kind, message: `no usable patch after ${calls.length} replies (${maxReflections} reflections): ${last!.message}` } });
}

/** The answer to a request for cells: each cell's source, then the reminder to answer. */
function cellsAnswer(nb: Notebook, cells: number[], target: number): string {
  const parts = cells.map((c) => {
    const cell = nb.cells[c];
    if (!cell) return `Cell ${c} does not exist (the notebook has cells 0-${nb.cells.length - 1}).`;
    const src = sourceText(cell.source);
    return cell.cell_type === 'code' ? `## Cell ${c}\n\`\`\`python\n${src.replace(/\s+$/, '')}\n\`\`\`` : `## Cell ${c} (${cell.cell_type})\n${src.trim()}`;
  });
  return [...parts, `Now fix cell ${target} in the reply format, or reply GIVE_UP: <reason> if it cannot be fixed faithfully.`].join('\n\n');
}

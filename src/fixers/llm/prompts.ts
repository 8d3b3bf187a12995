/**
 * Prompts: one system prompt per fix type (stable text, so providers can cache it), each with its
 * constraints and the reply contract; the user message carries the curated context and names
 * the target cell. Reflections (a parse or validation error) are appended as a new user turn.
 */
import type { FixType } from '../../core/patch.js';
import type { LlmMessage, LlmRequest } from './types.js';

export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_TEMPERATURE = 0;
/** Agents cap malformed-edit retries at about 3. */
export const MAX_REFLECTIONS = 3;

export const REPLY_CONTRACT = `## Reply format (follow it exactly)
1. A short plan, at most 5 lines: the root cause and the change you make.
2. Exactly ONE fenced \`\`\`python block holding the COMPLETE new source of the target cell: the whole cell, including the lines you do not change; not a fragment, not a diff.

Only if another cell must change too: instead of step 2, write one "## === cell N" header per changed cell, each followed by exactly one \`\`\`python block with that cell's complete new source.

For a small edit you may instead give one or more search/replace blocks (the SEARCH text must match the current cell exactly, once):
cell N
<<<<<<< SEARCH
exact current lines
=======
new lines
>>>>>>> REPLACE

To change the notebook's structure, use these sections (alone or with "## === cell N" sections; moves and deletes also go with search/replace blocks):
## === insert before cell N      (or: insert after cell N) followed by exactly one \`\`\`python block: a NEW cell
## === move cell N before cell M   no code block: cell N then runs just before cell M (e.g. a helper defined later that an earlier cell needs)
## === delete cell N: <reason>   no code block; only for a cell whose computation no later cell uses and whose printed results do not matter

Cell numbers are the ones in the "Cell N" headers of the context. Put no other code block in the reply.

Instead of a fix you may reply with ONE of these lines alone:
VIEW_CELL: N        (or VIEW_CELL: 3, 95) to see cells you were not shown; they are sent to you once, then you answer.
GIVE_UP: <reason>   when the problem cannot be fixed faithfully (an input or library this environment does not have, a fix that would change the results); work on it stops and the reason goes into the report.`;

const COMMON = `You are the repair model of nbmodernize. You change the CODE of an old Kaggle competition notebook (written 2015-2019) so that it runs and reproduces its original results in ONE fixed, modern Python 3 environment.

Hard rules, for every change:
- The environment is fixed: never install, upgrade or downgrade packages (no pip, conda, apt), and there is no network (no downloads, URLs, APIs). Use what is installed; if a library is missing, rewrite the code with installed ones.
- Never read test labels or ground-truth files, never write predictions, scores or printed results as literals, never copy public submissions. Results must be computed by the notebook's own code from its own data.
- Keep the author's approach: the same data, features, model and outputs (keep the prints and the submission file). Keep names that later cells use defined.
- Python 3 syntax only. IPython magics (%matplotlib, %%time) may stay.
- Change as little as possible; do not reformat, rename or "improve" code you do not need to change.`;

const TASK: Record<FixType, string> = {
  'error-repair': `## Your task: error repair
The target cell raises the error shown. Make the SMALLEST change that fixes its ROOT CAUSE. Typical root causes: an API removed or renamed in a newer library version, a changed default or return type, Python 2 syntax or semantics (integer division, dict views, print), a data path from the author's machine (use the data files listed), a library that is not installed (rewrite with installed ones).
- Use the traceback, the library versions and the runtime state of the names involved.
- Do not hide the error: no try/except that swallows it, no deleting or skipping the computation, no dummy values.
- If the root cause is in an earlier cell shown to you, change that cell (use the "## === cell N" form).
- Do not change random seeds, hyperparameters or data handling unless the error requires it.`,

  'runtime-reduction': `## Your task: runtime reduction
The notebook runs over its time budget. Make the target cell faster WITHOUT changing what it computes.
- Keep the model, its hyperparameters, the features and ALL the data. NEVER subsample, truncate or shuffle away rows, never drop features, folds or iterations, never switch to a different model.
- Prefer equivalent faster code: vectorised pandas/numpy instead of Python loops, iterrows or row-wise apply; computing something once instead of in a loop; n_jobs=-1 where the estimator supports it; avoiding repeated file reads or copies.
- A hyperparameter search may be replaced by a direct fit with the parameters the original run selected only when the original output shows them; the final model must be the same.
- The results (printed numbers, the submission file) must stay the same.`,

  'score-calibration': `## Your task: score calibration
The notebook runs, but its result differs from the ORIGINAL run (see "Target vs current result"). Move the result back to the ORIGINAL value: not beyond it. A better score than the original is as wrong as a worse one.
- The usual cause is a library default that changed since the notebook was written (e.g. RandomForest n_estimators 10 -> 100, LogisticRegression solver liblinear -> lbfgs and multi_class, SVC gamma 'auto' -> 'scale', KMeans n_init, GradientBoosting/XGBoost defaults, pandas sorting or dtype inference, train_test_split or KFold shuffling). Restore the OLD behaviour by passing the old values explicitly.
- Do not tune for the score, do not add models or features, do not change the data split to get lucky.
- No leakage: never train on validation or test rows, never use test labels or ground truth.`,
};

/** The tool mode's contract (instead of the reply contract): look, try, then submit or give up. */
export const TOOL_CONTRACT = `## How to work (tools)
You have tools over the notebook and its live kernel, which holds the state after the last run (up to the failing cell).
- view_cell(n), search_notebook(text), list_data(): read the notebook and its data. inspect(name): a live value's type, shape, dtypes and head (read-only).
- try_patch(edits): runs your edits in the kernel from the first changed cell and tells you the outcome and whether the outputs match the original run. Nothing is kept.
- submit(edits, plan): your final answer. give_up(reason): when it cannot be fixed faithfully.
Edits: {"op": "replace", "cell": N, "source": complete new source} | {"op": "search_replace", "cell": N, "search": exact lines, "replace": new lines} | {"op": "insert", "cell": N, "position": "before"|"after", "source": new cell} | {"op": "move", "cell": N, "before": M} | {"op": "delete", "cell": N, "reason": why}.
Cell numbers are the ones in the "Cell N" headers. Be economical: every call costs; submit as soon as a try_patch shows the fix works.`;

export function systemPrompt(fixType: FixType, mode: 'reply' | 'tools' = 'reply'): string {
  return `${COMMON}\n\n${TASK[fixType]}\n\n${mode === 'tools' ? TOOL_CONTRACT : REPLY_CONTRACT}`;
}

export interface PromptInput {
  fixType: FixType;
  targetCell: number;
  /** The curated context (BuiltContext.text). */
  context: string;
  /** Optional extra instruction for this call (e.g. "the previous patch fixed the error but the score moved"). */
  note?: string;
  maxTokens?: number;
  temperature?: number;
  /** Provider cache grouping, e.g. the notebook path. */
  cacheKey?: string;
}

const ASK: Record<FixType, (n: number) => string> = {
  'error-repair': (n) => `Fix the error in cell ${n}.`,
  'runtime-reduction': (n) => `Make cell ${n} faster without changing its results.`,
  'score-calibration': (n) => `Bring the result of the notebook back to the original value by changing cell ${n} (or the cell that causes the drift).`,
};

export function userMessage(input: PromptInput): string {
  return [
    `# Notebook context\n\n${input.context.trim()}`,
    `# Request\n${ASK[input.fixType](input.targetCell)} The target cell is cell ${input.targetCell}.${input.note ? `\n${input.note}` : ''}\nReply in the reply format: a short plan, then one \`\`\`python block with the complete new source of cell ${input.targetCell}.`,
  ].join('\n\n');
}

export function buildRequest(input: PromptInput): LlmRequest {
  return {
    system: systemPrompt(input.fixType),
    messages: [{ role: 'user', content: userMessage(input) }],
    maxTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: input.temperature ?? DEFAULT_TEMPERATURE,
    ...(input.cacheKey ? { cacheKey: input.cacheKey } : {}),
  };
}

/** The next request after a rejected reply: the model sees its reply and why it was rejected. */
export function withReflection(req: LlmRequest, reply: string, reflection: string): LlmRequest {
  const messages: LlmMessage[] = [...req.messages, { role: 'assistant', content: reply }, { role: 'user', content: reflection }];
  return { ...req, messages };
}

/**
 * report.json of `nbmodernize modernize` (versioned; zod is the source of truth, the JSON Schema
 * in schemas/ is generated). Scripts rely on: verdict, stopReason, oracle, fixes[] {type, source,
 * cell}, cellExecutions, llm {calls, inputTokens, outputTokens, costUsd}.
 */
import { z } from 'zod';

export const MODERNIZE_REPORT_SCHEMA_VERSION = '1.0.0';

export const StopReason = z.enum([
  'reproduced', // final clean run reproduces
  'max-fixes',
  'spend-cap',
  'max-wall-time',
  'no-progress', // the same error after two different patches, also after escalation
  'no-fix-available', // nothing proposed a patch (e.g. rules only and no rule applies)
  'llm-error',
  'model-declined', // the model said the problem cannot be fixed faithfully (GIVE_UP: reason), or kept asking instead of answering
  'unfixable', // a diagnosis no fixer may address (e.g. library not available, missing inputs)
  'interrupted',
  'sandbox-error',
]);
export type StopReason = z.infer<typeof StopReason>;

export const FixRecord = z.object({
  step: z.number().int(),
  type: z.enum(['error-repair', 'runtime-reduction', 'score-calibration']),
  source: z.string().describe('rule id(s) joined by "+", or the model name'),
  sourceKind: z.enum(['rule', 'llm']),
  cell: z.number().int().describe('first cell the patch changed'),
  cells: z.array(z.number().int()),
  summary: z.string(),
  trigger: z.string().describe('what the fix addressed: error signature, slow cell, drifted value'),
  outcome: z.string().optional().describe('what the next run showed'),
  candidates: z.array(z.object({
    label: z.string().describe('what the candidate chose (a data file, a module, a run order)'),
    summary: z.string(),
    outcome: z.enum(['agrees', 'runs-drifts', 'error-moved', 'same-error']),
    detail: z.string(),
    kept: z.boolean(),
  })).optional().describe('generate-and-verify: every candidate tried for this problem, in order, and which was kept'),
});
export type FixRecord = z.infer<typeof FixRecord>;

export const Comparison = z.object({
  cell: z.number().int().nullable(),
  original: z.number().nullable(),
  new: z.number().nullable(),
  relDiff: z.number().nullable(),
  ok: z.boolean(),
  context: z.string().optional(),
  unjudged: z.enum(['nondeterministic', 'ill-conditioned', 'tie', 'stale', 'unreachable', 'library-docs', 'skipped']).optional().describe('not judged: nondeterministic = the value differs between two clean runs of the same code (unseeded randomness, timings, ordering), or the code draws it from unseeded randomness and no repair addressed its drift; ill-conditioned = the value comes from a least-squares fit of a nearly singular design (condition number above 1e12: which rounding-sized directions survive depends on the BLAS build), so no platform reproduces it to the digit; tie = a label picked among equal quantities (describe() top of equal frequency, a search\'s best parameters), the quantity being judged instead; stale = a stored result the cell\'s current source cannot produce (an earlier version of the cell printed it, or the cells that made its inputs were run again long after it, from an earlier state); unreachable = the cell fails because the author\'s own recorded error upstream left a name unbound; library-docs = the cell only shows a library\'s own documentation (help(), ?), which describes the library\'s version, not a result; skipped = the cell is not run here (one the author interrupted, never ran, or saved while it ran, over a limit or failing here; a display of a picture that is absent): its stored outputs are not judged'),
});

export const ModernizeReport = z.object({
  schemaVersion: z.literal(MODERNIZE_REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nbmodernize'), version: z.string() }),
  notebook: z.object({ path: z.string(), output: z.string().nullable() }),
  verdict: z.enum(['reproduced', 'not-reproduced', 'failed']),
  reason: z.string(),
  stopReason: StopReason,
  oracle: z.enum(['expected-score', 'stored-outputs', 'none']),
  comparisons: z.array(Comparison).describe('original vs new values the oracle compared'),
  baseline: z.object({
    status: z.string(),
    error: z.object({ cell: z.number().int(), ename: z.string(), evalue: z.string() }).optional(),
  }).describe('the first run, after the static rule pass'),
  finalRun: z.object({ status: z.string(), wallMs: z.number(), errorCell: z.number().int().nullable() }).nullable(),
  staticFindings: z.number().int(),
  fixes: z.array(FixRecord),
  cellExecutions: z.number().int(),
  fullRuns: z.number().int(),
  incremental: z.boolean(),
  reexecutions: z.array(z.object({ step: z.number().int(), mode: z.enum(['incremental', 'restart']), reason: z.string(), fromCell: z.number().int() })),
  llm: z.object({
    provider: z.string().nullable(),
    model: z.string().nullable(),
    calls: z.number().int(),
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    costUsd: z.number(),
    promptTokensMax: z.number().int(),
    note: z.string(),
  }),
  environment: z.object({ name: z.string(), hash: z.string(), python: z.string().optional(), versions: z.record(z.string(), z.string()).optional() }).nullable(),
  sandbox: z.string().nullable(),
  startedAt: z.string(),
  wallMs: z.number(),
  artifacts: z.record(z.string(), z.string()),
});
export type ModernizeReport = z.infer<typeof ModernizeReport>;

/**
 * summary.json of an audit (versioned). Scripts rely on `notebooks[]` with `path` and `verdict`,
 * and on `totals` with a count per verdict; everything else may grow. zod is the source of truth:
 * the types are inferred from it and `summaryJsonSchema()` gives the JSON Schema.
 */
import { z } from 'zod';

export const SUMMARY_SCHEMA_VERSION = '1.0.0';

const VerdictCounts = z.object({
  notebooks: z.number().int(),
  reproduced: z.number().int(),
  'not-reproduced': z.number().int(),
  failed: z.number().int(),
});

const TaxonomyEntry = z.object({ exceptionClass: z.string(), cause: z.string(), subject: z.string().optional() });

export const NotebookRow = z.object({
  id: z.string().describe('stable key: path relative to the audit input'),
  path: z.string().describe('the notebook file'),
  verdict: z.enum(['reproduced', 'not-reproduced', 'failed']),
  status: z.string().describe('run status, or why the notebook could not be evaluated'),
  reason: z.string(),
  oracle: z.string(),
  score: z.object({ original: z.number().nullable(), new: z.number().nullable(), label: z.string() }).nullable(),
  before: z.enum(['reproduced', 'not-reproduced', 'failed']).describe('the as-is verdict (equals verdict without --fix)'),
  taxonomy: TaxonomyEntry.nullable().describe('why it does not reproduce now'),
  beforeTaxonomy: TaxonomyEntry.nullable().describe('why it did not reproduce as-is'),
  error: z.object({ cell: z.number().int().nullable(), ename: z.string(), evalue: z.string() }).optional(),
  fixes: z.number().int(),
  fixTypes: z.array(z.string()),
  stopReason: z.string().optional(),
  costUsd: z.number(),
  wallMs: z.number(),
  cellMs: z.number(),
  artifacts: z.record(z.string(), z.string()),
});
export type NotebookRow = z.infer<typeof NotebookRow>;

export const AuditSummary = z.object({
  schemaVersion: z.literal(SUMMARY_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nbmodernize'), version: z.string() }),
  generatedAt: z.string(),
  audit: z.object({
    input: z.string().nullable(),
    mode: z.enum(['baseline', 'fix']),
    sessions: z.number().int().describe('invocations (1 + resumes)'),
    jobs: z.number().int().nullable(),
    sandbox: z.string().nullable(),
    environment: z.string().nullable(),
    startedAt: z.string().nullable(),
    elapsedMs: z.number().describe('wall time of the audit, summed over its sessions'),
    planned: z.number().int().nullable().describe('notebooks in the input'),
    complete: z.boolean(),
  }),
  totals: VerdictCounts.describe('after (= the final verdicts)'),
  setAside: z.object({
    missingInput: z.number().int().describe('reproduced with cells not run because they need an input file the data provided does not hold'),
    missingModule: z.number().int().describe('reproduced with cells not run because they need a module the environment does not have'),
  }).optional().describe('reproduced notebooks whose verdict names cells set aside (agent/missing-input.ts); counted in totals.reproduced'),
  before: VerdictCounts.describe('as-is (equals totals without --fix)'),
  outcomes: z.record(z.string(), z.number().int()).describe('reproduced as-is, fixed, still not reproduced, broken by the fix, could not evaluate'),
  cost: z.object({ usd: z.number(), llmCalls: z.number().int(), inputTokens: z.number().int(), outputTokens: z.number().int() }),
  time: z.object({
    notebookMs: z.number().describe('sum of per-notebook wall times'),
    cellMs: z.number().describe('sum of cell execution times'),
    overheadMs: z.number().describe('notebookMs - cellMs'),
    medianNotebookMs: z.number(),
    p90NotebookMs: z.number(),
  }),
  taxonomy: z.object({
    causes: z.record(z.string(), z.number().int()),
    classes: z.record(z.string(), z.number().int()),
    matrix: z.array(z.object({ exceptionClass: z.string(), cause: z.string(), count: z.number().int() })),
    basis: z.enum(['before', 'after']).describe('before: why notebooks failed as-is; after: what is left'),
    remaining: z.record(z.string(), z.number().int()).describe('causes after --fix (empty without it)'),
  }),
  fixTypes: z.record(z.string(), z.number().int()),
  fixSources: z.record(z.string(), z.number().int()),
  fixesPerNotebook: z.record(z.string(), z.number().int()),
  runtime: z.array(z.object({ label: z.string(), maxMs: z.number().nullable(), count: z.number().int() })),
  notebooks: z.array(NotebookRow),
});
export type AuditSummary = z.infer<typeof AuditSummary>;

export function summaryJsonSchema(): unknown {
  return z.toJSONSchema(AuditSummary);
}

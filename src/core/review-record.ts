/**
 * review.json, written by `nbmodernize review` next to `<name>.reviewed.ipynb`: which changes the
 * reviewer kept, what each then did to the notebook, and which run the written outputs came from.
 */
import { z } from 'zod';

export const REVIEW_RECORD_SCHEMA_VERSION = '1.0.0';

export const ReviewRecord = z.object({
  schemaVersion: z.literal(REVIEW_RECORD_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nbmodernize'), version: z.string() }),
  notebook: z.object({ original: z.string(), modernized: z.string(), reviewed: z.string() }),
  reviewedAt: z.string(),
  decisions: z.array(z.object({
    id: z.string(),
    cell: z.number().int(),
    step: z.number().int().describe('0: the static pass; n: the loop\'s n-th fix'),
    fixType: z.string(),
    sourceKind: z.enum(['rule', 'llm']),
    source: z.string(),
    codes: z.array(z.string()).describe('rule codes (PD001) of a rule change'),
    decision: z.enum(['accepted', 'rejected']),
    effect: z.enum(['applied', 'rebased', 'blocked', 'rejected']).describe('rebased: re-applied on its own after an earlier change of the cell was rejected; blocked: accepted but it no longer fits, not applied'),
  })),
  totals: z.object({ changes: z.number().int(), accepted: z.number().int(), rejected: z.number().int(), blocked: z.number().int() }),
  run: z.object({
    from: z.enum(['modernize', 'review']).describe('modernize: its final run (only when every change is kept); review: a re-run of the reviewed code'),
    verdict: z.enum(['reproduced', 'not-reproduced', 'failed']),
    reason: z.string(),
    current: z.boolean().describe('the run was of exactly the code written; false: outputs of changed cells are left empty'),
  }).nullable(),
});
export type ReviewRecord = z.infer<typeof ReviewRecord>;

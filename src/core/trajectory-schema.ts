/**
 * One line of trajectory.jsonl: one event of the modernization loop (src/agent/events.ts), with
 * the time it was written. zod is the source of truth; schemas/trajectory-event.schema.json is
 * generated (`npm run schemas`). Lines are loose objects: the required fields below are what
 * readers may rely on; nested records (diagnoses, trial outcomes, run states) are described
 * in their own schemas or the source.
 */
import { z } from 'zod';
import { FixRecord, StopReason } from './modernize-report.js';

const RunMode = z.enum(['full', 'incremental', 'final']);
const Edits = z.array(z.looseObject({ cell: z.number().int(), op: z.enum(['replace', 'search-replace', 'insert', 'move', 'delete']) }));
const ExecutedCell = z.looseObject({
  index: z.number().int(),
  status: z.string(),
  durationMs: z.number().nullable(),
  error: z.object({ ename: z.string(), evalue: z.string() }).optional(),
});

export const TrajectoryEvent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('static-pass'), changedCells: z.array(z.number().int()), findingsBefore: z.number().int(), findings: z.array(z.object({ cell: z.number().int(), rule: z.string(), message: z.string(), autoFixable: z.boolean() })) }),
  z.looseObject({ type: z.literal('data-facts'), facts: z.record(z.string(), z.unknown()) }),
  z.looseObject({ type: z.literal('project'), dir: z.string(), files: z.number().int(), bytes: z.number(), skipped: z.array(z.unknown()) }),
  z.looseObject({ type: z.literal('run'), mode: RunMode, fromCell: z.number().int() }).describe('an execution starts'),
  z.looseObject({ type: z.literal('execution'), mode: RunMode, fromCell: z.number().int(), status: z.string(), cells: z.array(ExecutedCell) }).describe('the cells this execution ran'),
  z.looseObject({ type: z.literal('rerun'), why: z.string(), kernel: z.string(), unstable: z.array(z.string()) }).describe('a second clean run (re-seeded kernel) to tell nondeterministic values from drift'),
  z.looseObject({ type: z.literal('unseeded'), cells: z.array(z.object({ cell: z.number().int(), draw: z.string() })), unstable: z.array(z.string()) }).describe('drifted values of cells the code feeds from an unseeded random draw, after no repair addressed them: set aside as nondeterministic'),
  z.looseObject({ type: z.literal('ill-conditioned'), cells: z.array(z.object({ cell: z.number().int(), model: z.string(), condition: z.number() })), unstable: z.array(z.string()) }).describe('drifted values of a cell fed by a least-squares fit whose design is nearly singular (condition number above 1e12 in the live state): set aside as ill-conditioned'),
  z.looseObject({ type: z.literal('stale-inputs'), cell: z.number().int(), count: z.number().int(), inputs: z.array(z.object({ cell: z.number().int(), count: z.number().int(), names: z.array(z.string()) })), unstable: z.array(z.string()) }).describe('drifted values of a cell whose inputs the author made again long after it ran (the cell binding what it reads has a much higher execution count): the stored output came from an earlier state, set aside as stale'),
  z.looseObject({ type: z.literal('diagnosis'), diagnosis: z.looseObject({ kind: z.enum(['done', 'fix']) }) }),
  z.looseObject({ type: z.literal('llm'), step: z.number().int(), fixType: z.string(), cell: z.number().int(), promptTokens: z.number(), costUsd: z.number(), prompt: z.string().optional().describe('what the model was shown (the context, first 20000 characters)'), calls: z.array(z.looseObject({ outcome: z.string(), usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }), costUsd: z.number() })),
    failure: z.looseObject({ kind: z.string(), message: z.string() }).optional().describe('kind "declined": the model gave up (GIVE_UP), message is its reason'),
    viewed: z.array(z.number().int()).optional().describe('cells the model asked for (VIEW_CELL) and was shown'),
    context: z.object({ tokens: z.number(), budgetTokens: z.number(), cellsShown: z.array(z.number().int()), included: z.array(z.string()), dropped: z.array(z.string()) }).optional()
      .describe('what the prompt context held and what the token bound cut (section ids; cell:N earlier cells, after:N later ones)') }),
  z.looseObject({ type: z.literal('candidate'), step: z.number().int(), index: z.number().int(), label: z.string(), summary: z.string(), edits: Edits, outcome: z.looseObject({ rank: z.enum(['agrees', 'runs-drifts', 'error-moved', 'same-error']), detail: z.string() }) }).describe('one generate-and-verify trial'),
  z.looseObject({ type: z.literal('verify'), step: z.number().int(), cell: z.number().int(), trials: z.array(z.looseObject({ index: z.number().int(), label: z.string(), kept: z.boolean() })), kept: z.number().int().nullable() }),
  z.looseObject({ type: z.literal('fix'), fix: FixRecord, edits: Edits, changes: z.array(z.object({ cell: z.number().int(), before: z.string(), after: z.string() })), error: z.object({ ename: z.string(), evalue: z.string() }).optional() }).describe('a patch applied to the working notebook (step 0: the static pass)'),
  z.looseObject({ type: z.literal('rejected'), source: z.string(), reason: z.string() }),
  z.looseObject({ type: z.literal('reexecution'), step: z.number().int(), mode: z.enum(['incremental', 'restart']), fromCell: z.number().int(), reason: z.string(), candidate: z.number().int().optional() }),
  z.looseObject({ type: z.literal('excused'), cell: z.number().int(), expected: z.looseObject({ ename: z.string(), reason: z.string(), neverRun: z.boolean().optional(), skipped: z.boolean().optional() }) })
    .describe("a cell the author never ran failed and nothing repairs it, or is over the time or memory limit (skipped: not run): from now on it is part of the record (listed in the verdict), and the run goes on"),
  z.looseObject({ type: z.literal('stop'), reason: StopReason, detail: z.string() }),
  z.looseObject({ type: z.literal('verdict'), verdict: z.looseObject({ verdict: z.enum(['reproduced', 'not-reproduced', 'failed']), reason: z.string() }) }),
]);

/** A trajectory line: an event and when it was written. */
export const TrajectoryLine = z.intersection(z.object({ at: z.string() }), TrajectoryEvent);

/**
 * The versioned JSON run result (`nbmodernize run --json`, run-result.json). zod is the single
 * source of truth: TypeScript types are inferred from it and `schemas/run-result.schema.json`
 * is generated from it, so scripts and the code can never disagree.
 */
import { z } from 'zod';
import { failsAtLine } from './traceback.js';

export const RUN_RESULT_SCHEMA_VERSION = '1.0.0';

export const RunStatus = z.enum(['ok', 'error', 'timeout', 'kernel-died', 'budget-exceeded']);
export type RunStatus = z.infer<typeof RunStatus>;

export const CellStatus = z.enum(['ok', 'error', 'timeout', 'kernel-died', 'budget-exceeded', 'not-run']);
export type CellStatus = z.infer<typeof CellStatus>;

export const CellError = z.object({
  ename: z.string(),
  evalue: z.string(),
  traceback: z.array(z.string()).describe('ANSI colour codes removed'),
});
export type CellError = z.infer<typeof CellError>;

export const VariableSummary = z.object({
  name: z.string(),
  type: z.string(),
  module: z.string().optional(),
  shape: z.array(z.number()).optional(),
  dtype: z.string().optional(),
  dtypes: z.record(z.string(), z.string()).optional().describe('DataFrame column -> dtype (bounded)'),
  columns: z.array(z.string()).optional(),
  length: z.number().optional(),
  value: z.string().optional().describe('short repr of scalars and short strings'),
  condition: z.number().optional().describe("a fitted least-squares model's condition number, largest over smallest singular value of its design (LinearRegression's singular_; 1e308 when the smallest is 0)"),
});
export type VariableSummary = z.infer<typeof VariableSummary>;

export const StateSummary = z.object({
  variables: z.array(VariableSummary),
  truncated: z.boolean().describe('true when names or details were cut to stay within the size bound'),
});
export type StateSummary = z.infer<typeof StateSummary>;

export const CellRecord = z.object({
  index: z.number().int().describe('position of the cell in notebook.cells (markdown cells count)'),
  codeIndex: z.number().int().describe('position among code cells'),
  status: CellStatus,
  executionCount: z.number().int().nullable(),
  durationMs: z.number().nullable().describe("from the kernel's own message timestamps"),
  startedAt: z.string().nullable(),
  peakMemoryBytes: z.number().nullable().describe('peak resident memory of the kernel process during the cell'),
  outputsTruncated: z.boolean(),
  error: CellError.optional(),
  state: StateSummary.optional(),
  swallowed: z.array(z.object({
    error: z.string().describe("the last line of the fit's traceback: 'module.ErrorClass: message'"),
    fits: z.number().int().describe('fits that failed with it'),
    of: z.number().int().describe('fits the search or cross-validation made'),
  })).optional()
    .describe("errors a scikit-learn search or cross-validation caught and scored as error_score (NaN) during the cell, whether or not a warning was shown"),
  expectedError: z.object({
    ename: z.string(),
    reason: z.string(),
    after: z.number().int().optional().describe("set when the error follows from the author's own error in that earlier cell (a name only it binds): the cell's stored outputs cannot be reached"),
    neverRun: z.boolean().optional().describe('the author never ran this cell (no execution count, no outputs in a notebook that has them): what it raises here has no record to hold it to'),
    skipped: z.boolean().optional().describe('not run at all: a cell the author never ran that fails or exceeds the time or memory limit here (decisions.excuseNeverRun, skipNeverRun), or that rebinds what a failing recorded cell reads (never-run-overwriter)'),
    overwrites: z.object({ cell: z.number().int(), names: z.array(z.string()) }).optional()
      .describe('skipped because it rebinds these names, which this recorded cell reads and fails on here; `ename` is that cell\'s exception'),
    picture: z.string().optional().describe("skipped because the cell only shows this picture file of the author's repository, absent here (agent/absent-picture.ts)"),
    unbound: z.string().optional().describe("skipped because the cell reads this name, which no cell of the notebook binds (the author deleted the cell that made it), and no later cell depends on the cell (agent/unbound-name.ts)"),
    missingInput: z.string().optional().describe("skipped because the cell needs this input file, which the data provided does not hold, or reads what the statements that read it made (agent/missing-input.ts)"),
    missingLibrary: z.string().optional().describe("skipped because the cell needs this top-level module, which the environment does not have (nor the notebook's project), or reads what the statements that import it made (agent/missing-input.ts)"),
    line: z.string().optional().describe("the failing line of the author's traceback: the same statement failing here is the author's error, whatever exception today's library raises for it"),
  }).optional()
    .describe("the cell raised (or, interrupted by its author, was not run) as in the notebook's stored outputs: part of the record, not a failure"),
});
export type CellRecord = z.infer<typeof CellRecord>;

/** An exception the author's record says this cell raises (see agent/stored-errors.ts). */
export type ExpectedError = NonNullable<CellRecord['expectedError']>;

/**
 * The running cell's exception is the one the record expects (a SyntaxError's subclasses included).
 * Where the author's run failed on a missing module, it never ran the rest of the cell: whatever that
 * code raises here, on a machine that has the module, is outside the record as well.
 */
export function isExpected(expected: ExpectedError | undefined, ename: string, traceback: readonly string[] = []): boolean {
  if (!expected) return false;
  if (expected.ename === 'ModuleNotFoundError' || expected.ename === 'ImportError') return true;
  if (expected.ename === ename || (expected.ename === 'SyntaxError' && (ename === 'IndentationError' || ename === 'TabError'))) return true;
  // The same statement failing, with the exception its library raises today (pandas and seaborn
  // turned many TypeErrors into ValueErrors): still the author's error, not one to repair.
  return !!expected.line && failsAtLine(traceback, expected.line);
}

/**
 * The first cell that failed: an error, timeout or dead kernel, except an error the author's own
 * run also raised there (`expectedError`).
 */
export function firstFailure<T extends Pick<CellRecord, 'status' | 'expectedError'>>(cells: readonly T[]): T | undefined {
  return cells.find((c) => c.status !== 'ok' && c.status !== 'not-run' && !c.expectedError);
}

export const SandboxKind = z.enum(['docker', 'bwrap', 'host', 'remote']);
export type SandboxKind = z.infer<typeof SandboxKind>;

export const ProducedFile = z.object({
  name: z.string(),
  bytes: z.number(),
  path: z.string().optional().describe('where it was copied (absent when not copied)'),
  notCopied: z.string().optional().describe('why it was not copied to the output dir (a size cap)'),
});

export const RunResult = z.object({
  schemaVersion: z.literal(RUN_RESULT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nbmodernize'), version: z.string() }),
  notebook: z.object({ path: z.string(), originalFormat: z.number().int(), notes: z.array(z.string()) }),
  status: RunStatus,
  sandbox: z.string().describe('backend used: docker | bwrap | host | remote'),
  sandboxInfo: z.object({
    kind: SandboxKind,
    requested: z.string(),
    reason: z.string(),
    startMs: z.number().describe('time to bring the Jupyter server up'),
    limits: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  }),
  environment: z.object({
    name: z.string(),
    hash: z.string(),
    python: z.string().optional(),
    versions: z.record(z.string(), z.string()).optional(),
  }),
  startedAt: z.string(),
  finishedAt: z.string(),
  wallMs: z.number(),
  kernelStartMs: z.number(),
  options: z.object({
    cellTimeoutS: z.number(),
    timeoutS: z.number(),
    allowErrors: z.boolean(),
    competition: z.string().nullable(),
    dataDir: z.string().nullable(),
  }),
  cellExecutions: z.number().int(),
  cells: z.array(CellRecord),
  error: CellError.extend({ cell: z.number().int() }).optional().describe('the first failing cell'),
  message: z.string().optional().describe('one-line explanation when status is not ok'),
  producedFiles: z.array(ProducedFile),
  outputs: z.object({ notebook: z.string().nullable(), dir: z.string().nullable() }),
});
export type RunResult = z.infer<typeof RunResult>;

export function runResultJsonSchema(): unknown {
  return z.toJSONSchema(RunResult);
}

/**
 * The one event stream of the modernization loop. The loop yields these; the trajectory writer
 * (one event a line), the CLI renderer, the audit worker's progress and the report builder all
 * subscribe to the same stream, so none of them re-reads a file to learn what happened.
 * The JSON Schema of a trajectory line is generated from src/core/trajectory-schema.ts.
 */
import type { CellRecord, ExpectedError, RunStatus } from '../core/run-result.js';
import type { FixRecord, StopReason } from '../core/modernize-report.js';
import type { CellEdit as Edit, PatchSource } from '../core/patch.js';
import type { ExecEvent } from '../executor/run-notebook.js';
import type { Diagnosis } from './diagnosis.js';
import type { VerdictResult } from './verdict.js';
import type { TrialOutcome, TrialRecord } from './generate-verify.js';
import type { Reexecution } from './reexecution.js';
import type { DataFacts } from '../fixers/rules/context.js';

export type RunMode = 'full' | 'incremental' | 'final';

export type AgentEvent =
  | { type: 'static-pass'; changedCells: number[]; findingsBefore: number; findings: Array<{ cell: number; rule: string; message: string; autoFixable: boolean }> }
  | { type: 'data-facts'; facts: DataFacts }
  | { type: 'project'; dir: string; files: number; bytes: number; skipped: unknown[] }
  | { type: 'run'; mode: RunMode; fromCell: number }
  /** Live cell ticks for progress displays; the trajectory keeps their content in `execution`. */
  | { type: 'exec'; event: ExecEvent }
  | { type: 'execution'; mode: RunMode; fromCell: number; status: RunStatus; cells: ExecutedCell[] }
  | { type: 'rerun'; why: string; kernel: string; unstable: string[] }
  /** Drifted values of cells fed by an unseeded draw (no repair addressed them): set aside, not judged. */
  | { type: 'unseeded'; cells: Array<{ cell: number; draw: string }>; unstable: string[] }
  /** Drifted values of a cell fed by a least-squares fit of a nearly singular design (the live state's condition number): set aside, not judged. */
  | { type: 'ill-conditioned'; cells: Array<{ cell: number; model: string; condition: number }>; unstable: string[] }
  | { type: 'stale-inputs'; cell: number; count: number; inputs: Array<{ cell: number; count: number; names: string[] }>; unstable: string[] }
  | { type: 'diagnosis'; diagnosis: Diagnosis }
  | { type: 'llm'; step: number; fixType: string; cell: number; /** reply: one reply in the reply contract; tools: a tool conversation */ mode?: 'reply' | 'tools'; promptTokens: number; costUsd: number; prompt?: string; calls: LlmCallRecord[]; failure?: { kind: string; message: string; llmKind?: string }; /** cells the model asked for (VIEW_CELL) and was shown */ viewed?: number[]; context?: LlmContextRecord; /** the tool mode's steps: each tool call, its input and (cut) answer */ tools?: Array<{ tool: string; input: Record<string, unknown>; output: string; ok: boolean }> }
  | { type: 'candidate'; step: number; index: number; label: string; source: PatchSource; summary: string; edits: Edit[]; order?: number[]; outcome: TrialOutcome }
  | { type: 'verify'; step: number; cell: number; trials: TrialRecord[]; kept: number | null; stoppedBy?: string }
  | { type: 'fix'; fix: FixRecord; edits: Edit[]; changes: Array<{ cell: number; before: string; after: string }>; error?: { ename: string; evalue: string } }
  | { type: 'rejected'; source: string; reason: string; edits?: Edit[] }
  | ({ type: 'reexecution'; step: number; candidate?: number } & Reexecution)
  | { type: 'excused'; cell: number; expected: ExpectedError }
  | { type: 'stop'; reason: StopReason; detail: string }
  | { type: 'verdict'; verdict: VerdictResult };

export interface ExecutedCell {
  index: number;
  status: CellRecord['status'];
  durationMs: number | null;
  peakMemoryBytes: number | null;
  error?: { ename: string; evalue: string };
  state?: CellRecord['state'];
}

/** What the prompt's context held and what the token bound cut (section ids: `cell:N` earlier cells, `after:N` later ones). */
export interface LlmContextRecord { tokens: number; budgetTokens: number; cellsShown: number[]; included: string[]; dropped: string[] }

export interface LlmCallRecord { outcome: string; feedback?: string; usage: { inputTokens: number; outputTokens: number }; costUsd: number; reply?: string }

export type Emit = (e: AgentEvent) => void;

export function executedCells(cells: CellRecord[]): ExecutedCell[] {
  return cells.map((c) => ({ index: c.index, status: c.status, durationMs: c.durationMs, peakMemoryBytes: c.peakMemoryBytes, error: c.error ? { ename: c.error.ename, evalue: c.error.evalue } : undefined, state: c.state }));
}

/**
 * Turns a body that emits through a callback (events come from deep inside awaited calls: cell
 * ticks during an execution) into an async generator of those events whose return value is the
 * body's result; the gemini-cli shape (core yields typed events, the caller renders them).
 */
export async function* eventStream<E, R>(body: (emit: (e: E) => void) => Promise<R>): AsyncGenerator<E, R> {
  const queue: E[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const result = body((e) => {
    queue.push(e);
    wake?.();
  }).finally(() => {
    done = true;
    wake?.();
  });
  result.catch(() => undefined); // rethrown below, after the queued events
  for (;;) {
    while (queue.length) yield queue.shift()!;
    if (done) return await result;
    await new Promise<void>((r) => (wake = r));
    wake = undefined;
  }
}

/**
 * What the loop needs from the place a notebook runs: run cells (whole, from a cell, or a final
 * clean run), say whether the kernel's state is still there, and show what the run wrote. The
 * real one (kernel-environment.ts) is a sandbox and a Jupyter kernel; tests pass a scripted fake,
 * so the loop's paths run in milliseconds.
 */
import type { Notebook } from '../core/notebook.js';
import type { CellRecord, ExpectedError, RunResult, RunStatus } from '../core/run-result.js';
import type { Sandbox } from '../executor/types.js';
import type { ExecEvent } from '../executor/run-notebook.js';
import type { RunMode } from './events.js';

export interface RunState {
  notebook: Notebook; // executed copy of the code that ran (outputs of the latest execution of each cell)
  cells: CellRecord[]; // latest record per code cell
  /** The records of this execution only (an incremental run's cells from its start cell on). */
  ran: CellRecord[];
  status: RunStatus;
  complete: boolean; // every code cell ran (no stop)
  fresh: boolean; // this state came from a single top-to-bottom run in a fresh kernel
}

export interface RunRequest {
  notebook: Notebook;
  /** 'incremental' keeps the kernel and `prev`'s outputs above `fromCell`; the others start fresh. */
  mode: RunMode;
  fromCell: number;
  prev?: RunState;
  /** The author's execution order (code cell indices), when an execution-order repair chose it. */
  order?: number[];
  /** Kernelspec for a fresh run (the re-seeded one for a re-check); default: the ordinary one. */
  kernel?: string;
  onExec?: (e: ExecEvent) => void;
}

export interface Environment {
  run(req: RunRequest): Promise<RunState>;
  /** False after the kernel died or ignored an interrupt: its state is gone. */
  readonly alive: boolean;
  readonly cellExecutions: number;
  readonly kernelName: string;
  /** Threads a notebook's numeric libraries may use (the sandbox's cap); undefined: the machine's cores. */
  readonly threads?: number;
  /** Path of the submission-like file the last run wrote, for the expected-score oracle. */
  submission(): string | undefined;
  /** The run record of a final clean run. */
  runResult(state: RunState): RunResult;
  /** Name, versions and Python of the environment (the LLM's context, the report). */
  readonly description: Sandbox['environment'];
  /**
   * From now on, `cell` raising `expected.ename` is part of the record, not a failure (a cell the
   * author never ran, see decisions.excuseNeverRun). Optional: without it the loop stops instead.
   */
  excuse?(cell: number, expected: ExpectedError): void;
  /** One live value described (type, shape, dtypes, head), by name only: the model's `inspect` tool. */
  inspect?(name: string): Promise<string>;
}

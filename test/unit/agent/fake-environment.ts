/**
 * A scripted Environment for the loop's unit tests: a cell "runs" by asking `behave` what its
 * source does (raise, print), so a test states a notebook's behaviour in a line and the loop's
 * paths run in milliseconds, with no sandbox and no kernel.
 */
import type { Notebook } from '../../../src/core/notebook.js';
import { sourceText } from '../../../src/core/notebook.js';
import type { CellRecord, ExpectedError, RunResult } from '../../../src/core/run-result.js';
import type { Environment, RunRequest, RunState } from '../../../src/agent/environment.js';
import type { Fixer, Proposal, Problem } from '../../../src/agent/fixers.js';
import type { Patch } from '../../../src/core/patch.js';

export type Behaviour = { error?: { ename: string; evalue: string }; stdout?: string; variables?: Array<Record<string, unknown>> } | undefined;

export class FakeEnvironment implements Environment {
  alive = true;
  cellExecutions = 0;
  kernelName = 'python3';
  readonly runs: Array<{ mode: string; fromCell: number; kernel?: string }> = [];
  readonly description = { name: 'fake', hash: '0', python: '3.13', versions: {} };
  /** Set to make the next run throw (a sandbox that died). */
  failWith?: Error;
  /** Errors excused by the loop (cells the author never ran): raised again, they do not stop the run. */
  readonly excused = new Map<number, ExpectedError>();

  constructor(private readonly behave: (source: string, cell: number, run: number) => Behaviour) {}

  async run(req: RunRequest): Promise<RunState> {
    if (this.failWith) throw this.failWith;
    const runNo = this.runs.length;
    this.runs.push({ mode: req.mode, fromCell: req.fromCell, ...(req.kernel ? { kernel: req.kernel } : {}) });
    this.kernelName = req.kernel ?? 'python3';
    const nb: Notebook = structuredClone(req.notebook);
    const prev = req.mode === 'incremental' ? req.prev : undefined;
    const ran: CellRecord[] = [];
    let failed = false;
    nb.cells.forEach((cell, index) => {
      if (cell.cell_type !== 'code') return;
      if (prev && index < req.fromCell) {
        cell.outputs = (prev.notebook.cells[index] as any).outputs;
        return;
      }
      if (failed) {
        ran.push({ index, status: 'not-run', durationMs: null } as unknown as CellRecord);
        return;
      }
      const skip = this.excused.get(index);
      if (skip?.skipped) {
        // As the executor does: a skipped cell is not sent to the kernel at all.
        cell.outputs = [];
        ran.push({ index, status: 'error', durationMs: null, error: { ename: skip.ename, evalue: '', traceback: [] }, expectedError: skip } as unknown as CellRecord);
        return;
      }
      this.cellExecutions += 1;
      req.onExec?.({ type: 'cell-start', index, codeIndex: index, total: nb.cells.length, preview: '' });
      const b = this.behave(sourceText(cell.source), index, runNo);
      cell.outputs = b?.stdout ? [{ output_type: 'stream', name: 'stdout', text: b.stdout }] : [];
      const state = { variables: b?.variables ?? [] };
      const excused = b?.error && this.excused.get(index)?.ename === b.error.ename ? this.excused.get(index) : undefined;
      if (b?.error && excused) {
        cell.outputs.push({ output_type: 'error', ename: b.error.ename, evalue: b.error.evalue, traceback: [] });
        ran.push({ index, status: 'error', durationMs: 1, error: { ...b.error, traceback: [] }, state, expectedError: excused } as unknown as CellRecord);
      } else if (b?.error) {
        failed = true;
        cell.outputs.push({ output_type: 'error', ename: b.error.ename, evalue: b.error.evalue, traceback: [] });
        ran.push({ index, status: 'error', durationMs: 1, error: { ...b.error, traceback: [] }, state } as unknown as CellRecord);
      } else ran.push({ index, status: 'ok', durationMs: 1, state } as unknown as CellRecord);
    });
    const cells = prev ? [...prev.cells.filter((c) => c.index < req.fromCell), ...ran] : ran;
    return { notebook: nb, cells, ran, status: 'ok', complete: !cells.some((c) => c.status === 'not-run'), fresh: !prev };
  }

  excuse(cell: number, expected: ExpectedError): void {
    this.excused.set(cell, expected);
  }

  submission(): string | undefined {
    return undefined;
  }

  runResult(state: RunState): RunResult {
    const err = state.cells.find((c) => c.error);
    return { status: state.status, cells: state.cells, producedFiles: [], wallMs: 1, ...(err?.error ? { error: { ...err.error, cell: err.index } } : {}) } as unknown as RunResult;
  }
}

/** A fixer that answers from a script: one proposal per call, in order (undefined: nothing to propose). */
export function scriptedFixer(name: string, script: Array<Proposal | undefined | ((p: Problem) => Proposal | undefined)>): Fixer & { seen: Problem[] } {
  const seen: Problem[] = [];
  return {
    name,
    seen,
    async propose(p) {
      seen.push(p);
      const next = script.shift();
      return typeof next === 'function' ? next(p) : next;
    },
  };
}

export function replaceCell(cell: number, newSource: string, kind: 'rule' | 'llm' = 'rule'): Patch {
  return {
    fixType: 'error-repair',
    source: kind === 'rule' ? { kind: 'rule', ruleIds: ['test-rule'] } : { kind: 'llm', model: 'fake-model', provider: 'fake' },
    edits: [{ cell, op: 'replace', newSource }],
    summary: `cell ${cell} := ${newSource}`,
  };
}

/**
 * Re-run of the reviewed code: the same executor, sandbox and verdict as modernize's final clean
 * run (KernelEnvironment: fresh kernel, the notebook's project files staged, the author's own
 * stored errors accepted as the record; decideVerdict against the stored outputs, with the values
 * modernize found nondeterministic excused).
 */
import type { Notebook } from '../../core/notebook.js';
import type { ExecEvent } from '../../executor/run-notebook.js';
import type { SandboxRequest } from '../../executor/types.js';
import { KernelEnvironment } from '../kernel-environment.js';
import { storedErrors } from '../stored-errors.js';
import { decideVerdict, type VerdictResult } from '../verdict.js';

export interface RerunOptions {
  sandbox: SandboxRequest;
  notebookPath: string;
  outDir: string;
  original: Notebook;
  unstable: readonly string[];
  timeoutS: number;
  cellTimeoutS: number;
  tolerance?: number;
  signal?: AbortSignal;
}

export interface RerunOutcome { executed: Notebook; verdict: VerdictResult }

export type Rerun = (nb: Notebook, onExec: (e: ExecEvent) => void) => Promise<RerunOutcome>;

export function kernelRerun(o: RerunOptions): Rerun {
  return async (nb, onExec) => {
    const env = await KernelEnvironment.open({
      request: o.sandbox, notebookPath: o.notebookPath, outDir: o.outDir, timeoutS: o.timeoutS, cellTimeoutS: o.cellTimeoutS,
      expectedErrors: storedErrors(o.original), ...(o.signal ? { signal: o.signal } : {}),
    });
    try {
      const state = await env.run({ notebook: nb, mode: 'final', fromCell: 0, onExec });
      const run = env.runResult(state);
      const verdict = decideVerdict({ original: o.original, executed: state.notebook, run, tolerance: o.tolerance, unstable: new Set(o.unstable) });
      return { executed: state.notebook, verdict };
    } finally {
      await env.close();
    }
  };
}

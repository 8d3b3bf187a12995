/**
 * What the last run says to fix next, as the peer system does it but explicit: over the time
 * budget -> runtime-reduction of the slowest cell (out of memory likewise, for the cell that ran out);
 * an error -> error-repair of the first failing
 * cell; clean but drifted -> score-calibration of the first drifted cell; else done.
 */
import { firstFailure, type CellRecord, type CellError, type RunStatus } from '../core/run-result.js';
import type { FixType } from '../core/patch.js';
import type { OracleVerdict } from './oracle/index.js';
import { innermostNotebookFrame } from '../core/traceback.js';

export type Diagnosis =
  | { kind: 'done' }
  | { kind: 'fix'; fixType: FixType; cell: number; error?: CellError; signature: string; why: string; drift?: { original: number | null; current: number | null; context?: string; oracle: string };
    /** Over the run's budget: the cell it ran out in, when that is not `cell` (the slowest). */
    limitCell?: number };

export function diagnose(status: RunStatus, cells: CellRecord[], oracle: () => OracleVerdict): Diagnosis {
  if (status === 'budget-exceeded' || status === 'timeout') {
    const slow = slowestCell(cells);
    const limit = cells.find((c) => c.status === 'budget-exceeded' || c.status === 'timeout');
    return {
      kind: 'fix', fixType: 'runtime-reduction', cell: slow.index, signature: `slow:${slow.index}`, why: `${status}: cell ${slow.index} took ${Math.round((slow.durationMs ?? 0) / 1000)} s`,
      ...(limit && limit.index !== slow.index ? { limitCell: limit.index } : {}),
    };
  }
  const failed = firstFailure(cells);
  if (failed?.error?.ename === 'MemoryError') {
    // Out of memory is a resource limit like the time budget, not an API break: the same remedies
    // apply (the old, smaller defaults the era makes certain), not error repairs.
    return { kind: 'fix', fixType: 'runtime-reduction', cell: failed.index, signature: `memory:${failed.index}`, why: `out of memory: cell ${failed.index} (${failed.error.evalue.slice(0, 120)})` };
  }
  if (failed) {
    const error = failed.error ?? { ename: failed.status, evalue: '', traceback: [] };
    return { kind: 'fix', fixType: 'error-repair', cell: failed.index, error, signature: errorSignature(failed.index, error), why: `${error.ename}: ${error.evalue}`.slice(0, 200) };
  }
  const verdict = oracle();
  if (!verdict.matches) {
    // Quote a real drift: not a number the original author's out-of-order run produced, nor an unpaired one.
    const failing = verdict.comparisons.filter((c) => !c.ok && !(c as { outOfOrder?: boolean }).outOfOrder);
    // In a cell that fails the verdict: a cell that only lost rows to a shorter display (pandas 2
    // shows 10 rows of a long frame, old pandas 60) is partial, not the drift to repair.
    const failingCells = new Set((verdict.details?.cellsFailing as number[] | undefined) ?? []);
    const inFailing = failing.filter((c) => c.cell !== null && failingCells.has(c.cell));
    const pool = inFailing.length ? inFailing : failing;
    const bad = pool.find((c) => c.new !== null) ?? pool[0];
    const cell = bad?.cell ?? lastCodeCell(cells);
    return {
      kind: 'fix',
      fixType: 'score-calibration',
      cell,
      signature: `drift:${cell}:${bad?.original}`,
      why: bad ? `value drifted: ${bad.original} -> ${bad.new}${bad.context ? ` (${bad.context.trim().slice(0, 80)})` : ''}` : 'results drifted',
      ...(bad ? { drift: { original: bad.original, current: bad.new, context: bad.context, oracle: verdict.oracle } } : {}),
    };
  }
  return { kind: 'done' };
}

/**
 * Same cell, same exception class, same message once numbers and addresses are blanked, raised by
 * the same source line. The line matters: a repair that fixes the failing line lets the same error
 * come from the next line holding the same old API (`plt.hist(a, normed=True)` twice in a cell);
 * that is progress, not the same problem. The line's text, not its number, so that a repair
 * inserting an import above it does not look like progress.
 */
export function errorSignature(cell: number, e: Pick<CellError, 'ename' | 'evalue'> & { traceback?: readonly string[] }): string {
  const msg = e.evalue.replace(/0x[0-9a-f]+/gi, 'ADDR').replace(/\d+(\.\d+)?/g, 'N').slice(0, 200);
  const at = failingLine(e.traceback ?? []);
  return `${cell}:${e.ename}:${msg}${at ? ` @ ${at.text.slice(0, 120)}` : ''}`;
}

/**
 * The innermost notebook frame's failing line of a traceback, number and text (core/traceback.ts
 * reads every layout). Library frames are skipped.
 */
export function failingLine(traceback: readonly string[]): { line: number; text: string } | undefined {
  const f = innermostNotebookFrame(traceback);
  return f ? { line: f.line, text: f.text } : undefined;
}

/**
 * The source lines IPython shows just above and below the failing line of the innermost notebook
 * frame. The same failing text at a later line is the same line moved down (code inserted above)
 * when its neighbours moved with it, and another occurrence of it when they did not.
 */
export function failingLineNeighbours(traceback: readonly string[]): { above?: string; below?: string } | undefined {
  const f = innermostNotebookFrame(traceback);
  return f ? { ...(f.above !== undefined ? { above: f.above } : {}), ...(f.below.length ? { below: f.below[0] } : {}) } : undefined;
}

function slowestCell(cells: CellRecord[]): CellRecord {
  // A cell over the per-cell timeout is the slow one itself.
  const timedOut = cells.find((c) => c.status === 'timeout');
  if (timedOut) return timedOut;
  // The run's budget ran out in some cell (its time so far counts): the time went to the slowest
  // cell of the run, not necessarily to the one it ran out in (a 40 s plot after a 140 s search).
  return [...cells].sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))[0];
}

function lastCodeCell(cells: CellRecord[]): number {
  return cells.length ? cells[cells.length - 1].index : 0;
}

/**
 * Fit errors a scikit-learn search swallowed, made the cell's error. Since scikit-learn 0.22 a
 * GridSearchCV, RandomizedSearchCV, cross_val_score or cross_validate scores a fit that raises as
 * error_score (NaN) and at most warns; before, the default re-raised. So a notebook of the 2015–2020
 * era never had a fit fail in its searches, and one that fails here is an API break inside the grid
 * (`max_features='auto'`, `criterion='mse'`, `penalty='l1'` under the new default solver): the
 * search quietly picks another candidate and the notebook drifts with nothing to repair.
 *
 * The kernel's probe records these errors per cell (executor/kernel-probe.ts), warning silenced or
 * not. A cell whose search swallowed an error that a rule knows and finds code to rewrite for is
 * given that error, so the loop repairs it like any other (and a trial that leaves it is ranked as
 * failing). Left alone: a cell the author's run also showed failing fits in (FitFailedWarning or
 * "fits failed" in its stored outputs: a later author had the same NaNs), and errors no rule can act
 * on (the search's result may still match the record; the oracle says so).
 */
import type { Notebook } from '../core/notebook.js';
import type { CellError, CellRecord } from '../core/run-result.js';
import { rulesForError, rulesMatchingError } from '../fixers/rules/index.js';
import type { RunState } from './environment.js';

/** 'sklearn.utils._param_validation.InvalidParameterError: The ...' -> its class and message. */
export function parseErrorLine(line: string): { ename: string; evalue: string } | undefined {
  const m = /^([A-Za-z_][\w.]*?(?:Error|Exception|Warning|Exit|Interrupt)):\s?(.*)$/s.exec(line.trim());
  if (!m) return undefined;
  return { ename: m[1].split('.').pop()!, evalue: m[2] };
}

function storedText(nb: Notebook, index: number): string {
  const cell = nb.cells[index];
  if (cell?.cell_type !== 'code') return '';
  return (cell.outputs ?? []).map((o: any) => [].concat(o.text ?? o.data?.['text/plain'] ?? o.evalue ?? '').join('')).join('\n');
}

/** The error a cell's searches swallowed, when it should be the cell's error (see above). */
export function swallowedError(cell: CellRecord, original: Notebook): CellError | undefined {
  if (!cell.swallowed?.length || cell.expectedError) return undefined;
  // Clean, or failed because every fit failed (that ValueError wraps the same error).
  const allFailed = cell.status === 'error' && cell.error?.ename === 'ValueError' && /fits failed/.test(cell.error.evalue);
  if (cell.status !== 'ok' && !allFailed) return undefined;
  if (/FitFailedWarning|fits failed/.test(storedText(original, cell.index))) return undefined;
  for (const s of cell.swallowed) {
    const e = parseErrorLine(s.error);
    if (!e || !rulesMatchingError(e).length) continue;
    const note = `${s.fits} of ${s.of} fits in this cell raised this and were scored NaN (error_score) by scikit-learn, which picked among the others; the notebook's scikit-learn re-raised`;
    return { ename: e.ename, evalue: e.evalue, traceback: [note, s.error] };
  }
  return undefined;
}

/**
 * Whether the rules that know the error find something to rewrite for it: a swallowed error only
 * becomes the cell's error when a rule can act on it. Otherwise the run stays as it was and the
 * oracle judges it (the search may still have found the author's result).
 */
export async function rulesCanRepair(work: Notebook, cell: number, error: CellError): Promise<boolean> {
  const known = new Set(rulesMatchingError(error).map((r) => r.id));
  const runtime = { failingCell: cell, ename: error.ename, evalue: error.evalue, traceback: error.traceback, frames: [], types: {} };
  const patches = await rulesForError(work, cell, error, { runtime });
  return patches.some((p) => p.source.kind === 'rule' && p.source.ruleIds.some((id) => known.has(id)));
}

/**
 * The run with each cell whose search swallowed an error a rule can repair failed on that error (the
 * records change, not the outputs). `work` is the code that ran.
 */
export async function surfaceSwallowed(state: RunState, original: Notebook, work: Notebook): Promise<RunState> {
  const failed = new Map<number, CellError>();
  for (const c of state.cells) {
    const error = swallowedError(c, original);
    if (error && (await rulesCanRepair(work, c.index, error))) failed.set(c.index, error);
  }
  if (!failed.size) return state;
  const mark = (c: CellRecord): CellRecord => (failed.has(c.index) ? { ...c, status: 'error', error: failed.get(c.index)! } : c);
  return { ...state, cells: state.cells.map(mark), ran: state.ran.map(mark), status: state.status === 'ok' ? 'error' : state.status };
}

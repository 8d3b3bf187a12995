/**
 * Fit errors a scikit-learn search swallowed, made the cell's error. Since scikit-learn 0.22 a
 * GridSearchCV, RandomizedSearchCV, cross_val_score or cross_validate scores a fit that raises as
 * error_score (NaN) and at most warns; before, the default re-raised. So a notebook of the 2015–2020
 * era never had a fit fail in its searches, and one that fails here is an API break inside the grid
 * (`max_features='auto'`, `criterion='mse'`, `penalty='l1'` under the new default solver): the
 * search quietly picks another candidate and the notebook drifts with nothing to repair.
 *
 * The kernel's probe records these errors per cell (executor/kernel-probe.ts), warning silenced or
 * not. A cell whose search swallowed an error that a rule's error signature knows is given that
 * error, so the loop repairs it like any other (and a trial that leaves it is ranked as failing).
 * Left alone: a cell the author's run also showed failing fits in (FitFailedWarning or "fits failed"
 * in its stored outputs: a later author had the same NaNs), and errors no rule knows (the search's
 * result may still match the record; the oracle says so).
 */
import type { Notebook } from '../core/notebook.js';
import type { CellError, CellRecord } from '../core/run-result.js';
import { rulesMatchingError } from '../fixers/rules/index.js';
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

/** The run with each such cell failed on its swallowed error (the records, not the outputs, change). */
export function surfaceSwallowed(state: RunState, original: Notebook): RunState {
  let changed = false;
  const mark = (c: CellRecord): CellRecord => {
    const error = swallowedError(c, original);
    if (!error) return c;
    changed = true;
    return { ...c, status: 'error', error };
  };
  const cells = state.cells.map(mark);
  if (!changed) return state;
  const byIndex = new Map(cells.map((c) => [c.index, c]));
  return { ...state, cells, ran: state.ran.map((c) => byIndex.get(c.index) ?? c), status: state.status === 'ok' ? 'error' : state.status };
}

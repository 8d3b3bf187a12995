/** Fit errors a search scored NaN become the cell's error when a rule knows them (swallowed-failures.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseErrorLine, surfaceSwallowed, swallowedError } from '../../../src/agent/swallowed-failures.js';
import type { CellRecord } from '../../../src/core/run-result.js';
import type { RunState } from '../../../src/agent/environment.js';
import { notebookOf } from '../rules/support.js';

const AUTO = "sklearn.utils._param_validation.InvalidParameterError: The 'max_features' parameter of RandomForestRegressor must be an int in the range [1, inf), a float in the range (0.0, 1.0], a str among {'sqrt', 'log2'} or None. Got 'auto' instead.";
const rec = (over: Partial<CellRecord> = {}): CellRecord => ({ index: 1, codeIndex: 1, status: 'ok', executionCount: 2, durationMs: 5, startedAt: null, peakMemoryBytes: null, outputsTruncated: false, ...over } as CellRecord);
const original = notebookOf(['x = 1', 'search.fit(X, y)']);

describe('swallowed fit errors', () => {
  it('parses the last traceback line into class and message', () => {
    assert.deepEqual(parseErrorLine(AUTO), { ename: 'InvalidParameterError', evalue: AUTO.slice(AUTO.indexOf(': ') + 2) });
    assert.deepEqual(parseErrorLine('ValueError: bad'), { ename: 'ValueError', evalue: 'bad' });
    assert.equal(parseErrorLine('    return f(x)'), undefined);
  });

  it('a clean cell whose search swallowed a known API break fails on it, with the counts in its traceback', () => {
    const e = swallowedError(rec({ swallowed: [{ error: AUTO, fits: 3, of: 6 }] }), original);
    assert.equal(e?.ename, 'InvalidParameterError');
    assert.match(e!.evalue, /Got 'auto' instead/);
    assert.match(e!.traceback[0], /3 of 6 fits/);
  });

  it('every fit failed (the search raised ValueError): the wrapped error is the cell\'s', () => {
    const e = swallowedError(rec({ status: 'error', error: { ename: 'ValueError', evalue: '\nAll the 6 fits failed.\n...', traceback: [] }, swallowed: [{ error: AUTO, fits: 6, of: 6 }] }), original);
    assert.equal(e?.ename, 'InvalidParameterError');
  });

  it('left alone: an error no rule knows, the author\'s own failing fits, an expected error', () => {
    assert.equal(swallowedError(rec({ swallowed: [{ error: 'ValueError: Input contains NaN.', fits: 2, of: 6 }] }), original), undefined);
    const authorHadIt = notebookOf(['x = 1', 'search.fit(X, y)']);
    (authorHadIt.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stderr', text: 'FitFailedWarning: 3 fits failed out of a total of 6.' }];
    assert.equal(swallowedError(rec({ swallowed: [{ error: AUTO, fits: 3, of: 6 }] }), authorHadIt), undefined);
    assert.equal(swallowedError(rec({ swallowed: [{ error: AUTO, fits: 3, of: 6 }], expectedError: { ename: 'X', reason: 'r' } }), original), undefined);
  });

  it('surfaceSwallowed marks the records (cells and ran alike) and the run as failed when a rule finds the code to rewrite', async () => {
    const work = notebookOf([
      'from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV',
      "search = GridSearchCV(RandomForestRegressor(), {'max_features': ['auto', 'sqrt']}).fit(X, y)",
      'RandomForestClassifier()',
    ]);
    const cells = [rec({ index: 0, codeIndex: 0 }), rec({ swallowed: [{ error: AUTO, fits: 3, of: 6 }] }), rec({ index: 2, codeIndex: 2 })];
    const state = { notebook: original, cells, ran: cells.slice(1), status: 'ok', complete: true, fresh: true } as RunState;
    const out = await surfaceSwallowed(state, original, work);
    assert.equal(out.status, 'error');
    assert.equal(out.cells[1].status, 'error');
    assert.equal(out.ran[0].error?.ename, 'InvalidParameterError');
    assert.equal(out.cells[2].status, 'ok');
    // The same error where no rule finds the grid (built by a function): the run is left to the oracle.
    const opaque = notebookOf(['from sklearn.ensemble import RandomForestRegressor, RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV', 'search = GridSearchCV(RandomForestRegressor(), make_grid()).fit(X, y)', '']);
    assert.equal(await surfaceSwallowed(state, original, opaque), state);
    const clean = { ...state, cells: [rec()], ran: [rec()] } as RunState;
    assert.equal(await surfaceSwallowed(clean, original, work), clean);
  });
});

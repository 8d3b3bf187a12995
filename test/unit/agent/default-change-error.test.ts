/**
 * An error no rule repairs, in a cell the author's run finished, can come from a default that
 * changed upstream (SVR's gamma 'auto' -> 'scale' in scikit-learn 0.22 makes negative predictions a
 * later mean_squared_log_error refuses): the pins acting on the failing cell are offered as verified
 * candidates, kept only when the stored values then agree.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleFixer } from '../../../src/agent/rule-fixer.js';
import type { Problem } from '../../../src/agent/fixers.js';
import { notebookOf } from '../rules/support.js';

function failing(nb: ReturnType<typeof notebookOf>, cell: number, ename: string, evalue: string): Problem {
  return {
    diagnosis: { kind: 'fix', fixType: 'error-repair', cell, signature: `err:${cell}`, why: `${ename}: ${evalue}`, error: { ename, evalue, traceback: [] } },
    step: 1, notebook: nb, state: { notebook: nb, cells: [], ran: [], status: 'error', complete: false, fresh: true },
    escalate: false, attempts: [], isNew: () => true, oracle: (() => ({ comparisons: [] })) as any, environment: {} as any, emit: () => {},
  };
}

const cells = [
  'import numpy as np\nfrom sklearn.svm import SVR\nfrom sklearn.metrics import mean_squared_log_error',
  'X = np.arange(20).reshape(10, 2)\ny = np.arange(10.0)',
  'sv = SVR()\nsv.fit(X, y)\npred = sv.predict(X)',
  'print(np.sqrt(mean_squared_log_error(y, pred)))',
  "print('unrelated', 1 / 0)",
];
const recorded = (counts: Array<number | null>, errorIn?: number) => {
  const nb = notebookOf(cells);
  nb.cells.forEach((c, i) => {
    if (c.cell_type !== 'code') return;
    c.execution_count = counts[i] ?? null;
    if (i === errorIn) c.outputs = [{ output_type: 'error', ename: 'ValueError', evalue: 'x', traceback: [] }];
  });
  return nb;
};
const ids = (p: Awaited<ReturnType<ReturnType<typeof ruleFixer>['propose']>>) => (p?.kind === 'candidates' ? p.candidates.flatMap((c) => (c.patch.source.kind === 'rule' ? c.patch.source.ruleIds : [])) : []);

describe('an error a changed default causes: the pins acting on the failing cell, verified', () => {
  it('offers the SVR gamma pin for a ValueError in a recorded cell the SVR feeds, accepted only when the record agrees', async () => {
    const nb = recorded([1, 2, 3, 4, 5]);
    const p = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(failing(nb, 3, 'ValueError', 'Mean Squared Logarithmic Error cannot be used when targets contain negative values.'));
    assert.ok(ids(p).includes('sklearn-pin-svm-gamma'), ids(p).join(', '));
    assert.ok(p?.kind === 'candidates' && p.candidates.every((c) => c.patch.fixType === 'error-repair'));
    assert.ok(p?.kind === 'candidates' && !p.accept({ rank: 'runs-drifts' } as any) && p.accept({ rank: 'agrees' } as any));
  });
  it('offers nothing for an API error, a cell the author never ran or one whose stored outputs hold an error, or a cell no pin feeds', async () => {
    const nb = recorded([1, 2, 3, 4, 5]);
    const fixer = ruleFixer({ original: nb, dataFiles: [], era: {} });
    assert.equal(await fixer.propose(failing(nb, 3, 'AttributeError', "'SVR' object has no attribute 'x'")), undefined);
    assert.equal(await fixer.propose(failing(nb, 3, 'KeyError', "'x'")), undefined);
    const never = recorded([1, 2, 3, null, 5]);
    assert.equal(await ruleFixer({ original: never, dataFiles: [], era: {} }).propose(failing(never, 3, 'ValueError', 'negative')), undefined);
    const own = recorded([1, 2, 3, 4, 5], 3);
    assert.equal(await ruleFixer({ original: own, dataFiles: [], era: {} }).propose(failing(own, 3, 'ValueError', 'negative')), undefined);
    assert.equal(await fixer.propose(failing(nb, 4, 'ZeroDivisionError', 'division by zero')), undefined);
  });
});

describe('after the rules\' own candidates', () => {
  it('the pins come last, each needing the record\'s agreement', async () => {
    const nb = recorded([1, 2, 3, 4, 5]);
    const p = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(failing(nb, 3, 'ValueError', 'Mean Squared Logarithmic Error cannot be used when targets contain negative values.'));
    assert.equal(p?.kind, 'candidates');
    if (p?.kind !== 'candidates') return;
    const pins = p.candidates.filter((c) => c.needsAgreement);
    assert.ok(pins.length >= 1 && pins.every((c) => c.patch.source.kind === 'rule' && c.patch.source.ruleIds.some((id) => id.startsWith('sklearn-pin-'))));
  });
});

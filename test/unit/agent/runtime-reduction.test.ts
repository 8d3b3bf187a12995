/**
 * Over the time or memory budget, the rules first restore the old defaults the era makes certain
 * (they are what the author ran, and often what made the cell big), then parallelize; out of
 * memory is diagnosed as a resource problem, not an error to repair.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose } from '../../../src/agent/diagnosis.js';
import { ruleFixer } from '../../../src/agent/rule-fixer.js';
import type { Problem } from '../../../src/agent/fixers.js';
import type { CellRecord } from '../../../src/core/run-result.js';
import { notebookOf } from '../rules/support.js';

const noVerdict = () => { throw new Error('the oracle is not consulted for a failed run'); };

function problem(nb: ReturnType<typeof notebookOf>, cell: number, why = 'budget', threads?: number): Problem {
  return {
    diagnosis: { kind: 'fix', fixType: 'runtime-reduction', cell, signature: `slow:${cell}`, why },
    step: 1, notebook: nb, state: { notebook: nb, cells: [], ran: [], status: 'budget-exceeded', complete: false, fresh: true },
    escalate: false, attempts: [], isNew: () => true, oracle: noVerdict as any, environment: { threads } as any, emit: () => {},
  };
}

describe('runtime reduction', () => {
  it('a kernel killed for memory is a runtime-reduction problem of that cell; other errors stay error-repair', () => {
    const cell = (index: number, over: Partial<CellRecord>): CellRecord => ({ index, codeIndex: index, status: 'ok', executionCount: index + 1, durationMs: 10, startedAt: null, peakMemoryBytes: null, outputsTruncated: false, ...over } as CellRecord);
    const cells: CellRecord[] = [
      cell(0, {}),
      cell(1, { status: 'kernel-died', error: { ename: 'MemoryError', evalue: 'the kernel was killed: out of memory (sandbox limit 8192 MB)', traceback: [] } }),
    ];
    const d = diagnose('kernel-died', cells, noVerdict);
    assert.equal(d.kind === 'fix' && d.fixType, 'runtime-reduction');
    assert.equal(d.kind === 'fix' && d.cell, 1);
    assert.match(d.kind === 'fix' ? d.why : '', /out of memory/);
    cells[1] = cell(1, { status: 'error', error: { ename: 'ValueError', evalue: 'x', traceback: [] } });
    const e = diagnose('error', cells, noVerdict);
    assert.equal(e.kind === 'fix' && e.fixType, 'error-repair');
  });

  it('over the run budget, the slowest cell of the run is the one to reduce, not the one the budget ran out in; a cell over its own timeout is itself', () => {
    const cell = (index: number, status: CellRecord['status'], s: number): CellRecord => ({ index, codeIndex: index, status, executionCount: index + 1, durationMs: s * 1000, startedAt: null, peakMemoryBytes: null, outputsTruncated: false });
    const budget = diagnose('budget-exceeded', [cell(0, 'ok', 3), cell(1, 'ok', 140), cell(2, 'ok', 5), cell(3, 'budget-exceeded', 42)], noVerdict);
    assert.equal(budget.kind === 'fix' && budget.cell, 1);
    assert.match(budget.kind === 'fix' ? budget.why : '', /budget-exceeded: cell 1 took 140 s/);
    const timeout = diagnose('timeout', [cell(0, 'ok', 3), cell(1, 'ok', 140), cell(2, 'timeout', 120)], noVerdict);
    assert.equal(timeout.kind === 'fix' && timeout.cell, 2);
  });

  it("a drift is quoted from a cell that fails the verdict, not from a partial one (rows a shorter display left out)", () => {
    const ok: CellRecord = { index: 0, codeIndex: 0, status: 'ok', executionCount: 1, durationMs: 1, startedAt: null, peakMemoryBytes: null, outputsTruncated: false };
    const verdict = () => ({
      oracle: 'stored-outputs', matches: false, summary: '',
      comparisons: [
        { cell: 2, original: 1, new: null, relDiff: null, ok: false, context: '5 | 0: 1' },
        { cell: 7, original: 0.8, new: null, relDiff: null, ok: false, context: 'acc 0.8' },
      ],
      details: { cellsFailing: [7] },
    }) as any;
    const d = diagnose('ok', [ok], verdict);
    assert.equal(d.kind === 'fix' && d.cell, 7);
    assert.match(d.kind === 'fix' ? d.why : '', /0\.8 -> null \(acc/);
  });

  it('an era known to predate 0.22 pins the forest size in the cells up to the slow one, before n_jobs', async () => {
    const nb = notebookOf([
      'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import cross_val_score',
      'forest = RandomForestClassifier()\nprint(cross_val_score(forest, X, y).mean())',
      'later = RandomForestClassifier()',
    ]);
    const fixer = ruleFixer({ original: nb, dataFiles: [], era: { versions: { 'scikit-learn': '0.19.1' } } });
    const p = await fixer.propose(problem(nb, 1));
    assert.equal(p?.kind, 'patch');
    const patch = p!.kind === 'patch' ? p!.patch : undefined;
    assert.equal(patch?.fixType, 'runtime-reduction');
    // Cell 0 gets StratifiedKFold's pre-0.22 folds (SK092, certain for this era too); cell 2 nothing.
    assert.deepEqual(patch?.edits.map((e) => e.cell), [0, 1], 'only cells up to the slow one');
    assert.match((patch?.edits[0] as { newSource: string }).newSource, /_sk_folds_pre022_/);
    const src = (patch?.edits[1] as { newSource: string }).newSource;
    assert.match(src, /RandomForestClassifier\(n_estimators=10\)/);
    assert.match(src, /cv=3/);
  });

  it("an era known to predate 0.22 and a search whose best parameters the next cell printed: the era's pins and the restricted grid are one verified candidate", async () => {
    const cells = [
      'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV',
      "grid = {'max_depth': [2, 4, 8], 'n_estimators': [100, 400]}\nclf = GridSearchCV(RandomForestClassifier(random_state=1), param_grid=grid)\nclf.fit(X, y)",
      'clf.best_params_',
    ];
    const nb = notebookOf(cells);
    const original = structuredClone(nb);
    (original.cells[2] as any).outputs = [{ output_type: 'execute_result', execution_count: 3, metadata: {}, data: { 'text/plain': "{'max_depth': 4,\n 'n_estimators': 400}" } }];
    const fixer = ruleFixer({ original, dataFiles: [], era: { versions: { 'scikit-learn': '0.20.3' } } });
    const p = await fixer.propose(problem(nb, 1));
    assert.equal(p?.kind, 'candidates');
    const c = p!.kind === 'candidates' ? p!.candidates[0]! : undefined;
    const slow = (c?.patch.edits.find((e) => e.cell === 1) as { newSource: string }).newSource;
    assert.match(slow, /param_grid=\{'max_depth': \[4\], 'n_estimators': \[400\]\}/, 'the grid restricted to the printed best');
    assert.match(slow, /cv=3/, "and the era's 3 folds in the same cell");
    assert.ok(c?.patch.source.kind === 'rule' && c.patch.source.ruleIds.includes('sklearn-search-pin-stored-best'));
  });

  it("the era's pins ride with the search restriction only if the cells they feed agree; once that pair is refused, the restriction alone is next, the pins not forced in", async () => {
    const cells = [
      'import pandas as pd\nfrom sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV',
      "train = pd.read_csv('train.csv')\ntest = pd.read_csv('test.csv')\nfull = pd.concat([train, test])\nprint(list(full.columns)[:2])",
      "grid = {'max_depth': [2, 4, 8]}\nclf = GridSearchCV(RandomForestClassifier(random_state=1), param_grid=grid)\nclf.fit(X, y)",
      'clf.best_params_',
    ];
    const nb = notebookOf(cells);
    const original = structuredClone(nb);
    (original.cells[3] as any).outputs = [{ output_type: 'execute_result', execution_count: 4, metadata: {}, data: { 'text/plain': "{'max_depth': 4}" } }];
    const era = { versions: { 'scikit-learn': '0.20.3', pandas: '0.23.4' } };
    const comparisons = [{ cell: 1, ok: false, original: 'b', new: 'a' }, { cell: 3, ok: true, original: 4, new: 4 }];
    const oracle = () => ({ comparisons });
    const base = { ...problem(nb, 2), oracle: oracle as any };
    const first = await ruleFixer({ original, dataFiles: [], era }).propose(base);
    assert.equal(first?.kind, 'candidates');
    if (first?.kind !== 'candidates') return;
    assert.ok(first.candidates[0]!.patch.edits.some((e) => e.cell === 1), 'the concat pin is in the pair');
    assert.ok(first.candidates[1]!.patch.edits.every((e) => e.cell !== 1), 'and the restriction alone is the next candidate');
    const ran = { cells: [0, 1, 2, 3].map((index) => ({ index, status: 'ok' })) } as any;
    const outcome = first.rank(ran, 1, 10, first.candidates[0]!);
    assert.equal(outcome.rank, 'runs-drifts', 'the drift in cell 1, which the concat pin feeds, is judged');
    assert.equal(first.accept(outcome), false);
    // Both refused: asked again, the rules never force the pins in unverified.
    const tried = new Set(first.candidates.slice(0, 1).map((c) => JSON.stringify(c.patch.edits)));
    const next = await ruleFixer({ original, dataFiles: [], era }).propose({ ...base, isNew: (c) => !tried.has(JSON.stringify(c.patch.edits)) });
    assert.equal(next?.kind, 'candidates');
    if (next?.kind !== 'candidates') return;
    assert.ok(next.candidates.every((c) => c.patch.edits.every((e) => e.cell !== 1)), 'no pin of cell 1');
    assert.ok(next.candidates[0]!.patch.source.kind === 'rule' && next.candidates[0]!.patch.source.ruleIds.includes('sklearn-search-pin-stored-best'));
  });

  it('an unknown era leaves the defaults alone and parallelizes instead', async () => {
    const nb = notebookOf([
      'from sklearn.ensemble import RandomForestClassifier\nforest = RandomForestClassifier(random_state=0)\nforest.fit(X, y)',
    ]);
    const fixer = ruleFixer({ original: nb, dataFiles: [], era: {} });
    const p = await fixer.propose(problem(nb, 0));
    const patch = p?.kind === 'patch' ? p.patch : undefined;
    assert.deepEqual(patch?.source, { kind: 'rule', ruleIds: ['sklearn-parallel-n-jobs'] });
    assert.match((patch?.edits[0] as { newSource: string }).newSource, /random_state=0, n_jobs=-1/);
  });

  it('with one thread per notebook (an audit as wide as the cores) n_jobs=-1 is not proposed: it would run one worker', async () => {
    const nb = notebookOf([
      'from sklearn.ensemble import RandomForestClassifier\nforest = RandomForestClassifier(random_state=0)\nforest.fit(X, y)',
    ]);
    const fixer = ruleFixer({ original: nb, dataFiles: [], era: {} });
    const p = await fixer.propose(problem(nb, 0, 'budget', 1));
    const ids = p?.kind === 'patch' ? (p.patch.source.kind === 'rule' ? p.patch.source.ruleIds : []) : p?.kind === 'candidates' ? p.candidates.flatMap((c) => (c.patch.source.kind === 'rule' ? c.patch.source.ruleIds : [])) : [];
    assert.ok(!ids.includes('sklearn-parallel-n-jobs'), JSON.stringify(ids));
    const two = await fixer.propose(problem(nb, 0, 'budget', 2));
    assert.deepEqual(two?.kind === 'patch' && two.patch.source, { kind: 'rule', ruleIds: ['sklearn-parallel-n-jobs'] });
  });

  it('an unknown era, already parallel: the pins that shrink work become candidates, kept only if the run gets past the slow cell and agrees', async () => {
    const nb = notebookOf([
      'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV',
      'lr = LogisticRegression().fit(X, y)',
      'g = GridSearchCV(RandomForestClassifier(n_jobs=-1), {"max_depth": [2, 3]}, n_jobs=-1).fit(X, y)',
      'later = GridSearchCV(RandomForestClassifier(), {}, n_jobs=-1)',
    ]);
    const fixer = ruleFixer({ original: nb, dataFiles: [], era: {} });
    const p = await fixer.propose(problem(nb, 2));
    assert.equal(p?.kind, 'candidates');
    if (p?.kind !== 'candidates') return;
    // Only cell 2 (the solver pin of cell 1 changes no cost; cell 3 comes after the slow cell).
    assert.deepEqual(p.candidates.map((c) => c.patch.edits.map((e) => e.cell)), [[2]]);
    assert.equal(p.candidates[0]!.patch.fixType, 'runtime-reduction');
    const src = (p.candidates[0]!.patch.edits[0] as { newSource: string }).newSource;
    assert.match(src, /RandomForestClassifier\(n_jobs=-1, n_estimators=10\)/);
    assert.match(src, /cv=3/);
    // Ranked against the slow cell: still over the budget there is not kept; past it and agreeing is.
    const rec = (index: number, status: string) => ({ index, codeIndex: index, status, executionCount: 1, durationMs: 1, startedAt: null, peakMemoryBytes: null, outputsTruncated: false } as CellRecord);
    const st = (cells: CellRecord[]) => ({ notebook: nb, cells, ran: cells, status: 'ok', complete: true, fresh: false }) as any;
    const slowProblem = { ...problem(nb, 2), state: st([rec(0, 'ok'), rec(1, 'ok'), rec(2, 'budget-exceeded')]), oracle: () => ({ comparisons: [] }) as any };
    const q = await fixer.propose(slowProblem);
    if (q?.kind !== 'candidates') return assert.fail('candidates expected');
    const still = q.rank(st([rec(0, 'ok'), rec(1, 'ok'), rec(2, 'budget-exceeded')]), 2, 1, q.candidates[0]!);
    assert.equal(q.accept(still), false);
    const past = q.rank(st([rec(0, 'ok'), rec(1, 'ok'), rec(2, 'ok'), rec(3, 'ok')]), 2, 2, q.candidates[0]!);
    assert.equal(past.rank, 'agrees');
    assert.equal(q.accept(past), true);
  });
});

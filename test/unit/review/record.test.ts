/** The written notebook and review.json (decision record), and the page's model (dependents shown, outputs, drift). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText, type Notebook } from '../../../src/core/notebook.js';
import { ReviewRecord } from '../../../src/core/review-record.js';
import { acceptAll, resolve } from '../../../src/agent/review/decisions.js';
import type { ReviewChange } from '../../../src/agent/review/changes.js';
import { decisionRecord, reviewedNotebook, type LastRun } from '../../../src/agent/review/reviewed-notebook.js';
import { reviewView } from '../../../src/agent/review/view.js';

const out = (text: string) => [{ output_type: 'stream' as const, name: 'stdout' as const, text }];
const code = (source: string, text?: string) => ({ cell_type: 'code' as const, source, metadata: {}, outputs: text === undefined ? [] : out(text), execution_count: text === undefined ? null : 1 });
const nb = (cells: Notebook['cells']): Notebook => ({ nbformat: 4, nbformat_minor: 4, metadata: {}, cells });

const ORIGINAL = nb([{ cell_type: 'markdown', source: '# t', metadata: {} }, code('print x', 'x 1\n'), code('y = np.float(2.5)\nprint(y)', '2.5\n'), code('print(x + y)', '3.5\n')]);
const CHANGES: ReviewChange[] = [
  { id: 'c1', fix: 1, step: 0, cell: 1, fixType: 'error-repair', sourceKind: 'rule', source: 'py2-print-statement', rules: [{ id: 'py2-print-statement', code: 'PY001', library: 'python' }], summary: '', trigger: 'static scan', before: 'print x', after: 'print(x)' },
  { id: 'c2', fix: 2, step: 0, cell: 2, fixType: 'error-repair', sourceKind: 'rule', source: 'numpy-builtin-type-aliases', rules: [{ id: 'numpy-builtin-type-aliases', code: 'NP001', library: 'numpy' }], summary: '', trigger: 'static scan', before: 'y = np.float(2.5)\nprint(y)', after: 'y = float(2.5)\nprint(y)' },
  { id: 'c3', fix: 3, step: 1, cell: 2, fixType: 'score-calibration', sourceKind: 'llm', source: 'gpt-4.1-mini', rules: [], summary: '', trigger: 'drift', before: 'y = float(2.5)\nprint(y)', after: 'y = float(2.5)\nprint(y * 1)', llm: { prompt: 'fix it', replies: ['```python\n...```'] } },
];
/** Modernize's final run: the modernized code with its outputs. */
const MODERNIZED = nb([ORIGINAL.cells[0]!, code('print(x)', 'x 1\n'), code('y = float(2.5)\nprint(y * 1)', '2.5\n'), code('print(x + y)', '3.7\n')]);
const FINAL: LastRun = { from: 'modernize', executed: MODERNIZED, verdict: 'not-reproduced', reason: 'drift' };
const src = (cell: number) => sourceText(ORIGINAL.cells[cell]?.source);

it('all accepted: the written notebook is the modernized one, outputs of the final run, changed cells marked', () => {
  const decisions = acceptAll(CHANGES);
  const resolution = resolve(src, CHANGES, decisions);
  const { notebook, current } = reviewedNotebook({ original: ORIGINAL, changes: CHANGES, decisions, resolution, lastRun: FINAL });
  assert.equal(current, true);
  assert.deepEqual(notebook.cells.map((c) => sourceText(c.source)), MODERNIZED.cells.map((c) => sourceText(c.source)));
  assert.deepEqual((notebook.cells[3] as any).outputs, out('3.7\n'));
  assert.deepEqual((notebook.cells[2]!.metadata as any).nbmodernize, {
    changed: true, fixType: 'score-calibration', sources: ['numpy-builtin-type-aliases', 'gpt-4.1-mini'],
    review: [{ id: 'c2', source: 'numpy-builtin-type-aliases', decision: 'accepted', effect: 'applied' }, { id: 'c3', source: 'gpt-4.1-mini', decision: 'accepted', effect: 'applied' }],
  });
  assert.equal((notebook.cells[3]!.metadata as any).nbmodernize, undefined, 'an untouched cell is not marked');
  assert.deepEqual(notebook.metadata.nbmodernize, { reviewed: true, verdict: 'not-reproduced', verdictFrom: 'modernize' });
  assert.equal(sourceText(ORIGINAL.cells[1]!.source), 'print x', 'the original is not modified');
});

it('a rejection without a re-run: the decided code, outputs only where the last run ran that very code, the record says so', () => {
  const decisions = acceptAll(CHANGES);
  decisions.set('c2', 'rejected');
  const resolution = resolve(src, CHANGES, decisions);
  const { notebook, current } = reviewedNotebook({ original: ORIGINAL, changes: CHANGES, decisions, resolution, lastRun: FINAL });
  assert.equal(current, false);
  assert.equal(sourceText(notebook.cells[2]!.source), 'y = np.float(2.5)\nprint(y * 1)', 'c3 rebased onto the original line');
  assert.deepEqual((notebook.cells[2] as any).outputs, [], 'not run as written');
  assert.deepEqual((notebook.cells[1] as any).outputs, out('x 1\n'), 'cell 1 ran exactly this code');
  assert.equal((notebook.metadata.nbmodernize as any).verdict, 'not-run');
  const record = decisionRecord({ changes: CHANGES, decisions, resolution, lastRun: FINAL, current, files: { original: 'o.ipynb', modernized: 'm.ipynb', reviewed: 'r.ipynb' }, at: new Date('2026-01-02T03:04:05Z') });
  assert.deepEqual(ReviewRecord.parse(record), record, 'valid against its schema');
  assert.deepEqual(record.decisions.map((d) => [d.id, d.decision, d.effect, d.codes]), [['c1', 'accepted', 'applied', ['PY001']], ['c2', 'rejected', 'rejected', ['NP001']], ['c3', 'accepted', 'rebased', []]]);
  assert.deepEqual(record.totals, { changes: 3, accepted: 2, rejected: 1, blocked: 0 });
  assert.deepEqual(record.run, { from: 'modernize', verdict: 'not-reproduced', reason: 'drift', current: false });
  assert.equal(record.reviewedAt, '2026-01-02T03:04:05.000Z');
});

it('the page model: dependents of each change, word diffs, outputs before/after, drifted values of the cell', () => {
  const decisions = acceptAll(CHANGES);
  decisions.set('c2', 'rejected');
  const view = reviewView({
    name: 't', originalPath: 'o.ipynb', outDir: '/out', original: ORIGINAL, changes: CHANGES, decisions, resolution: resolve(src, CHANGES, decisions), lastRun: FINAL,
    drift: [{ cell: 3, original: 3.5, new: 3.7, ok: false }, { cell: 3, original: 1, new: 1.5, ok: false, unjudged: 'nondeterministic' }, { cell: 1, original: 1, new: 1, ok: true }],
  });
  const c2 = view.changes.find((c) => c.id === 'c2')!;
  assert.deepEqual(c2.dependents, [{ id: 'c3', why: 'same-cell' }]);
  assert.equal(c2.decision, 'rejected');
  assert.deepEqual(c2.words.filter((w) => w.op !== '='), [{ op: '-', text: 'np.' }]);
  assert.equal(view.changes.find((c) => c.id === 'c3')!.effect, 'rebased');
  const [md, c1, cell2, cell3] = view.cells;
  assert.equal(md!.outputsBefore, undefined);
  assert.deepEqual(c1!.changes, ['c1']);
  assert.equal(cell2!.outputsCurrent, false, 'cell 2 as decided has not run');
  assert.equal(cell3!.outputsBefore, '3.5\n');
  assert.equal(cell3!.outputsAfter, '3.7\n');
  assert.deepEqual(cell3!.drift, [{ original: 3.5, new: 3.7 }], 'nondeterministic values are not shown as drift');
  assert.equal(cell3!.diff, undefined, 'no diff for an untouched cell');
  assert.deepEqual(view.run, { from: 'modernize', verdict: 'not-reproduced', reason: 'drift', current: false });
});

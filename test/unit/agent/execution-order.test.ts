import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderForNameError, recordedOrder, reorderCells, runUpOrder, runUpReplay } from '../../../src/agent/execution-order.js';
import { makeNotebook, withCounts } from '../../support/notebooks.js';
import type { CellEdit } from '../../../src/core/patch.js';
import { makeNotebook as withMarkdown } from '../context/fixtures.js';


describe('execution order', () => {
  it('recordedOrder sorts by stored counts, keeps uncounted cells after their predecessor, undefined when already in order', () => {
    assert.deepEqual(recordedOrder(withCounts(['a', 'b', 'c', 'd'], [1, 4, null, 2])), [0, 3, 1, 2]);
    assert.equal(recordedOrder(withCounts(['a', 'b'], [1, 2])), undefined);
    assert.equal(recordedOrder(withCounts(['a', 'b'], [null, null])), undefined);
  });

  it('moves a helper defined later but run earlier, with what it needs that also sits later', async () => {
    const nb = withCounts(['import math', 'print(area(2))', 'def area(r):\n    return PI * r * r', 'PI = math.pi', 'print(1)'], [1, 5, 4, 2, 6]);
    const r = await orderForNameError(nb, nb, 1, 'area');
    assert.deepEqual(r?.order, [0, 3, 2, 1, 4]);
    assert.deepEqual(r?.moved, [3, 2]);
    assert.match(r!.why, /cell 3 \[2\], cell 2 \[4\] before cell 1 \[5\]/);
  });

  it('a cell the author ran before the moved one, touching what it reads, moves with it (in recorded order)', async () => {
    const cells = ['def fill(d):\n    d["age"] = 30\ndata = {"age": None}', 'print(features)', 'fill(data)', 'features = dict(data)'];
    const nb = withCounts(cells, [1, 9, 5, 7]);
    const r = await orderForNameError(nb, nb, 1, 'features');
    assert.deepEqual(r?.order, [0, 2, 3, 1]);
    assert.deepEqual(r?.moved, [2, 3]);
    // Run after the moved cell by the author: it stays where it is.
    const after = withCounts(cells, [1, 9, 8, 7]);
    assert.deepEqual((await orderForNameError(after, after, 1, 'features'))?.order, [0, 3, 1, 2]);
    // Touching nothing the moved cell reads: it stays too.
    const unrelated = withCounts(['data = {}', 'print(features)', 'x = 2', 'features = dict(data)'], [1, 9, 5, 7]);
    assert.deepEqual((await orderForNameError(unrelated, unrelated, 1, 'features'))?.order, [0, 3, 1, 2]);
  });

  it('no order repair when the name is never defined, defined earlier, or defined later and run later', async () => {
    const never = withCounts(['print(x)'], [1]);
    assert.equal(await orderForNameError(never, never, 0, 'x'), undefined);
    const later = withCounts(['print(x)', 'x = 1'], [1, 2]);
    assert.equal(await orderForNameError(later, later, 0, 'x'), undefined);
    const noCounts = withCounts(['print(x)', 'x = 1'], [null, null]);
    assert.equal(await orderForNameError(noCounts, noCounts, 0, 'x'), undefined);
  });

  it('reorderCells fills the code-cell slots in the new order and leaves markdown in place', () => {
    const nb = makeNotebook(['a = 1', { markdown: '# note' }, 'b = a', 'c = b']);
    const { notebook, newIndex } = reorderCells(nb, [0, 3, 2]);
    assert.deepEqual(notebook.cells.map((c: any) => c.source), ['a = 1', '# note', 'c = b', 'b = a']);
    assert.equal(newIndex.get(3), 2);
    assert.equal(newIndex.get(1), 1);
  });
});

describe('unproven execution order', () => {
  it('a name defined only later, with counts that say otherwise, is still a (weaker) move candidate', async () => {
    const { unprovenOrdersForNameError } = await import('../../../src/agent/execution-order.js');
    const nb = withCounts(['import math', 'print(f(1))', 'def f(x):\n    return x + 1'], [1, 2, 3]);
    const [r, ...others] = await unprovenOrdersForNameError(nb, 1, 'f');
    assert.deepEqual(r?.order, [0, 2, 1]);
    assert.match(r!.why, /only definition of f comes later in the file/);
    assert.deepEqual(others, []);
    assert.deepEqual(await unprovenOrdersForNameError(nb, 1, 'nowhere'), []);
  });

  it('the nearest later definition comes first (the smallest move), the last one after it', async () => {
    const { unprovenOrdersForNameError } = await import('../../../src/agent/execution-order.js');
    // The author's kernel had `df` from an earlier pass; the loops that bind it come later, and the
    // last one drops a column that a cell in between still shows.
    const nb = withCounts([
      'frames = [dict(a=1, t=2)]',
      'print(df)',
      'for df in frames:\n    df["a"] += 1',
      'print(frames[0]["t"])',
      'for df in frames:\n    del df["t"]',
    ], [1, 2, 3, 4, 5]);
    const plans = await unprovenOrdersForNameError(nb, 1, 'df');
    assert.deepEqual(plans.map((p) => p.moved), [[2], [2, 3, 4]]);
    assert.deepEqual(plans[0].order, [0, 2, 1, 3, 4]);
    assert.match(plans[0].why, /the nearest definition, the smallest move/);
    assert.match(plans[1].why, /the last definition/);
  });
});

describe('unproven moves leave the failing cell\'s readers in place, and are also offered as a replay', () => {
  // The author's kernel held `sc` from an earlier run of the scaler cell, which the file has (and
  // the stored counts show) after the cells that join and plot the scaled columns.
  const cells = [
    'df = dict(w=[1, 2])',
    'df = dict(df, pc=sc(df["w"]))',
    'cols = ["pc"]\nprint(df[cols[0]])',
    'df = dict(w=[3, 4])\nsc = lambda v: [x / 2 for x in v]',
  ];

  it('a cell between that reads what the failing cell binds is not taken along (before: moved above it, it broke)', async () => {
    const { unprovenOrdersForNameError } = await import('../../../src/agent/execution-order.js');
    const nb = withCounts(cells, [1, 2, 3, 9]);
    const [plan] = await unprovenOrdersForNameError(nb, 1, 'sc');
    assert.deepEqual(plan?.moved, [3]);
    assert.deepEqual(plan?.order, [0, 3, 1, 2]);
  });

  it('a moved cell that rebinds what it reads (X = f(X)) still needs the cell that bound it first', async () => {
    const { unprovenOrdersForNameError } = await import('../../../src/agent/execution-order.js');
    const nb = withCounts(['df = 1', 'print(sc(1))', 'X = [1, 2, 3]', 'X = [v * 2 for v in X]', 'Xw = X[1:]', 'sc = (lambda v: v) if Xw else None'], [1, 2, 3, 4, 5, 6]);
    const [plan] = await unprovenOrdersForNameError(nb, 1, 'sc');
    assert.deepEqual(plan?.moved, [2, 3, 4, 5]);
  });

  it('nor a cell whose input a cell staying below the failing one last changed', async () => {
    const { unprovenOrdersForNameError } = await import('../../../src/agent/execution-order.js');
    // Cell 2 joins columns into df; cell 3 plots them; cell 4 reloads df and fits the scaler.
    const nb = withCounts(['df = {}', 'df = dict(df, pc=sc(1))', 'print(df["pc"])', 'df = {"w": 1}\nsc = lambda v: v * df["w"]'], [1, 2, 3, 4]);
    const [plan] = await unprovenOrdersForNameError(nb, 1, 'sc');
    assert.deepEqual(plan?.moved, [3]);
  });

  it('an import in a cell that stays (a plot of the failing cell\'s columns) is run first by the replay, not a reason to move that cell', async () => {
    const { unprovenOrdersForNameError, unprovenReplay } = await import('../../../src/agent/execution-order.js');
    // The plotting cell imports again what the first cell imported: the last binding before the moved cell.
    const nb = withCounts(['import math as m\ndf = {}', 'df = dict(df, pc=sc(1))', 'import math as m\nprint(df["pc"])', 'w = m.sqrt(4)\nsc = lambda v: v * w'], [1, 2, 3, 4]);
    const [plan] = await unprovenOrdersForNameError(nb, 1, 'sc');
    assert.deepEqual(plan?.moved, [3]);
    assert.deepEqual(plan?.imports, ['import math as m']);
    assert.equal(unprovenReplay(nb, plan!)?.source, 'import math as m\n\nw = m.sqrt(4)\nsc = lambda v: v * w');
  });

  it('the replay (the cells again, originals kept) comes first when the stored counts say they ran last after the failing cell', async () => {
    const { repairCandidates } = await import('../../../src/agent/repair-candidates.js');
    const nb = withCounts(cells, [1, 2, 3, 9]);
    const error = { ename: 'NameError', evalue: "name 'sc' is not defined", traceback: [] };
    const out = await repairCandidates({ notebook: nb, original: nb, cell: 1, error } as any);
    const labels = out.map((c: any) => c.label).filter((l: string) => /unproven/.test(l));
    assert.deepEqual(labels.slice(0, 2), ['run again (unproven): cells 3 before cell 1', 'run order (unproven): cells 3 before cell 1']);
    const replay = out.find((c: any) => c.label.startsWith('run again (unproven)'))!;
    assert.deepEqual(replay.patch.edits, [{ cell: 1, op: 'insert', position: 'before', newSource: cells[3] }]);
    // No counts to say so: the move first.
    const bare = withCounts(cells, [null, null, null, null]);
    const plain = (await repairCandidates({ notebook: bare, original: bare, cell: 1, error } as any)).map((c: any) => c.label).filter((l: string) => /unproven/.test(l));
    assert.deepEqual(plain.slice(0, 2), ['run order (unproven): cells 3 before cell 1', 'run again (unproven): cells 3 before cell 1']);
  });
});

test('layoutCells: inserted cells in their place, deleted ones gone, markdown travels with the code below it', async () => {
  const { layoutCells, hasStructuralEdits } = await import('../../../src/agent/execution-order.js');
  const { applyPatchEdits, patchedOrder, withPatchedSources } = await import('../../../src/fixers/llm/index.js');
  const nb = withMarkdown([{ md: '# Load' }, 'import numpy as np', { md: '## Use' }, 'res = f(np.arange(3))', 'print("debug", tmp)', { md: '## Helper' }, 'def f(x):\n    return x * 2', { md: 'The end.' }]);
  const edits: CellEdit[] = [
    { cell: 3, op: 'insert', position: 'before', newSource: 'SCALE = 2' },
    { cell: 6, op: 'move', before: 3 },
    { cell: 4, op: 'delete', reason: 'debug print of an undefined name' },
  ];
  const work = withPatchedSources(nb, applyPatchEdits(nb, edits).sources, edits);
  const order = patchedOrder(nb, undefined, edits)!;
  assert.deepEqual(order, [1, 8, 6, 3, 4]);
  assert.equal(hasStructuralEdits(work, nb.cells.length), true);
  assert.equal(hasStructuralEdits(nb, nb.cells.length), false);
  const laid = layoutCells(work, order);
  const text = (c: any) => (Array.isArray(c.source) ? c.source.join('') : c.source).split('\n')[0];
  assert.deepEqual(laid.notebook.cells.map(text), ['# Load', 'import numpy as np', 'SCALE = 2', '## Helper', 'def f(x):', '## Use', 'res = f(np.arange(3))', 'The end.']);
  assert.deepEqual([...laid.origin], [[0, 0], [1, 1], [2, 8], [3, 5], [4, 6], [5, 2], [6, 3], [7, 7]]);
  assert.equal(laid.newIndex.has(4), false, 'the deleted cell is not written');
});

describe("the author's run-up", () => {
  it('replays the cells with the consecutive counts just below the failing one, in that order, just before it', () => {
    // [74] resets the frame, [75] adds a column, [76] reads it; the file has the reset after the column.
    const nb = withCounts(["df = raw.copy()\ndf['b'] = 1", "df['bath'] = df.b * 2", 'print(len(df))', 'df = raw.copy()', "print(df['bath'])", 'x = 1'], [70, 75, 71, 74, 76, 77]);
    const r = runUpOrder(nb, 4, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(r?.order, [0, 2, 3, 1, 4, 5]);
    assert.deepEqual(r?.moved, [3, 1]);
    assert.match(r!.why, /cell 3 \[74\], cell 1 \[75\] just before cell 4 \[76\]/);
  });
  it('run again instead of moved where a cell between reads what a run-up cell binds (the author ran it there too)', () => {
    const cells = ["survived = train[train.Survived == 1]", 'print(len(survived))', "train['Code'] = train.Embarked.map(codes)", "print(survived['Code'].sum())"];
    const nb = withCounts(cells, [2, 3, 4, 5]);
    nb.cells[0] = { ...nb.cells[0]!, execution_count: 6 } as any;
    (nb.cells[3] as any).execution_count = 7;
    const order = [0, 1, 2, 3];
    const r = runUpOrder(nb, 3, order)!;
    assert.deepEqual(r.moved, [0]);
    assert.deepEqual(runUpReplay(nb, nb, r, 3, order), { source: 'survived = train[train.Survived == 1]', cells: [0] });
    // Nothing between reads it: moving it is the run-up.
    const free = withCounts(['y = 2', 'z = 1', 'print(y + z)'], [3, 1, 4]);
    const m = runUpOrder(free, 2, [0, 1, 2]);
    assert.ok(m === undefined || runUpReplay(free, free, m, 2, [0, 1, 2]) === undefined);
    // A reader the author never ran (no count) says nothing about an earlier run.
    const never = withCounts(cells, [6, null, 4, 7]);
    const n = runUpOrder(never, 3, order)!;
    assert.equal(runUpReplay(never, never, n, 3, order), undefined);
  });

  it('nothing when the file already runs them that way, the failing cell has no count, or no count precedes it', () => {
    assert.equal(runUpOrder(withCounts(['a', 'b', 'c'], [1, 2, 3]), 2, [0, 1, 2]), undefined);
    assert.equal(runUpOrder(withCounts(['a', 'b', 'c'], [1, 2, null]), 2, [0, 1, 2]), undefined);
    assert.equal(runUpOrder(withCounts(['a', 'b', 'c'], [5, 9, 3]), 2, [0, 1, 2]), undefined);
  });
});

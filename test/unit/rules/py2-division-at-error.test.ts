import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { floatIndexPatches } from '../../../src/fixers/rules/py2-division-at-error.js';
import { notebookOf } from './support.js';

const py2 = (cells: string[]) => {
  const nb = notebookOf(cells);
  nb.metadata = { kernelspec: { name: 'python2', display_name: 'Python 2', language: 'python' } };
  return nb;
};
const SLICE = { ename: 'TypeError', evalue: 'slice indices must be integers or None or have an __index__ method' };

describe('floatIndexPatches', () => {
  it("the division behind a float slice bound, in another cell, becomes '//'; true divisions elsewhere stay", async () => {
    const nb = py2(['n = len(rows) / 2\nratio = a / b', 'first = rows[:n]\nscaled = rows_arr / 255.0']);
    const [c] = await floatIndexPatches(nb, 1, SLICE, [{ cell: 1, line: 1 }]);
    assert.ok(c);
    assert.deepEqual(c.patch.edits.map((e: any) => [e.cell, e.newSource]), [[0, 'n = len(rows) // 2\nratio = a / b']]);
  });
  it('a division written in the index or in range() itself', async () => {
    const nb = py2(['for i in range(len(x) / 3):\n    print(x[i * 2 / 2])']);
    const [c] = await floatIndexPatches(nb, 0, { ename: 'TypeError', evalue: "'float' object cannot be interpreted as an integer" }, [{ cell: 0, line: 1 }]);
    assert.equal((c!.patch.edits[0] as any).newSource, 'for i in range(len(x) // 3):\n    print(x[i * 2 / 2])');
  });
  it("Python 3: a float slice bound is truncated with int() where it is used, as numpy < 1.12 did", async () => {
    const nb = notebookOf(['n = len(rows) * 0.8', 'train = rows[:n]\ntest = rows[n:]\nk = rows[:3]']);
    const cands = await floatIndexPatches(nb, 1, SLICE, [{ cell: 1, line: 1 }]);
    assert.deepEqual(cands.map((c) => c.label), ['float index truncated with int() in cells 1']);
    // The line after the failing one would fail next the same way: truncated too; the line before ran.
    assert.equal((cands[0]!.patch.edits[0] as any).newSource, 'train = rows[:int(n)]\ntest = rows[int(n):]\nk = rows[:3]');
    const later = await floatIndexPatches(notebookOf(['n = len(rows) * 0.8', 'k = rows[:n]\ntrain = rows[:n]\ntest = rows[n:]']), 1, SLICE, [{ cell: 1, line: 2 }]);
    assert.equal((later[0]!.patch.edits[0] as any).newSource, 'k = rows[:n]\ntrain = rows[:int(n)]\ntest = rows[int(n):]');
  });
  it("pandas' float slice error: the bound written in place; a Python 2 notebook gets '//' first, then int()", async () => {
    const err = { ename: 'TypeError', evalue: 'cannot do slice indexing on RangeIndex with these indexers [712.8] of type float' };
    const [c] = await floatIndexPatches(notebookOf(['head = df[:len(df) * 0.8]']), 0, err);
    assert.equal((c!.patch.edits[0] as any).newSource, 'head = df[:int(len(df) * 0.8)]');
    const both = await floatIndexPatches(py2(['half = df[:len(df) / 2]']), 0, err);
    assert.deepEqual(both.map((x) => (x.patch.edits[0] as any).newSource), ['half = df[:len(df) // 2]', 'half = df[:int(len(df) / 2)]']);
  });
  it('the failing line inside a function another cell defines: the edit goes where the traceback points (and to the same function\'s later lines, which would fail next), not to the calling cell', async () => {
    const nb = py2(['def load():\n    m = len(rows)\n    head = rows[:-m/10]\n    tail = rows[-m/10:]\n    return head[:3], tail\nsplit = rows[:len(rows)/3]', 'x = load()\ny = x[:len(x) / 2]']);
    const frames = [{ cell: 1, line: 1 }, { cell: 0, line: 3, function: 'load' }];
    const [floor, trunc] = await floatIndexPatches(nb, 1, SLICE, frames);
    assert.deepEqual(floor!.patch.edits.map((e: any) => [e.cell, e.newSource]), [[0, 'def load():\n    m = len(rows)\n    head = rows[:-m//10]\n    tail = rows[-m//10:]\n    return head[:3], tail\nsplit = rows[:len(rows)/3]']]);
    assert.deepEqual(trunc!.patch.edits.map((e: any) => [e.cell, e.newSource]), [[0, 'def load():\n    m = len(rows)\n    head = rows[:int(-m/10)]\n    tail = rows[int(-m/10):]\n    return head[:3], tail\nsplit = rows[:len(rows)/3]']]);
  });
  it("matplotlib 3.5 rejects float subplot numbers that older versions truncated: int() in subplot()/add_subplot()", async () => {
    const err = { ename: 'ValueError', evalue: 'Number of rows must be a positive integer, not 2.0' };
    const [c] = await floatIndexPatches(notebookOf(['for i, col in enumerate(cols):\n    plt.subplot(len(cols) / 2, 2, i + 1)\n    ax = fig.add_subplot(np.ceil(n / 3), 3, i + 1)']), 0, err, [{ cell: 0, line: 2 }]);
    assert.equal((c!.patch.edits[0] as any).newSource, 'for i, col in enumerate(cols):\n    plt.subplot(int(len(cols) / 2), 2, i + 1)\n    ax = fig.add_subplot(int(np.ceil(n / 3)), 3, i + 1)');
  });
  it('nothing for bounds that are not floats by construction, or another error', async () => {
    const nb = notebookOf(['n = len(rows) + 2', 'first = rows[:n]']);
    assert.deepEqual(await floatIndexPatches(nb, 1, SLICE), []);
    assert.deepEqual(await floatIndexPatches(py2(['n = len(rows) / 2', 'first = rows[:n]']), 1, { ename: 'KeyError', evalue: 'x' }), []);
  });
});

/** MPL069: a subplot specification built as a string, or an Axes handed to subplot(), from the runtime error. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

const repair = async (cells: string[], cell: number, evalue: string, line: number) => {
  const error = { ename: 'ValueError', evalue, traceback: [] };
  const patches = await rulesForError(notebookOf(cells), cell, error, { runtime: { failingCell: cell, ...error, frames: [{ cell, line }], types: {} } });
  const p = patches.find((x) => x.source.kind === 'rule' && x.source.ruleIds.includes('mpl-subplot-string-spec'));
  return p?.edits.map((e) => (e.op === 'replace' ? e.newSource : ''));
};

describe('mpl-subplot-string-spec', () => {
  it('wraps a specification held in a variable in int(), on the traced line only', async () => {
    const cells = ['import matplotlib.pyplot as plt', "for i in range(6):\n    ii = '23' + str(i + 1)\n    plt.subplot(ii)\n    plt.subplot(k)"];
    assert.deepEqual(await repair(cells, 1, "Single argument to subplot must be a three-digit integer, not '231'", 3),
      ["for i in range(6):\n    ii = '23' + str(i + 1)\n    plt.subplot(int(ii))\n    plt.subplot(k)"]);
  });

  it('makes a given Axes current with sca, unless the call\'s value is used', async () => {
    const cells = ['import matplotlib.pyplot as plt', 'plt.subplot(ax21)\nplt.plot(x)'];
    assert.deepEqual(await repair(cells, 1, 'Single argument to subplot must be a three-digit integer, not <Axes: >', 1), ['plt.sca(ax21)\nplt.plot(x)']);
    assert.equal(await repair(['import matplotlib.pyplot as plt', 'a = plt.subplot(ax21)'], 1, 'Single argument to subplot must be a three-digit integer, not <Axes: >', 1), undefined);
  });
});

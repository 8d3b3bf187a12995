import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { plotKeywordPatches } from '../../../src/fixers/rules/plot-keyword-at-error.js';
import { notebookOf } from './support.js';

const TB = ['Cell In[3], line 2', 'File /usr/lib/python3/dist-packages/matplotlib/axes/_axes.py:3690, in Axes.errorbar(...)'];
const XERR = { ename: 'ValueError', evalue: "'xerr' (shape: (10,)) must be a scalar or a 1D or (2, n) array-like whose shape matches 'x' (shape: (1,))", traceback: TB };

describe('plotKeywordPatches', () => {
  it("drops the option the message names first, from a **{...} literal or a keyword", async () => {
    const nb = notebookOf(["g = sns.barplot(x='m', y='a', data=d, orient='h', **{'xerr': s})", "g = sns.barplot(x='m', y='a', data=d, xerr=s, palette='Set3')"]);
    const [a] = await plotKeywordPatches(nb, 0, XERR);
    assert.equal((a!.patch.edits[0] as any).newSource, "g = sns.barplot(x='m', y='a', data=d, orient='h')");
    const [b] = await plotKeywordPatches(nb, 1, XERR);
    assert.equal((b!.patch.edits[0] as any).newSource, "g = sns.barplot(x='m', y='a', data=d, palette='Set3')");
  });
  it('a pair among others in the literal goes with its comma', async () => {
    const nb = notebookOf(["ax.bar(x, h, **{'xerr': s, 'color': 'k'})"]);
    const [a] = await plotKeywordPatches(nb, 0, XERR);
    assert.equal((a!.patch.edits[0] as any).newSource, "ax.bar(x, h, **{'color': 'k'})");
  });
  it('nothing when the traceback does not go through a plotting library, or no call passes the option', async () => {
    const nb = notebookOf(["f(xerr=s)"]);
    assert.deepEqual(await plotKeywordPatches(nb, 0, { ...XERR, traceback: ['Cell In[3], line 1', 'File /x/sklearn/base.py:1, in fit'] }), []);
    assert.deepEqual(await plotKeywordPatches(notebookOf(['plt.bar(x, h)']), 0, XERR), []);
  });
});

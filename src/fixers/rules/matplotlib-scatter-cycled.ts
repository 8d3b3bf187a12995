/**
 * Until matplotlib 3.1, `scatter` handed a colour list and the sizes to its PathCollection as given,
 * and a collection cycles its face colours and sizes over its points: a list of colour names longer
 * (or shorter) than the points coloured them in turn, extra entries unused; sizes did the same
 * (matplotlib issue #12021 describes it). PR #13959 (3.1) checks both against the number of points:
 * "'c' argument has N elements, which is inconsistent with 'x' and 'y' with size M" and "s must be a
 * scalar, or float array-like with the same size as x and y".
 *
 * The repair restores the cycling where the old release cycled: one shim after the notebook's first
 * matplotlib / seaborn / pandas import wraps `Axes.scatter` (pyplot, pandas and seaborn all reach
 * it) and cycles a colour-spec list (names, or rows of RGB(A); as `c`, `color` or `facecolor(s)`)
 * and a size array to the number of points. Numbers meant for a colour map are left alone: a wrong count of those failed then too
 * ("Invalid RGBA argument"), so nothing is invented for them. Calls with `data=` are untouched.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { plottingImport, shimAfterImport, type ShimSpec } from './import-shim.js';
import { atRuntimeError } from './traceback.js';

const MARK = '_mpl_scatter_';

export const SCATTER_CYCLED_SHIM = [
  '# matplotlib before 3.1 cycled scatter colour lists and sizes over the points when the lengths differed',
  `import matplotlib.axes as ${MARK}`,
  `${MARK}.Axes._mpl_scatter_today_ = getattr(${MARK}.Axes, '_mpl_scatter_today_', ${MARK}.Axes.scatter)`,
  'def _mpl_scatter_cycled_(self, x, y, s=None, c=None, *args, **kw):',
  '    import numpy as np',
  "    n = np.size(x) if kw.get('data') is None and np.size(x) == np.size(y) else 0",
  '    def cycled(v):',
  '        if not n or v is None or isinstance(v, str) or np.ndim(v) < 1 or len(v) in (0, 1, n): return v',
  '        try: mapped = np.ndim(v) == 1 and np.asarray(v, dtype=float) is not None',
  '        except (TypeError, ValueError): mapped = False',
  '        if mapped: return v',
  '        vl = list(np.asarray(v, dtype=object) if np.ndim(v) == 2 else v); return [vl[i % len(vl)] for i in range(n)]',
  // color= (pandas' scatter_matrix passes it) and facecolor(s)= are checked as c is.
  "    c = cycled(c); kw.update({k: cycled(kw[k]) for k in ('color', 'facecolor', 'facecolors') if k in kw})",
  '    if n and s is not None and np.ndim(s) >= 1 and np.size(s) not in (1, n):',
  '        sl = np.ravel(np.asarray(s, dtype=float)); s = sl[np.arange(n) % sl.size]',
  '    return self._mpl_scatter_today_(x, y, s, c, *args, **kw)',
  `${MARK}.Axes.scatter = _mpl_scatter_cycled_`,
].join('\n');

const C_COUNT = /'c' argument has \d+ elements, which is inconsistent with 'x' and 'y' with size \d+/;
const S_COUNT = /s must be a scalar, or float array-like with the same size as x and y/;

const SHIM: ShimSpec = { mark: MARK, text: SCATTER_CYCLED_SHIM, qualifies: plottingImport };

const FIXTURE = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  "pc = plt.scatter([1, 2, 3], [4, 5, 6], c=['red', 'blue', 'red', 'blue', 'red'], s=[10, 20])",
  'print(len(pc.get_facecolors()), pc.get_facecolors()[:, 0].tolist(), pc.get_sizes().tolist())',
].join('\n');

export const mplScatterCycled: Rule = rule({
  id: 'mpl-scatter-cycled-colours',
  // The shim goes into the cell of the first plotting import: the rule must run there.
  triggers: ['matplotlib', 'seaborn', 'pandas'],
  library: 'matplotlib',
  title: 'scatter colour list or sizes of another length than the points (cycled until 3.1)',
  old: "plt.scatter(df.Age, df.Fare, c=colors)  # colors built before rows were dropped",
  new: '# a shim after the first matplotlib import cycles the colours and sizes over the points, as before 3.1',
  removedIn: '3.1',
  trigger: 'error',
  errors: [err('ValueError', C_COUNT), err('ValueError', S_COUNT)],
  errorScope: 'notebook',
  shim: true,
  link: 'https://github.com/matplotlib/matplotlib/pull/13959',
  message: "until matplotlib 3.1 scatter cycled a colour list and the marker sizes over the points when their lengths differed; 3.1 rejects the mismatch: a shim after the first plotting import restores the cycling (numbers for a colour map are left alone, they failed then too)",
  fixtures: [{
    before: FIXTURE,
    after: FIXTURE.replace('import matplotlib\n', `import matplotlib\n${SCATTER_CYCLED_SHIM}\n`),
    expect: '3 [1.0, 0.0, 1.0] [10.0, 20.0, 10.0]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "'c' argument has 5 elements, which is inconsistent with 'x' and 'y' with size 3." } },
  }],
  *find(ctx) {
    if (!atRuntimeError(ctx, C_COUNT) && !atRuntimeError(ctx, S_COUNT)) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield m;
  },
});

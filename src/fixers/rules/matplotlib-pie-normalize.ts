/**
 * Until matplotlib 3.3, `pie` divided the wedge sizes by their sum only when the sum exceeded 1
 * (`if sx > 1: x = x / sx`): sizes summing to less than 1 drew a partial pie, and all-zero sizes
 * drew no wedge at all. 3.3 added `normalize` (None: the old rule, with a deprecation warning) and
 * 3.5 made it True, so all-zero sizes now divide 0 by 0 and fail inside `pie` with "cannot convert
 * float NaN to integer".
 *
 * The repair restores the old rule rather than guessing per call: one shim after the notebook's
 * first plotting import gives every `pie` without an explicit `normalize` the value the old release
 * acted on, `sum(x) > 1` (pyplot, pandas and seaborn all reach `Axes.pie`). Recognised from the
 * runtime error, whose traceback passes through `Axes.pie` (or through the figure's drawing for
 * display, when the failing cell calls `pie`).
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { plottingImport, shimAfterImport, type ShimSpec } from './import-shim.js';

const MARK = '_mpl_pie_';

export const PIE_NORMALIZE_SHIM = [
  '# matplotlib before 3.3 normalized pie sizes only when they summed to more than 1',
  `import matplotlib.axes as ${MARK}`,
  `${MARK}.Axes._mpl_pie_today_ = getattr(${MARK}.Axes, '_mpl_pie_today_', ${MARK}.Axes.pie)`,
  `import matplotlib.pyplot as ${MARK}pyplot_`,
  `${MARK}pyplot_._mpl_pie_today_ = getattr(${MARK}pyplot_, '_mpl_pie_today_', ${MARK}pyplot_.pie)`,
  'def _mpl_pie_old_kw_(x, kw):',
  '    import numpy as np',
  "    if 'normalize' not in kw: kw['normalize'] = bool(np.sum(np.asarray(x, dtype=float)) > 1)",
  '    return kw',
  // pyplot.pie always passes normalize on, so the choice is made there for pyplot calls, in Axes.pie for the rest.
  `${MARK}.Axes.pie = lambda self, x, *args, **kw: self._mpl_pie_today_(x, *args, **_mpl_pie_old_kw_(x, kw))`,
  `${MARK}pyplot_.pie = lambda x, *args, **kw: ${MARK}pyplot_._mpl_pie_today_(x, *args, **_mpl_pie_old_kw_(x, kw))`,
].join('\n');

/** A frame of the traceback inside Axes.pie (IPython prints the qualified function name). */
const IN_PIE = /in Axes\.pie\(|matplotlib[\\/]axes[\\/]_axes\.py.*\bpie\b/;

const SHIM: ShimSpec = { mark: MARK, text: PIE_NORMALIZE_SHIM, qualifies: plottingImport };

const FIXTURE = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  'wedges, texts = plt.pie([0, 0], labels=["a", "b"])',
  'half = plt.pie([0.25, 0.25])[0]',
  'print(len(wedges), [round(w.theta2 - w.theta1) for w in half])',
].join('\n');

export const mplPieNormalize: Rule = rule({
  id: 'mpl-pie-normalize-above-one',
  // The shim goes into the cell of the first plotting import: the rule must run there.
  triggers: ['matplotlib', 'seaborn', 'pandas'],
  library: 'matplotlib',
  title: 'pie sizes normalized only when their sum exceeds 1 (until 3.3)',
  old: 'plt.pie(counts)  # counts all zero, or fractions summing below 1',
  new: '# a shim after the first matplotlib import passes normalize=sum(x) > 1, as before 3.3',
  removedIn: '3.5',
  deprecatedIn: '3.3',
  trigger: 'error',
  errors: [err('ValueError', /cannot convert float NaN to integer/)],
  errorScope: 'notebook',
  shim: true,
  link: 'https://matplotlib.org/stable/api/prev_api_changes/api_changes_3.3.0/deprecations.html',
  message: "until matplotlib 3.3 pie divided the sizes by their sum only when it exceeded 1 (all-zero sizes drew nothing, fractions below 1 a partial pie); today it always normalizes and all-zero sizes fail: a shim after the first plotting import restores the old rule",
  fixtures: [{
    before: FIXTURE,
    after: FIXTURE.replace('import matplotlib\n', `import matplotlib\n${PIE_NORMALIZE_SHIM}\n`),
    expect: '2 [90, 90]',
    beforeError: 'ValueError',
    context: {
      runtime: {
        ename: 'ValueError',
        evalue: 'cannot convert float NaN to integer',
        traceback: ['File /usr/lib/python3/dist-packages/matplotlib/axes/_axes.py:3400, in Axes.pie(self, x, explode, labels, colors)'],
      },
    },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    // The error surfaces in Axes.pie, or when the figure is drawn for display (then the failing cell calls pie).
    const failing = rt && ctx.nb.cells.find((c) => c.index === rt.failingCell);
    if (!rt || !(rt.traceback.some((l) => IN_PIE.test(l)) || /\bpie\s*\(/.test(failing?.source ?? ''))) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield m;
  },
});

/**
 * pandas 1.0 unified the Series and DataFrame plot accessors and deprecated positional arguments to
 * `Series.plot` (FutureWarning: "The order of positional arguments will change in the future"); 2.0
 * raises TypeError. The old order was Series.plot(kind, ax, figsize, use_index, title, grid, legend,
 * style, logx, logy, loglog, xticks, yticks, xlim, ylim, rot, fontsize, colormap, table, yerr, xerr,
 * label, secondary_y): `s.plot('bar', ax=ax[0])` meant `s.plot(kind='bar', ax=ax[0])`, as the
 * message itself spells out. A DataFrame's plot still takes them (x, y, kind, ...), and which
 * receiver is a Series only the run knows, so the rule fires from the error, on the traced lines.
 */
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, methodCall } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

const SERIES_PLOT_POSITIONAL = /`Series\.plot\(\)` should not be called with positional arguments/;

/** pandas 0.x's Series.plot parameters, in order (pandas 2.2 plotting/_core.py `arg_def` for a Series). */
export const SERIES_PLOT_ORDER = [
  'kind', 'ax', 'figsize', 'use_index', 'title', 'grid', 'legend', 'style', 'logx', 'logy', 'loglog', 'xticks', 'yticks',
  'xlim', 'ylim', 'rot', 'fontsize', 'colormap', 'table', 'yerr', 'xerr', 'label', 'secondary_y',
];

export const pandasSeriesPlotPositional: Rule = rule({
  id: 'pandas-series-plot-positional',
  triggers: ['plot'],
  library: 'pandas',
  title: 'Series.plot with positional arguments',
  old: "s.plot('bar', ax=ax[0])",
  new: "s.plot(kind='bar', ax=ax[0])",
  removedIn: '2.0',
  deprecatedIn: '1.0',
  trigger: 'error',
  errors: [err('TypeError', SERIES_PLOT_POSITIONAL)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#other-api-changes',
  message: "Series.plot took its parameters positionally in pandas 0.x (kind, ax, figsize, ...); deprecated in 1.0, a TypeError since 2.0: they become the keywords they stood for",
  fixtures: [{
    // A fresh Axes of its own: the fixture kernel is shared, and ax=None would draw on the current one.
    before: "import pandas as pd\nimport matplotlib.pyplot as plt\ns = pd.Series([3, 1, 2], index=['a', 'b', 'c'])\nax = s.plot('bar', plt.figure().add_subplot())\nprint(type(ax).__name__, len(ax.patches))",
    after: "import pandas as pd\nimport matplotlib.pyplot as plt\ns = pd.Series([3, 1, 2], index=['a', 'b', 'c'])\nax = s.plot(kind='bar', ax=plt.figure().add_subplot())\nprint(type(ax).__name__, len(ax.patches))",
    expect: 'Axes 3',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: "`Series.plot()` should not be called with positional arguments, only keyword arguments. The order of positional arguments will change in the future. Use `Series.plot(kind='bar', ax=<Axes: >)` instead of `Series.plot('bar', <Axes: >)`." } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, SERIES_PLOT_POSITIONAL);
    if (!at || !isTracedCell(ctx)) return;
    for (const call of ctx.nodes('call')) {
      if (methodCall(call)?.name !== 'plot' || !at.onLine(call)) continue;
      const args = callArgs(call);
      if (!args || args.splat || args.listSplat || args.positional.length === 0 || args.positional.length > SERIES_PLOT_ORDER.length) continue;
      const names = SERIES_PLOT_ORDER.slice(0, args.positional.length);
      if (names.some((n) => args.keywords.has(n))) continue;
      const edits: TextEdit[] = args.positional.map((p, k) => ({ start: p.startIndex, end: p.startIndex, text: `${names[k]}=` }));
      yield { node: call, edits };
    }
  },
});

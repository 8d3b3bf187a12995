/**
 * matplotlib API removals (doc/api/prev_api_changes, 2.2 … 3.10) that no hand-written rule in
 * matplotlib.ts covers. Checked in the fixed environment (3.10).
 */
import type { Callee, TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const API = (v: string, anchor = '') => `https://matplotlib.org/stable/api/prev_api_changes/api_changes_${v}.html${anchor}`;
const PLT = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.close('all')\n";
/** pyplot functions and the Axes methods of the same name (names distinctive enough to match on any receiver). */
const pltAndAxes = (...names: string[]): Callee[] => names.flatMap((n) => [{ qname: `matplotlib.pyplot.${n}` }, { method: n, receiver: 'any' as const }]);
const anyMethod = (...names: string[]): Callee[] => names.map((method) => ({ method, receiver: 'any' as const }));
const pltOnly = (...names: string[]): Callee[] => names.map((n) => ({ qname: `matplotlib.pyplot.${n}` }));
/** Artist properties passed on to `Artist.set` fail with AttributeError, not TypeError. */
const noProperty = (kw: string) => err('AttributeError', new RegExp(`(unexpected keyword argument|no property) '${kw}'`));
const SCALE = [...pltAndAxes('xscale', 'yscale', 'semilogx', 'semilogy', 'loglog'), { method: 'set_xscale', receiver: 'any' as const }, { method: 'set_yscale', receiver: 'any' as const }];

const imshowUnused = (kwarg: string): TableEntry => ({
  kind: 'drop-kwarg', id: `mpl-imshow-${kwarg}`, library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
  callees: pltAndAxes('imshow'), kwarg, always: true, why: 'it was unused',
  errors: [noProperty(kwarg)],
  link: API('3.3.0', '#arguments'),
  message: `imshow(${kwarg}=) was removed in matplotlib 3.3`,
  fixtures: [{
    before: PLT + `import numpy as np\nim = plt.imshow(np.zeros((2, 3)), ${kwarg}=None)\nprint(im.get_array().shape)`,
    after: PLT + 'import numpy as np\nim = plt.imshow(np.zeros((2, 3)))\nprint(im.get_array().shape)',
    expect: '(2, 3)', beforeError: 'AttributeError',
  }],
});

const cbookWarning = (name: string): TableEntry => ({
  kind: 'move-symbol', id: `mpl-cbook-${name === 'mplDeprecation' ? 'mpl-deprecation' : 'deprecation-warning'}`, library: 'matplotlib',
  removedIn: '3.8', deprecatedIn: '3.6',
  from: `matplotlib.cbook.${name}`, to: 'matplotlib.MatplotlibDeprecationWarning',
  link: API('3.8.0', '#cbook-removals'),
  message: `matplotlib.cbook.${name} was removed in matplotlib 3.8: use matplotlib.MatplotlibDeprecationWarning`,
  fixtures: [{
    before: `import warnings\nimport matplotlib\nwarnings.filterwarnings('ignore', category=matplotlib.cbook.${name})\nprint(warnings.filters[0][2].__name__)`,
    after: "import warnings\nimport matplotlib\nwarnings.filterwarnings('ignore', category=matplotlib.MatplotlibDeprecationWarning)\nprint(warnings.filters[0][2].__name__)",
    expect: 'MatplotlibDeprecationWarning', beforeError: 'AttributeError',
  }, {
    before: `from matplotlib.cbook import ${name}\nprint(${name}.__name__)`,
    after: `from matplotlib import MatplotlibDeprecationWarning${name === 'mplDeprecation' ? ' as mplDeprecation' : ''}\nprint(${name}.__name__)`,
    expect: 'MatplotlibDeprecationWarning', beforeError: 'ImportError',
  }],
});

const logScaleKw = (from: string, to: string, axis: 'x' | 'y'): TableEntry => ({
  kind: 'rename-kwarg', id: `mpl-log-scale-${from}`, library: 'matplotlib', removedIn: '3.5', deprecatedIn: '3.3',
  callees: SCALE, from, to,
  link: API('3.3.0', '#deprecations'),
  message: `log-scale ${from}= was renamed ${to}= in matplotlib 3.3 (removed 3.5)`,
  fixtures: [{
    before: PLT + `fig, ax = plt.subplots()\nax.set_${axis}scale('log', ${from}=${from.startsWith('nonpos') ? "'clip'" : from.startsWith('base') ? '2' : '[2, 5]'})\nprint(ax.get_${axis}scale())`,
    after: PLT + `fig, ax = plt.subplots()\nax.set_${axis}scale('log', ${to}=${from.startsWith('nonpos') ? "'clip'" : from.startsWith('base') ? '2' : '[2, 5]'})\nprint(ax.get_${axis}scale())`,
    expect: 'log', beforeError: 'TypeError',
  }],
});

/** A name removed without a behaviour change (its replacement is another importable name); old form: AttributeError. */
const moved = (id: string, from: string, to: string, [deprecatedIn, removedIn]: [string, string], why: string, ...fs: Array<{ before: string; after: string; expect: string }>): TableEntry => ({
  kind: 'move-symbol', id, library: 'matplotlib', removedIn, deprecatedIn, from, to,
  link: API(`${removedIn}.0`, '#removals'),
  message: `${from} was removed in matplotlib ${removedIn}: ${why}`,
  fixtures: fs.map((f) => ({ ...f, beforeError: 'AttributeError' })),
});

export const matplotlibTable: TableEntry[] = [
  logScaleKw('nonposx', 'nonpositive', 'x'),
  logScaleKw('nonposy', 'nonpositive', 'y'),
  logScaleKw('basex', 'base', 'x'),
  logScaleKw('basey', 'base', 'y'),
  logScaleKw('subsx', 'subs', 'x'),
  logScaleKw('subsy', 'subs', 'y'),
  {
    kind: 'rename-kwarg', id: 'mpl-bar-left', library: 'matplotlib', removedIn: '3.0', deprecatedIn: '2.0',
    callees: pltAndAxes('bar'), from: 'left', to: 'x',
    errors: [err('TypeError', /bar\(\) missing 1 required positional argument: 'x'/)],
    link: API('3.0.0', '#removals'),
    message: 'bar(left=) was renamed bar(x=) (bars are centred on x by default since 2.0)',
    fixtures: [{
      before: PLT + 'bars = plt.bar(left=[1, 2], height=[3, 4])\nprint(len(bars))',
      after: PLT + 'bars = plt.bar(x=[1, 2], height=[3, 4])\nprint(len(bars))',
      expect: '2', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'mpl-barh-bottom', library: 'matplotlib', removedIn: '3.0', deprecatedIn: '2.0',
    callees: pltAndAxes('barh'), from: 'bottom', to: 'y',
    errors: [err('TypeError', /barh\(\) missing 1 required positional argument: 'y'/)],
    link: API('3.0.0', '#removals'),
    message: 'barh(bottom=) was renamed barh(y=)',
    fixtures: [{
      before: PLT + 'bars = plt.barh(bottom=[1, 2], width=[3, 4])\nprint(len(bars))',
      after: PLT + 'bars = plt.barh(y=[1, 2], width=[3, 4])\nprint(len(bars))',
      expect: '2', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'mpl-annotate-s', library: 'matplotlib', removedIn: '3.5', deprecatedIn: '3.3',
    callees: pltAndAxes('annotate'), from: 's', to: 'text',
    errors: [err('TypeError', /annotate\(\) missing 1 required positional argument: 'text'/)],
    link: API('3.3.0', '#deprecations'),
    message: 'annotate(s=) was renamed annotate(text=) (removed 3.5)',
    fixtures: [{
      before: PLT + "a = plt.annotate(s='peak', xy=(0, 0))\nprint(a.get_text())",
      after: PLT + "a = plt.annotate(text='peak', xy=(0, 0))\nprint(a.get_text())",
      expect: 'peak', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-method', id: 'mpl-legend-handles', library: 'matplotlib', removedIn: '3.9', deprecatedIn: '3.7',
    receiver: 'any', from: 'legendHandles', to: 'legend_handles', attribute: true,
    link: API('3.7.0', '#deprecations'),
    message: 'Legend.legendHandles was renamed legend_handles (removed 3.9)',
    fixtures: [{
      before: PLT + "plt.plot([1, 2], label='a')\nleg = plt.legend()\nprint(len(leg.legendHandles))",
      after: PLT + "plt.plot([1, 2], label='a')\nleg = plt.legend()\nprint(len(leg.legend_handles))",
      expect: '1', beforeError: 'AttributeError',
    }],
  },
  ...(['x', 'y', 'z'] as const).map((a): TableEntry => ({
    kind: 'rename-method', id: `mpl-axes3d-w-${a}axis`, library: 'matplotlib', removedIn: '3.8', deprecatedIn: '3.1',
    receiver: 'any', from: `w_${a}axis`, to: `${a}axis`, attribute: true,
    link: API('3.8.0', '#removals'),
    message: `Axes3D.w_${a}axis was removed in matplotlib 3.8: use ${a}axis`,
    fixtures: [{
      before: PLT + `ax = plt.figure().add_subplot(projection='3d')\nprint(type(ax.w_${a}axis).__name__)`,
      after: PLT + `ax = plt.figure().add_subplot(projection='3d')\nprint(type(ax.${a}axis).__name__)`,
      expect: `${a.toUpperCase()}Axis`, beforeError: 'AttributeError',
    }],
  })),
  {
    kind: 'replace-value', id: 'mpl-errorbar-fmt-none', library: 'matplotlib', removedIn: '3.0', deprecatedIn: '1.4',
    callees: pltAndAxes('errorbar'), kwarg: 'fmt', values: { None: "'none'" },
    errors: [err('ValueError', /third arg must be a format string|fmt/)],
    link: API('3.0.0', '#removals'),
    message: "errorbar(fmt=None) was removed: use fmt='none' (error bars without markers or line)",
    fixtures: [{
      before: PLT + 'c = plt.errorbar([1, 2], [1, 2], yerr=[0.1, 0.1], fmt=None)\nprint(len(c.lines[2]))',
      after: PLT + "c = plt.errorbar([1, 2], [1, 2], yerr=[0.1, 0.1], fmt='none')\nprint(len(c.lines[2]))",
      expect: '1', beforeError: 'ValueError',
    }],
  },
  cbookWarning('mplDeprecation'),
  cbookWarning('MatplotlibDeprecationWarning'),
  {
    kind: 'drop-kwarg', id: 'mpl-use-warn', library: 'matplotlib', removedIn: '3.3',
    callees: [{ qname: 'matplotlib.use' }], kwarg: 'warn', always: true,
    why: 'switching to a non-interactive backend such as Agg does not fail; a failed switch now raises instead of warning',
    link: API('3.3.0', '#arguments'),
    message: 'matplotlib.use(warn=) was removed in matplotlib 3.3',
    fixtures: [{
      before: "import matplotlib\nmatplotlib.use('Agg', warn=False)\nprint(matplotlib.get_backend().lower())",
      after: "import matplotlib\nmatplotlib.use('Agg')\nprint(matplotlib.get_backend().lower())",
      expect: 'agg', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'mpl-use-arg', library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
    callees: [{ qname: 'matplotlib.use' }], from: 'arg', to: 'backend',
    link: API('3.3.0', '#arguments'),
    message: 'matplotlib.use(arg=) was renamed use(backend=) (removed 3.3)',
    fixtures: [{
      before: "import matplotlib\nmatplotlib.use(arg='Agg')\nprint(matplotlib.get_backend().lower())",
      after: "import matplotlib\nmatplotlib.use(backend='Agg')\nprint(matplotlib.get_backend().lower())",
      expect: 'agg', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'mpl-text-withdash', library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
    callees: pltAndAxes('text'), kwarg: 'withdash', onlyValues: ['False'], why: 'False was the default',
    errors: [noProperty('withdash')],
    link: API('3.3.0', '#arguments'),
    message: 'text(withdash=) was removed in matplotlib 3.3 (use annotate() for a dash)',
    fixtures: [{
      before: PLT + "t = plt.text(0, 0, 'a', withdash=False)\nprint(t.get_text())",
      after: PLT + "t = plt.text(0, 0, 'a')\nprint(t.get_text())",
      expect: 'a', beforeError: 'AttributeError',
    }],
  },
  imshowUnused('shape'),
  imshowUnused('imlim'),
  {
    kind: 'rename-kwarg', id: 'mpl-savefig-frameon', library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
    callees: [...pltOnly('savefig'), ...anyMethod('savefig')], from: 'frameon', to: 'facecolor', values: { False: "'none'" },
    link: API('3.3.0', '#arguments'),
    message: "savefig(frameon=) was removed in matplotlib 3.3: frameon=False (transparent background) is facecolor='none'",
    fixtures: [{
      before: PLT + "import io\nplt.plot([1, 2])\nbuf = io.BytesIO()\nplt.savefig(buf, format='png', frameon=False)\nbuf.seek(0)\nprint(plt.imread(buf)[0, 0, 3])",
      after: PLT + "import io\nplt.plot([1, 2])\nbuf = io.BytesIO()\nplt.savefig(buf, format='png', facecolor='none')\nbuf.seek(0)\nprint(plt.imread(buf)[0, 0, 3])",
      expect: '0.0', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'mpl-boxplot-manage-xticks', library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
    callees: pltAndAxes('boxplot', 'bxp'), from: 'manage_xticks', to: 'manage_ticks',
    link: API('3.3.0', '#arguments'),
    message: 'boxplot(manage_xticks=) was renamed manage_ticks= (removed 3.3)',
    fixtures: [{
      before: PLT + "fig, ax = plt.subplots()\nax.set_xticks([5])\nax.boxplot([[1, 2, 3]], manage_xticks=False)\nprint([float(t) for t in ax.get_xticks()])",
      after: PLT + "fig, ax = plt.subplots()\nax.set_xticks([5])\nax.boxplot([[1, 2, 3]], manage_ticks=False)\nprint([float(t) for t in ax.get_xticks()])",
      expect: '[5.0]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'mpl-scatter-verts', library: 'matplotlib', removedIn: '3.4', deprecatedIn: '3.0',
    callees: pltAndAxes('scatter'), from: 'verts', to: 'marker',
    errors: [noProperty('verts')],
    link: API('3.4.0', '#arguments'),
    message: 'scatter(verts=) was removed in matplotlib 3.4: pass the vertices as marker=',
    fixtures: [{
      before: PLT + "pc = plt.scatter([1], [1], verts=[(0, 0), (1, 1), (1, 0)])\nprint(len(pc.get_paths()[0].vertices))",
      after: PLT + "pc = plt.scatter([1], [1], marker=[(0, 0), (1, 1), (1, 0)])\nprint(len(pc.get_paths()[0].vertices))",
      expect: '3', beforeError: 'AttributeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'mpl-diverging-norm', library: 'matplotlib', removedIn: '3.4', deprecatedIn: '3.2',
    from: 'matplotlib.colors.DivergingNorm', to: 'matplotlib.colors.TwoSlopeNorm',
    link: API('3.4.0', '#classes-methods-and-attributes'),
    message: 'colors.DivergingNorm was renamed TwoSlopeNorm (removed 3.4)',
    fixtures: [{
      before: 'import matplotlib.colors as mcolors\nn = mcolors.DivergingNorm(vcenter=0, vmin=-1, vmax=4)\nprint(float(n(2)))',
      after: 'import matplotlib.colors as mcolors\nn = mcolors.TwoSlopeNorm(vcenter=0, vmin=-1, vmax=4)\nprint(float(n(2)))',
      expect: '0.75', beforeError: 'AttributeError',
    }, {
      before: 'from matplotlib.colors import DivergingNorm\nprint(float(DivergingNorm(vcenter=0, vmin=-1, vmax=4)(2)))',
      after: 'from matplotlib.colors import TwoSlopeNorm as DivergingNorm\nprint(float(DivergingNorm(vcenter=0, vmin=-1, vmax=4)(2)))',
      expect: '0.75', beforeError: 'ImportError',
    }],
  },
  {
    kind: 'replace-value', id: 'mpl-boxplot-whis-range', library: 'matplotlib', removedIn: '3.4', deprecatedIn: '3.2',
    callees: [...pltAndAxes('boxplot'), { qname: 'seaborn.boxplot' }], kwarg: 'whis', values: { "'range'": '(0, 100)' },
    errors: [err('ValueError', /whis must be a float or list of percentiles/)],
    link: API('3.4.0', '#arguments'),
    message: "boxplot(whis='range') was removed in matplotlib 3.4: whiskers over the whole data range are whis=(0, 100)",
    fixtures: [{
      before: PLT + "r = plt.boxplot([1, 2, 3, 4, 50], whis='range')\nprint([float(w.get_ydata()[1]) for w in r['whiskers']], len(r['fliers'][0].get_ydata()))",
      after: PLT + "r = plt.boxplot([1, 2, 3, 4, 50], whis=(0, 100))\nprint([float(w.get_ydata()[1]) for w in r['whiskers']], len(r['fliers'][0].get_ydata()))",
      expect: '[1.0, 50.0] 0', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'replace-value', id: 'mpl-adjustable-box-forced', library: 'matplotlib', removedIn: '3.1', deprecatedIn: '2.2',
    callees: [...pltAndAxes('axes', 'subplot'), ...anyMethod('set_aspect', 'set_adjustable', 'add_subplot', 'add_axes')],
    kwarg: 'adjustable', values: { "'box-forced'": "'box'" }, inDicts: true,
    errors: [err('ValueError', /'box-forced' is not a valid value for adjustable/)],
    link: API('3.1.0', '#arguments'),
    message: "adjustable='box-forced' was removed in matplotlib 3.1: use 'box'",
    fixtures: [{
      before: PLT + "fig, ax = plt.subplots()\nax.set_aspect('equal', adjustable='box-forced')\nprint(ax.get_adjustable())",
      after: PLT + "fig, ax = plt.subplots()\nax.set_aspect('equal', adjustable='box')\nprint(ax.get_adjustable())",
      expect: 'box', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'replace-value', id: 'mpl-vega-colormaps', library: 'matplotlib', removedIn: '2.2',
    callees: [
      ...pltAndAxes('scatter', 'imshow', 'pcolor', 'pcolormesh', 'contour', 'contourf', 'hexbin', 'matshow', 'hist2d', 'tripcolor', 'tricontourf'),
      ...['heatmap', 'clustermap', 'kdeplot'].map((n) => ({ qname: `seaborn.${n}` })),
    ],
    kwarg: 'cmap', values: { "'Vega10'": "'tab10'", "'Vega20'": "'tab20'", "'Vega20b'": "'tab20b'", "'Vega20c'": "'tab20c'" },
    errors: [err('ValueError', /'Vega(10|20[bc]?)' is not a valid value for (cmap|name)/)],
    link: API('2.2.0', '#color-maps'),
    message: 'the Vega* colormaps (aliases of tab*) were removed in matplotlib 2.2: Vega10 -> tab10, Vega20 -> tab20, ...',
    fixtures: [{
      before: PLT + "pc = plt.scatter([1, 2], [1, 2], c=[1, 2], cmap='Vega10')\nprint(pc.get_cmap().name)",
      after: PLT + "pc = plt.scatter([1, 2], [1, 2], c=[1, 2], cmap='tab10')\nprint(pc.get_cmap().name)",
      expect: 'tab10', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'rename-method', id: 'mpl-canvas-set-window-title', library: 'matplotlib', removedIn: '3.6', deprecatedIn: '3.4',
    receiver: 'any', from: 'set_window_title', to: 'manager.set_window_title', trigger: 'error',
    errors: [err('AttributeError', /'FigureCanvas\w*' object has no attribute 'set_window_title'/)],
    link: API('3.6.0', '#classes-methods-and-attributes'),
    message: 'FigureCanvas.set_window_title was removed in matplotlib 3.6: use fig.canvas.manager.set_window_title',
    fixtures: [{
      before: PLT + "fig = plt.figure()\nfig.canvas.set_window_title('run 1')\nprint(fig.number)",
      after: PLT + "fig = plt.figure()\nfig.canvas.manager.set_window_title('run 1')\nprint(fig.number)",
      expect: '1', beforeError: 'AttributeError',
    }],
  },
  {
    // `label` is far too common an attribute name to rename on sight: only after the Tick error.
    kind: 'rename-method', id: 'mpl-tick-label', library: 'matplotlib', removedIn: '3.8', deprecatedIn: '3.1',
    receiver: 'any', from: 'label', to: 'label1', attribute: true, trigger: 'error',
    errors: [err('AttributeError', /Tick' object has no attribute 'label'$/)],
    link: API('3.8.0', '#unused-methods-in-axis-tick-xaxis-and-yaxis'),
    message: 'Tick.label (an alias of label1) was removed in matplotlib 3.8: use tick.label1',
    fixtures: [{
      before: PLT + "fig, ax = plt.subplots()\nfor tick in ax.xaxis.get_major_ticks():\n    tick.label.set_fontsize(7)\nprint(ax.xaxis.get_major_ticks()[0].label1.get_fontsize())",
      after: PLT + "fig, ax = plt.subplots()\nfor tick in ax.xaxis.get_major_ticks():\n    tick.label1.set_fontsize(7)\nprint(ax.xaxis.get_major_ticks()[0].label1.get_fontsize())",
      expect: '7.0', beforeError: 'AttributeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'mpl-stem-use-line-collection', library: 'matplotlib', removedIn: '3.8', deprecatedIn: '3.6',
    callees: pltAndAxes('stem'), kwarg: 'use_line_collection', onlyValues: ['True'],
    why: 'a LineCollection is the only representation (the default since 3.3)',
    link: API('3.8.0', '#stem-use-line-collection-false'),
    message: 'stem(use_line_collection=) was removed in matplotlib 3.8',
    fixtures: [{
      before: PLT + "c = plt.stem([1, 2, 3], [1, 2, 3], use_line_collection=True)\nprint(type(c.stemlines).__name__)",
      after: PLT + "c = plt.stem([1, 2, 3], [1, 2, 3])\nprint(type(c.stemlines).__name__)",
      expect: 'LineCollection', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'mpl-colorbar-update-ticks', library: 'matplotlib', removedIn: '3.7', deprecatedIn: '3.5',
    callees: anyMethod('set_ticks', 'set_ticklabels'), kwarg: 'update_ticks', always: true,
    why: 'it was ignored since matplotlib 3.5 (ticks are updated at draw time)',
    errors: [err('ValueError', /Incorrect use of keyword argument 'update_ticks'/)],
    link: API('3.7.0', '#colorbar-tick-update-parameters'),
    message: 'Colorbar.set_ticks/set_ticklabels(update_ticks=) was removed in matplotlib 3.7',
    fixtures: [{
      before: PLT + "import numpy as np\ncb = plt.colorbar(plt.imshow(np.arange(4).reshape(2, 2)))\ncb.set_ticks([0, 3], update_ticks=True)\nprint([float(t) for t in cb.get_ticks()])",
      after: PLT + "import numpy as np\ncb = plt.colorbar(plt.imshow(np.arange(4).reshape(2, 2)))\ncb.set_ticks([0, 3])\nprint([float(t) for t in cb.get_ticks()])",
      expect: '[0.0, 3.0]', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'mpl-hold-kwarg', library: 'matplotlib', removedIn: '3.0', deprecatedIn: '2.0',
    callees: pltOnly('plot', 'scatter', 'bar', 'barh', 'hist', 'imshow', 'contour', 'contourf', 'errorbar', 'fill_between', 'step', 'stem', 'pie', 'boxplot', 'semilogx', 'semilogy', 'loglog', 'pcolormesh', 'axhline', 'axvline', 'hexbin'),
    kwarg: 'hold', onlyValues: ['True'], why: 'plots always accumulate now, as with hold=True',
    errors: [noProperty('hold')],
    link: API('3.0.0', '#hold-machinery'),
    message: 'the hold= keyword of the pyplot functions was removed in matplotlib 3.0',
    fixtures: [{
      before: PLT + "plt.plot([1, 2])\nplt.plot([2, 1], hold=True)\nprint(len(plt.gca().lines))",
      after: PLT + "plt.plot([1, 2])\nplt.plot([2, 1])\nprint(len(plt.gca().lines))",
      expect: '2', beforeError: 'AttributeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'mpl-axes-grid-make-axes-locatable', library: 'matplotlib', removedIn: '3.6', deprecatedIn: '2.1',
    from: 'mpl_toolkits.axes_grid.make_axes_locatable', to: 'mpl_toolkits.axes_grid1.make_axes_locatable',
    errors: [err('ModuleNotFoundError', /No module named 'mpl_toolkits\.axes_grid'/)],
    link: API('3.6.0', '#modules'),
    message: 'mpl_toolkits.axes_grid was removed in matplotlib 3.6: import make_axes_locatable from mpl_toolkits.axes_grid1',
    fixtures: [{
      before: PLT + "from mpl_toolkits.axes_grid import make_axes_locatable\nfig, ax = plt.subplots()\ncax = make_axes_locatable(ax).append_axes('right', size='5%', pad=0.05)\nprint(len(fig.axes))",
      after: PLT + "from mpl_toolkits.axes_grid1 import make_axes_locatable\nfig, ax = plt.subplots()\ncax = make_axes_locatable(ax).append_axes('right', size='5%', pad=0.05)\nprint(len(fig.axes))",
      expect: '2', beforeError: 'ModuleNotFoundError',
    }],
  },
  // Third pass (API changes 2.2–3.6 removals).
  moved('mpl-cbook-iterable', 'matplotlib.cbook.iterable', 'numpy.iterable', ['3.1', '3.3'], 'use numpy.iterable', {
    before: 'import numpy as np\nimport matplotlib.cbook as cbook\nprint(cbook.iterable([1]), cbook.iterable(1))',
    after: 'import numpy as np\nimport matplotlib.cbook as cbook\nprint(np.iterable([1]), np.iterable(1))',
    expect: 'True False',
  }),
  moved('mpl-cm-cmap-d', 'matplotlib.cm.cmap_d', 'matplotlib.colormaps', ['3.3', '3.6'], 'use matplotlib.colormaps (the registry, a mapping of name to colormap)', {
    before: "import matplotlib\nimport matplotlib.cm as cm\nprint('viridis' in cm.cmap_d, cm.cmap_d['jet'].name)",
    after: "import matplotlib\nimport matplotlib.cm as cm\nprint('viridis' in matplotlib.colormaps, matplotlib.colormaps['jet'].name)",
    expect: 'True jet',
  }, {
    before: PLT + "print(plt.cm.cmap_d['Blues_r'].name)", after: PLT + "print(matplotlib.colormaps['Blues_r'].name)", expect: 'Blues_r',
  }),
  // The string form (cmap='Vega10') is mpl-vega-colormaps.
  moved('mpl-cm-vega10', 'matplotlib.cm.Vega10', 'matplotlib.cm.tab10', ['2.0', '2.2'], 'use cm.tab10 (Vega10 was its alias)', {
    before: PLT + 'print(plt.cm.Vega10.name)', after: PLT + 'print(plt.cm.tab10.name)', expect: 'tab10',
  }, {
    before: 'import matplotlib.cm as cm\nprint(cm.Vega10.N)', after: 'import matplotlib.cm as cm\nprint(cm.tab10.N)', expect: '10',
  }),
  // API changes 3.0–3.10 read record by record (2026-11-27).
  ...([['axesPatch', 'ax', 'plt.subplots()[1]', 'Axes'], ['figurePatch', 'fig', 'plt.figure()', 'Figure']] as const).map(([from, v, make, cls]): TableEntry => ({
    kind: 'rename-method', id: `mpl-${from.replace('Patch', '')}-patch`, library: 'matplotlib', removedIn: '3.0', deprecatedIn: '2.1',
    receiver: 'any', from, to: 'patch', attribute: true,
    link: API('3.0.0', '#deprecated-apis'),
    message: `${cls}.${from} was removed in matplotlib 3.0: it is ${cls.toLowerCase()}.patch`,
    fixtures: [{
      before: PLT + `${v} = ${make}\n${v}.${from}.set_facecolor('red')\nprint(${v}.patch.get_facecolor())`,
      after: PLT + `${v} = ${make}\n${v}.patch.set_facecolor('red')\nprint(${v}.patch.get_facecolor())`,
      expect: '(1.0, 0.0, 0.0, 1.0)', beforeError: 'AttributeError',
    }],
  })),
  // Subplot position helpers (3.4 deprecation, removed 3.6): the SubplotSpec answers the same questions.
  ...(['is_first_col', 'is_first_row', 'is_last_col', 'is_last_row'] as const).map((from): TableEntry => ({
    kind: 'rename-method', id: `mpl-subplot-${from.replace(/_/g, '-')}`, library: 'matplotlib', removedIn: '3.6', deprecatedIn: '3.4',
    receiver: 'any', from, to: `get_subplotspec().${from}`,
    link: API('3.6.0', '#classes-methods-and-attributes'),
    message: `Axes.${from}() was removed in matplotlib 3.6: use ax.get_subplotspec().${from}()`,
    fixtures: [{
      before: PLT + `fig, axs = plt.subplots(2, 3)\nprint([ax.${from}() for ax in axs.flat])`,
      after: PLT + `fig, axs = plt.subplots(2, 3)\nprint([ax.get_subplotspec().${from}() for ax in axs.flat])`,
      expect: {
        is_first_col: '[True, False, False, True, False, False]', is_first_row: '[True, True, True, False, False, False]',
        is_last_col: '[False, False, True, False, False, True]', is_last_row: '[False, False, False, True, True, True]',
      }[from],
      beforeError: 'AttributeError',
    }],
  })),
  ...([['rowNum', 'rowspan'], ['colNum', 'colspan']] as const).map(([from, span]): TableEntry => ({
    kind: 'rename-method', id: `mpl-subplot-${from.toLowerCase()}`, library: 'matplotlib', removedIn: '3.4', deprecatedIn: '3.2',
    receiver: 'any', from, to: `get_subplotspec().${span}.start`, attribute: true,
    link: API('3.4.0', '#classes-methods-and-attributes'),
    message: `SubplotBase.${from} was removed in matplotlib 3.4: use ax.get_subplotspec().${span}.start`,
    fixtures: [{
      before: PLT + `fig, axs = plt.subplots(2, 3)\nprint([ax.${from} for ax in axs.flat])`,
      after: PLT + `fig, axs = plt.subplots(2, 3)\nprint([ax.get_subplotspec().${span}.start for ax in axs.flat])`,
      expect: from === 'rowNum' ? '[0, 0, 0, 1, 1, 1]' : '[0, 1, 2, 0, 1, 2]',
      beforeError: 'AttributeError',
    }],
  })),
  {
    kind: 'rename-method', id: 'mpl-colorbar-update-bruteforce', library: 'matplotlib', removedIn: '3.5', deprecatedIn: '3.3',
    receiver: 'any', from: 'update_bruteforce', to: 'update_normal',
    link: API('3.5.0', '#classes-methods-and-attributes'),
    message: 'Colorbar.update_bruteforce was removed in matplotlib 3.5: use update_normal(mappable)',
    fixtures: [{
      before: PLT + "import numpy as np\nim = plt.imshow(np.arange(4).reshape(2, 2))\ncb = plt.colorbar(im)\nim.set_clim(0, 10)\ncb.update_bruteforce(im)\nprint(cb.vmax)",
      after: PLT + "import numpy as np\nim = plt.imshow(np.arange(4).reshape(2, 2))\ncb = plt.colorbar(im)\nim.set_clim(0, 10)\ncb.update_normal(im)\nprint(cb.vmax)",
      expect: '10.0', beforeError: 'AttributeError',
    }],
  },
  ...(['set_clim', 'set_cmap', 'set_norm'] as const).map((from): TableEntry => ({
    // Images and other mappables keep these methods: only after the Colorbar error.
    kind: 'rename-method', id: `mpl-colorbar-${from.replace('_', '-')}`, library: 'matplotlib', removedIn: '3.3', deprecatedIn: '3.1',
    receiver: 'any', from, to: `mappable.${from}`, trigger: 'error',
    errors: [err('AttributeError', new RegExp(`'Colorbar' object has no attribute '${from}'`))],
    link: API('3.3.0', '#classes-methods-and-attributes'),
    message: `Colorbar.${from} was removed in matplotlib 3.3 (a colorbar follows its mappable): use cb.mappable.${from}`,
    fixtures: [{
      before: PLT + `import numpy as np\nimport matplotlib.colors as mcolors\ncb = plt.colorbar(plt.imshow(np.arange(4).reshape(2, 2), cmap='viridis'))\ncb.${from}(${{ set_clim: '0, 10', set_cmap: "'gray'", set_norm: 'mcolors.Normalize(0, 10)' }[from]})\nprint(cb.mappable.get_clim()[1], cb.mappable.get_cmap().name)`,
      after: PLT + `import numpy as np\nimport matplotlib.colors as mcolors\ncb = plt.colorbar(plt.imshow(np.arange(4).reshape(2, 2), cmap='viridis'))\ncb.mappable.${from}(${{ set_clim: '0, 10', set_cmap: "'gray'", set_norm: 'mcolors.Normalize(0, 10)' }[from]})\nprint(cb.mappable.get_clim()[1], cb.mappable.get_cmap().name)`,
      expect: from === 'set_cmap' ? '3 gray' : '10.0 viridis',
      beforeError: 'AttributeError',
    }],
  })),
];

/**
 * matplotlib API removals (doc/api/prev_api_changes, 3.0 … 3.10) that no hand-written rule in
 * matplotlib.ts covers. Checked in the fixed environment (3.10).
 */
import type { Callee, TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const API = (v: string, anchor = '') => `https://matplotlib.org/stable/api/prev_api_changes/api_changes_${v}.html${anchor}`;
const PLT = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.close('all')\n";
/** pyplot functions and the Axes methods of the same name (names distinctive enough to match on any receiver). */
const pltAndAxes = (...names: string[]): Callee[] => names.flatMap((n) => [{ qname: `matplotlib.pyplot.${n}` }, { method: n, receiver: 'any' as const }]);
const SCALE = [...pltAndAxes('xscale', 'yscale', 'semilogx', 'semilogy', 'loglog'), { method: 'set_xscale', receiver: 'any' as const }, { method: 'set_yscale', receiver: 'any' as const }];

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
];

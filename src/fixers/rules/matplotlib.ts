/** matplotlib API removals (2.x-3.8) that old plotting cells hit. */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, TextEdit } from './types.js';
import { err, rule, deleteStatement, renameMethodCalls } from './helpers.js';
import { addArgument, callArgs, kwValue, removeArgument, renameKeyword, replaceNode, stringValue, quoteOf } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

const API = (v: string) => `https://matplotlib.org/stable/api/prev_api_changes/api_changes_${v}.html`;
const MPL_SETUP = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.close('all')\n";

const histNormed = rule({
  id: 'mpl-hist-normed',
  triggers: ['normed', 'hist_kws'],
  library: 'matplotlib',
  title: 'hist(normed=)',
  old: 'plt.hist(x, normed=True)',
  new: 'plt.hist(x, density=True)',
  removedIn: '3.1',
  errors: [err('AttributeError', /got an unexpected keyword argument 'normed'/)],
  link: API('3.1.0'),
  message: "hist(normed=) was removed in matplotlib 3.1; use density=",
  fixtures: [{
    before: MPL_SETUP + "n, bins, _ = plt.hist([1, 2, 2, 3], bins=3, normed=True)\nm = plt.figure().gca().hist([1, 2], normed=1)[0]\nprint(n.round(2).tolist(), round(float(m.sum()), 6))",
    after: MPL_SETUP + "n, bins, _ = plt.hist([1, 2, 2, 3], bins=3, density=True)\nm = plt.figure().gca().hist([1, 2], density=1)[0]\nprint(n.round(2).tolist(), round(float(m.sum()), 6))",
    expect: '[0.38, 0.75, 0.37] 10.0',
    beforeError: 'AttributeError',
  }, {
    // pandas' hist and plot(kind='hist') pass their keywords on to matplotlib's hist.
    before: MPL_SETUP + "import pandas as pd\ns = pd.Series([1.0, 2.0, 2.0, 3.0])\na = s.hist(bins=3, normed=True)\nb = s.plot(kind='hist', bins=3, normed=True)\nprint(round(sum(p.get_height() for p in b.patches), 2))",
    after: MPL_SETUP + "import pandas as pd\ns = pd.Series([1.0, 2.0, 2.0, 3.0])\na = s.hist(bins=3, density=True)\nb = s.plot(kind='hist', bins=3, density=True)\nprint(round(sum(p.get_height() for p in b.patches), 2))",
    expect: '3.0',
    beforeError: 'AttributeError',
  }, {
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nax = sns.distplot([1.0, 2.0, 2.5, 3.0], kde=False, hist_kws={'normed': True})\nprint(len(ax.patches) > 0)",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nax = sns.distplot([1.0, 2.0, 2.5, 3.0], kde=False, hist_kws={'density': True})\nprint(len(ax.patches) > 0)",
    expect: 'True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsNamed(['hist', 'hist2d', 'histogram', 'plot'])) {
      const q = ctx.qname(fn);
      if (q?.startsWith('numpy.')) continue; // numpy rule
      const args = callArgs(call);
      // pandas' `.plot(kind='hist', normed=True)` hands its keywords to matplotlib's hist.
      if (fn.text.endsWith('plot') && stringValue(args?.keywords.get('kind')?.childForFieldName('value') ?? null) !== 'hist') continue;
      const kw = args?.keywords.get('normed');
      if (kw && !args!.keywords.has('density')) yield { node: kw, edits: [renameKeyword(kw, 'density')] };
    }
    // hist_kws={'normed': True} (seaborn.distplot and friends)
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== 'hist_kws') continue;
      const d = kwValue(kw);
      if (d?.type !== 'dictionary') continue;
      for (const pair of d.namedChildren) {
        const key = pair?.type === 'pair' ? pair.childForFieldName('key') : undefined;
        if (key && stringValue(key) === 'normed') yield { node: key, edits: [replaceNode(key, `${quoteOf(key)}density${quoteOf(key)}`)] };
      }
    }
  },
});

const seabornStyles = rule({
  id: 'mpl-seaborn-styles',
  triggers: ['use', 'context'],
  library: 'matplotlib',
  title: "style 'seaborn-*'",
  old: "plt.style.use('seaborn-whitegrid')",
  new: "plt.style.use('seaborn-v0_8-whitegrid')",
  removedIn: '3.8',
  errors: [err('OSError', /'seaborn[\w-]*' is not a valid package style/)],
  link: API('3.6.0') + '#seaborn-styles-renamed',
  message: "matplotlib's bundled seaborn styles were renamed seaborn-v0_8-* in 3.6 and the old names removed in 3.8",
  fixtures: [{
    before: MPL_SETUP + "plt.style.use('seaborn-whitegrid')\nwith plt.style.context(['seaborn', 'ggplot']):\n    pass\nprint(plt.rcParams['axes.grid'])",
    after: MPL_SETUP + "plt.style.use('seaborn-v0_8-whitegrid')\nwith plt.style.context(['seaborn-v0_8', 'ggplot']):\n    pass\nprint(plt.rcParams['axes.grid'])",
    expect: 'True',
    beforeError: 'OSError',
  }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsNamed(['use', 'context'])) {
      const q = ctx.qname(fn);
      if (!q || !/^matplotlib\.(pyplot\.)?style\.(use|context)$/.test(q)) continue;
      const first = callArgs(call)?.positional[0];
      if (!first) continue;
      const strings = first.type === 'list' || first.type === 'tuple' ? first.namedChildren.filter((c): c is SyntaxNode => !!c) : [first];
      for (const s of strings) {
        const v = stringValue(s);
        if (!v || !/^seaborn(-|$)/.test(v) || v.startsWith('seaborn-v0_8')) continue;
        const nv = v === 'seaborn' ? 'seaborn-v0_8' : v.replace(/^seaborn-/, 'seaborn-v0_8-');
        yield { node: s, edits: [replaceNode(s, `${quoteOf(s)}${nv}${quoteOf(s)}`)] };
      }
    }
  },
});

const gcaProjection = rule({
  id: 'mpl-gca-projection',
  triggers: ['gca'],
  library: 'matplotlib',
  title: "gca(projection='3d')",
  old: "fig.gca(projection='3d')",
  new: "fig.add_subplot(projection='3d')",
  removedIn: '3.6',
  errors: [err('TypeError', /gca\(\) got an unexpected keyword argument 'projection'/)],
  link: API('3.6.0'),
  message: "gca() no longer takes keyword arguments (matplotlib 3.6); create the axes with add_subplot(projection=...)",
  fixtures: [{
    before: MPL_SETUP + "from mpl_toolkits.mplot3d import Axes3D\nfig = plt.figure()\nax = fig.gca(projection='3d')\nprint(ax.name)",
    after: MPL_SETUP + "from mpl_toolkits.mplot3d import Axes3D\nfig = plt.figure()\nax = fig.add_subplot(projection='3d')\nprint(ax.name)",
    expect: '3d',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { gca: 'add_subplot' }, ({ args }) => !!args?.keywords.has('projection'));
    for (const { call, fn } of ctx.callsTo(['matplotlib.pyplot.gca'])) {
      if (!callArgs(call)?.keywords.has('projection')) continue;
      yield { node: call, edits: [replaceNode(fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn, 'subplot')] };
    }
  },
});

const axes3dFigure = rule({
  id: 'mpl-axes3d-figure',
  triggers: ['Axes3D'],
  library: 'matplotlib',
  title: 'Axes3D(fig) no longer adds itself to the figure',
  old: 'ax = Axes3D(fig)',
  new: "ax = fig.add_subplot(projection='3d')",
  removedIn: '3.6',
  errors: [],
  link: API('3.6.0') + '#axes3d-auto-add-to-figure',
  message: "Axes3D(fig) stopped adding itself to the figure in matplotlib 3.6 (the plot comes out empty); use fig.add_subplot(projection='3d')",
  fixtures: [{
    before: MPL_SETUP + 'from mpl_toolkits.mplot3d import Axes3D\nfig = plt.figure()\nax = Axes3D(fig)\nprint(len(fig.axes))',
    after: MPL_SETUP + "from mpl_toolkits.mplot3d import Axes3D\nfig = plt.figure()\nax = fig.add_subplot(projection='3d')\nprint(len(fig.axes))",
    expect: '1',
    beforeOutcome: 'differs',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['mpl_toolkits.mplot3d.Axes3D', 'mpl_toolkits.mplot3d.axes3d.Axes3D'])) {
      const args = callArgs(call);
      const fig = args?.positional[0];
      if (!args || !fig || args.all.length !== 1 || (fig.type !== 'identifier' && fig.type !== 'call' && fig.type !== 'attribute')) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(call, `${fig.text}.add_subplot(projection='3d')`)] };
    }
  },
});

const mlabNormpdf = rule({
  id: 'mpl-mlab-normpdf',
  triggers: ['normpdf'],
  library: 'matplotlib',
  title: 'mlab.normpdf',
  old: 'mlab.normpdf(x, mu, sigma)',
  new: 'scipy.stats.norm.pdf(x, mu, sigma)',
  removedIn: '3.1',
  errors: [err('AttributeError', /module 'matplotlib\.mlab' has no attribute 'normpdf'/)],
  link: API('3.1.0'),
  message: 'mlab.normpdf was removed in matplotlib 3.1; use scipy.stats.norm.pdf',
  fixtures: [{
    before: 'import matplotlib.mlab as mlab\nprint(round(float(mlab.normpdf(0.0, 0.0, 1.0)), 4))',
    after: 'import scipy.stats\nimport matplotlib.mlab as mlab\nprint(round(float(scipy.stats.norm.pdf(0.0, 0.0, 1.0)), 4))',
    expect: '0.3989',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { fn } of ctx.callsTo(['matplotlib.mlab.normpdf'])) {
      const stats = ctx.nb.aliasFor('scipy.stats');
      if (stats) { yield { node: fn, edits: [replaceNode(fn, `${stats}.norm.pdf`)] }; continue; }
      if (ctx.nb.aliasFor('scipy') === 'scipy' || !ctx.nb.isBound('scipy')) {
        yield { node: fn, edits: [replaceNode(fn, 'scipy.stats.norm.pdf'), ctx.importEdit('import scipy.stats')] };
      } else yield { node: fn };
    }
  },
});

const axisbg = rule({
  id: 'mpl-axisbg',
  triggers: ['axisbg', 'set_axis_bgcolor', 'get_axis_bgcolor'],
  library: 'matplotlib',
  title: 'axisbg= / set_axis_bgcolor() / get_axis_bgcolor()',
  old: "plt.subplot(111, axisbg='w'); ax.set_axis_bgcolor('w'); ax.get_axis_bgcolor()",
  new: "plt.subplot(111, facecolor='w'); ax.set_facecolor('w'); ax.get_facecolor()",
  removedIn: '2.2',
  errors: [err('AttributeError', /unexpected keyword argument 'axisbg'|has no attribute '[gs]et_axis_bgcolor'/)],
  link: API('2.2.0'),
  message: 'axisbg/set_axis_bgcolor/get_axis_bgcolor were removed in matplotlib 2.2; use facecolor/set_facecolor/get_facecolor',
  fixtures: [{
    before: MPL_SETUP + "ax = plt.subplot(111, axisbg='red')\nax.set_axis_bgcolor('blue')\nprint(ax.get_facecolor())",
    after: MPL_SETUP + "ax = plt.subplot(111, facecolor='red')\nax.set_facecolor('blue')\nprint(ax.get_facecolor())",
    expect: '(0.0, 0.0, 1.0, 1.0)',
    beforeError: 'AttributeError',
  }, {
    before: MPL_SETUP + "ax = plt.subplot(111)\nax.set_facecolor('red')\nprint(ax.get_axis_bgcolor())",
    after: MPL_SETUP + "ax = plt.subplot(111)\nax.set_facecolor('red')\nprint(ax.get_facecolor())",
    expect: '(1.0, 0.0, 0.0, 1.0)',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== 'axisbg') continue;
      yield { node: kw, edits: [renameKeyword(kw, 'facecolor')] };
    }
    yield* renameMethodCalls(ctx, { set_axis_bgcolor: 'set_facecolor', get_axis_bgcolor: 'get_facecolor' });
  },
});

const hold = rule({
  id: 'mpl-hold',
  triggers: ['hold'],
  library: 'matplotlib',
  title: 'plt.hold()',
  old: 'plt.hold(True)',
  new: '(removed: axes always hold)',
  removedIn: '3.0',
  errors: [err('AttributeError', /has no attribute 'hold'/)],
  link: API('3.0.0'),
  message: 'hold() was removed in matplotlib 3.0 (plots always accumulate); the call is removed',
  fixtures: [{
    before: MPL_SETUP + 'plt.plot([1, 2])\nplt.hold(True)\nplt.plot([2, 1])\nprint(len(plt.gca().lines))',
    after: MPL_SETUP + 'plt.plot([1, 2])\nplt.plot([2, 1])\nprint(len(plt.gca().lines))',
    expect: '2',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const calls = [...ctx.callsTo(['matplotlib.pyplot.hold', 'pylab.hold'])];
    for (const { nameNode, call } of ctx.methodCalls(['hold'])) calls.push({ call, fn: nameNode, qname: 'axes.hold' });
    for (const { call } of calls) {
      const st = call.parent;
      if (st?.type === 'expression_statement') yield { node: call, edits: [deleteStatement(ctx, st)] };
      else yield { node: call };
    }
  },
});

const gridB = rule({
  id: 'mpl-grid-b',
  triggers: ['grid'],
  library: 'matplotlib',
  title: 'grid(b=)',
  old: 'plt.grid(b=True)',
  new: 'plt.grid(visible=True)',
  removedIn: '3.7',
  errors: [err('ValueError', /keyword grid_b is not recognized/)],
  link: API('3.5.0') + '#the-first-parameter-of-axes-grid-and-axis-grid-has-been-renamed-to-visible',
  message: "grid()'s first parameter b was renamed visible in matplotlib 3.5; b= fails since 3.7",
  fixtures: [{
    before: MPL_SETUP + "plt.grid(b=True)\nax = plt.gca()\nax.grid(b=None, which='major')\nprint(ax.xaxis.get_gridlines()[0].get_visible())",
    after: MPL_SETUP + "plt.grid(visible=True)\nax = plt.gca()\nax.grid(visible=None, which='major')\nprint(ax.xaxis.get_gridlines()[0].get_visible())",
    expect: 'False',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsNamed(['grid'])) {
      const kw = callArgs(call)?.keywords.get('b');
      if (kw) yield { node: kw, edits: [renameKeyword(kw, 'visible')] };
    }
  },
});

const spectral = rule({
  id: 'mpl-spectral-colormap',
  triggers: ['spectral', 'cmap'],
  library: 'matplotlib',
  title: "the 'spectral' colormap",
  old: "cmap=plt.cm.spectral / cmap='spectral'",
  new: "cmap=plt.cm.nipy_spectral / cmap='nipy_spectral'",
  removedIn: '2.2',
  errors: [err('AttributeError', /has no attribute 'spectral'/), err('ValueError', /'spectral' is not a valid value for (cmap|name)/)],
  link: API('2.2.0'),
  message: "the 'spectral' colormap was removed in matplotlib 2.2; it is 'nipy_spectral'",
  fixtures: [{
    before: MPL_SETUP + "import matplotlib.cm as cm\nc1 = plt.cm.spectral\nsc = plt.scatter([1], [1], c=[1], cmap='spectral')\nprint(c1.name, sc.get_cmap().name)",
    after: MPL_SETUP + "import matplotlib.cm as cm\nc1 = plt.cm.nipy_spectral\nsc = plt.scatter([1], [1], c=[1], cmap='nipy_spectral')\nprint(c1.name, sc.get_cmap().name)",
    expect: 'nipy_spectral nipy_spectral',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['matplotlib.cm.spectral', 'matplotlib.pyplot.cm.spectral', 'pylab.cm.spectral'])) {
      yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'nipy_spectral')] };
    }
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== 'cmap') continue;
      const v = kwValue(kw);
      if (v && stringValue(v) === 'spectral') yield { node: v, edits: [replaceNode(v, `${quoteOf(v)}nipy_spectral${quoteOf(v)}`)] };
    }
  },
});

const colorCycle = rule({
  id: 'mpl-set-color-cycle',
  triggers: ['set_color_cycle'],
  library: 'matplotlib',
  title: 'Axes.set_color_cycle',
  old: "ax.set_color_cycle(['r', 'g'])",
  new: "ax.set_prop_cycle(color=['r', 'g'])",
  removedIn: '2.0',
  errors: [err('AttributeError', /has no attribute 'set_color_cycle'/)],
  link: API('2.0.0'),
  message: 'set_color_cycle was removed; use set_prop_cycle(color=...)',
  fixtures: [{
    before: MPL_SETUP + "ax = plt.gca()\nax.set_color_cycle(['red', 'green'])\nprint(ax.plot([1, 2])[0].get_color())",
    after: MPL_SETUP + "ax = plt.gca()\nax.set_prop_cycle(color=['red', 'green'])\nprint(ax.plot([1, 2])[0].get_color())",
    expect: 'red',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, nameNode } of ctx.methodCalls(['set_color_cycle'])) {
      const args = callArgs(call);
      if (!args || args.positional.length !== 1 || args.all.length !== 1) { yield { node: call }; continue; }
      const edits: TextEdit[] = [replaceNode(nameNode, 'set_prop_cycle'), { start: args.positional[0].startIndex, end: args.positional[0].startIndex, text: 'color=' }];
      yield { node: call, edits };
    }
  },
});

const axisNormal = rule({
  id: 'mpl-axis-normal',
  triggers: ['axis'],
  library: 'matplotlib',
  title: "axis('normal')",
  old: "plt.axis('normal')",
  new: "plt.axis('auto')",
  removedIn: '3.3',
  errors: [err('ValueError', /Unrecognized string '?normal'? to axis/)],
  link: `${API('3.3.0')}#arguments`,
  message: "axis('normal') was removed in matplotlib 3.3: 'auto' is the same setting",
  fixtures: [{
    before: MPL_SETUP + "fig, ax = plt.subplots()\nplt.axis('normal')\nax.axis('normal')\nprint(ax.get_aspect())",
    after: MPL_SETUP + "fig, ax = plt.subplots()\nplt.axis('auto')\nax.axis('auto')\nprint(ax.get_aspect())",
    expect: 'auto',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsNamed(['axis'])) {
      const first = callArgs(call)?.positional[0];
      if (first && stringValue(first) === 'normal') yield { node: first, edits: [replaceNode(first, `${quoteOf(first)}auto${quoteOf(first)}`)] };
    }
  },
});

/** rcParams keys removed after their setting stopped doing anything (setting them now raises KeyError). */
const NO_EFFECT_RCPARAMS: Record<string, string> = {
  'text.latex.unicode': '3.3 (usetex always supports unicode)',
  'axes.hold': '3.0 (axes always hold)',
  'examples.directory': '3.0 (it was unused)',
  'text.latex.preview': '3.5 (it had no effect)',
  'verbose.level': '3.3 (it had no effect since matplotlib logs with the logging module)',
  'verbose.fileo': '3.3 (it had no effect since matplotlib logs with the logging module)',
  'pgf.debug': '3.3 (it had no effect)',
  'text.dvipnghack': '3.1 (it had no effect)',
  'plugins.directory': '3.1 (it was unused)',
  'keymap.all_axes': '3.5 (a key binding of interactive windows)',
  'animation.avconv_path': '3.5 (the avconv writers were removed)',
  'animation.avconv_args': '3.5 (the avconv writers were removed)',
};
const RC_PARAMS = ['matplotlib.rcParams', 'matplotlib.pyplot.rcParams', 'pylab.rcParams', 'matplotlib.pylab.rcParams'];

const removedRcParams = rule({
  id: 'mpl-removed-rcparams',
  triggers: ['rcParams'],
  library: 'matplotlib',
  title: "rcParams['text.latex.unicode'] / ['axes.hold'] / ['axes.color_cycle'] = ...",
  old: "plt.rcParams['axes.color_cycle'] = ['r', 'k']; plt.rcParams['text.latex.unicode'] = True",
  new: "plt.rcParams['axes.prop_cycle'] = plt.cycler(color=['r', 'k'])  (the other line removed)",
  removedIn: '3.0',
  errors: [err('KeyError', /(text\.latex\.unicode|axes\.hold|examples\.directory|text\.latex\.preview|axes\.color_cycle|verbose\.(level|fileo)|pgf\.debug|text\.dvipnghack|plugins\.directory|keymap\.all_axes|animation\.avconv_(path|args))/)],
  link: `${API('3.3.0')}#rcparams`,
  message: 'this rcParam was removed: axes.color_cycle (deprecated in 1.5) is axes.prop_cycle, a cycler of colors; text.latex.unicode (3.3), axes.hold (3.0), examples.directory (3.0) and text.latex.preview (3.5) had no effect any more and their assignments are dropped',
  fixtures: [{
    before: MPL_SETUP + "plt.rcParams['text.latex.unicode'] = True\nplt.rcParams['verbose.level'] = 'helpful'\nplt.rcParams['axes.color_cycle'] = ['r', 'k']\nprint(plt.rcParams['axes.prop_cycle'].by_key()['color'])",
    after: MPL_SETUP + "plt.rcParams['axes.prop_cycle'] = plt.cycler(color=['r', 'k'])\nprint(plt.rcParams['axes.prop_cycle'].by_key()['color'])",
    expect: "['r', 'k']",
    beforeError: 'KeyError',
  }],
  *find(ctx) {
    for (const sub of ctx.nodes('subscript')) {
      const key = stringValue(sub.childForFieldName('subscript'));
      if (key === undefined || !(key in NO_EFFECT_RCPARAMS || key === 'axes.color_cycle')) continue;
      const q = ctx.qname(sub.childForFieldName('value'));
      if (!q || !RC_PARAMS.includes(q)) continue;
      const asg = sub.parent;
      const stmt = asg?.parent;
      if (asg?.type !== 'assignment' || asg.childForFieldName('left')?.startIndex !== sub.startIndex || stmt?.type !== 'expression_statement') { yield { node: sub }; continue; }
      if (key !== 'axes.color_cycle') { yield { node: sub, message: `rcParams['${key}'] was removed in matplotlib ${NO_EFFECT_RCPARAMS[key]}; the assignment is dropped`, edits: [deleteStatement(ctx, stmt)] }; continue; }
      const ref = ctx.moduleRef('matplotlib.pyplot', 'plt');
      const right = asg.childForFieldName('right');
      if (!ref || !right) { yield { node: sub }; continue; }
      const idx = sub.childForFieldName('subscript')!;
      yield {
        node: sub,
        edits: [
          replaceNode(idx, `${quoteOf(idx)}axes.prop_cycle${quoteOf(idx)}`),
          replaceNode(right, `${ref.name}.cycler(color=${right.text})`),
          ...(ref.edit ? [ref.edit] : []),
        ],
      };
    }
  },
});

/** Tick-parameter switches: matplotlib < 3.1 read the strings 'on'/'off' (and 'true'/'false') as booleans. */
const TICK_SWITCHES = new Set(['bottom', 'top', 'left', 'right', 'labelbottom', 'labeltop', 'labelleft', 'labelright', 'gridOn', 'tick1On', 'tick2On', 'label1On', 'label2On']);
const ON_OFF: Record<string, string> = { on: 'True', off: 'False', true: 'True', false: 'False' };

const onOffStrings = rule({
  id: 'mpl-on-off-strings',
  triggers: ['tick_params', 'set_tick_params', 'grid', 'box'],
  library: 'matplotlib',
  title: "'on'/'off' strings for booleans",
  old: "plt.tick_params(bottom='off', labelbottom='off'); plt.grid('off'); plt.box('off')",
  new: 'plt.tick_params(bottom=False, labelbottom=False); plt.grid(False); plt.box(False)',
  removedIn: '3.1',
  errors: [],
  link: `${API('3.1.0')}#arguments`,
  message: "matplotlib 3.1 stopped reading 'on'/'off' as True/False in tick_params, grid and box: any non-empty string is now true, so 'off' shows the ticks, grid or frame the code hid",
  fixtures: [{
    before: MPL_SETUP + "fig, ax = plt.subplots()\nax.tick_params(axis='x', bottom='off', labelbottom='off')\nplt.grid('off')\nplt.box('off')\nt = ax.xaxis.get_major_ticks()[0]\nprint(bool(t.tick1line.get_visible()), bool(t.label1.get_visible()), bool(ax.xaxis.get_gridlines()[0].get_visible()), bool(ax.get_frame_on()))",
    after: MPL_SETUP + "fig, ax = plt.subplots()\nax.tick_params(axis='x', bottom=False, labelbottom=False)\nplt.grid(False)\nplt.box(False)\nt = ax.xaxis.get_major_ticks()[0]\nprint(bool(t.tick1line.get_visible()), bool(t.label1.get_visible()), bool(ax.xaxis.get_gridlines()[0].get_visible()), bool(ax.get_frame_on()))",
    expect: 'False False False False',
    beforeOutcome: 'differs',
  }, {
    before: MPL_SETUP + "ax = plt.gca()\nax.grid('on')\nplt.tick_params(top='on', labeltop='On')\nprint(ax.xaxis.get_major_ticks()[0].tick2line.get_visible(), ax.xaxis.get_gridlines()[0].get_visible())",
    after: MPL_SETUP + "ax = plt.gca()\nax.grid(True)\nplt.tick_params(top=True, labeltop=True)\nprint(ax.xaxis.get_major_ticks()[0].tick2line.get_visible(), ax.xaxis.get_gridlines()[0].get_visible())",
    expect: 'True True',
    beforeOutcome: 'differs',
  }],
  *find(ctx) {
    const bool = (v: SyntaxNode | undefined) => {
      const t = v && stringValue(v)?.toLowerCase();
      return t !== undefined && t in ON_OFF ? ON_OFF[t] : undefined;
    };
    for (const { call, name } of ctx.callsNamed(['tick_params', 'set_tick_params', 'grid', 'box'])) {
      const args = callArgs(call);
      if (!args) continue;
      if (name === 'box' && ctx.qname(call.childForFieldName('function')) !== 'matplotlib.pyplot.box') continue;
      const values: SyntaxNode[] = [];
      if (name === 'grid' || name === 'box') {
        const first = args.positional[0];
        if (first) values.push(first);
        for (const k of name === 'grid' ? ['b', 'visible'] : ['on']) { const v = kwValue(args.keywords.get(k)); if (v) values.push(v); }
      } else {
        for (const [k, kw] of args.keywords) { const v = kwValue(kw); if (TICK_SWITCHES.has(k) && v) values.push(v); }
      }
      for (const v of values) {
        const b = bool(v);
        if (b) yield { node: v, edits: [replaceNode(v, b)] };
      }
    }
  },
});

/** `leg.draggable()` toggled dragging (off at first): `set_draggable(True)`; with a state, the same call renamed. */
const legendDraggable = rule({
  id: 'mpl-legend-draggable',
  triggers: ['draggable'],
  library: 'matplotlib',
  title: 'Legend.draggable()',
  old: 'plt.legend().draggable()',
  new: 'plt.legend().set_draggable(True)',
  removedIn: '3.1',
  errors: [err('AttributeError', /'Legend' object has no attribute 'draggable'/)],
  link: `${API('3.1.0')}#classes-and-methods`,
  message: 'Legend.draggable was removed in matplotlib 3.1 (deprecated in 3.0): use set_draggable(state); draggable() with no argument switched dragging on',
  fixtures: [{
    before: MPL_SETUP + "plt.plot([1, 2], label='a')\nleg = plt.legend(loc='best')\nleg.draggable()\nplt.legend().draggable(True)\nprint(plt.gca().get_legend().get_draggable(), leg.get_draggable())",
    after: MPL_SETUP + "plt.plot([1, 2], label='a')\nleg = plt.legend(loc='best')\nleg.set_draggable(True)\nplt.legend().set_draggable(True)\nprint(plt.gca().get_legend().get_draggable(), leg.get_draggable())",
    expect: 'True True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    // Annotations (`Text.draggable`, `AnnotationBbox.draggable`) keep the method: only legends, known as
    // a `legend(...)` call or a name bound to one, or after the Legend error.
    const rt = ctx.nb.info.runtime;
    const widened = rt?.failingCell === ctx.index && rt.ename === 'AttributeError' && /'Legend' object has no attribute 'draggable'/.test(rt.evalue);
    const legendNames = new Set<string>();
    for (const a of ctx.nodes('assignment')) {
      const l = a.childForFieldName('left');
      const r = a.childForFieldName('right');
      if (l?.type === 'identifier' && r?.type === 'call' && /(^|\.)legend$/.test(r.childForFieldName('function')?.text ?? '')) legendNames.add(l.text);
    }
    for (const { call, recv, nameNode } of ctx.methodCalls(['draggable'])) {
      const isLegend = (recv.type === 'call' && /(^|\.)legend$/.test(recv.childForFieldName('function')?.text ?? '')) || (recv.type === 'identifier' && legendNames.has(recv.text));
      if (!isLegend && !widened) continue;
      const args = callArgs(call);
      if (!args) continue;
      const edits: TextEdit[] = [replaceNode(nameNode, 'set_draggable')];
      if (!args.all.length) edits.push(addArgument(args, 'True'));
      yield { node: call, edits };
    }
  },
});

/** `linestyle='steps-mid--'`: the step drawstyle was part of the linestyle before 3.3. */
const STEPS = /^(steps(?:-pre|-mid|-post)?)(.*)$/;

const linestyleSteps = rule({
  id: 'mpl-linestyle-steps',
  triggers: ['linestyle', 'ls'],
  library: 'matplotlib',
  title: "linestyle='steps'",
  old: "plt.plot(x, y, linestyle='steps-mid--')",
  new: "plt.plot(x, y, drawstyle='steps-mid', linestyle='--')",
  removedIn: '3.3',
  errors: [err('ValueError', /'steps[\w-]*[-.:]*' is not a valid value for (ls|linestyle)/)],
  link: `${API('3.1.0')}#passing-a-line2d-s-drawstyle-together-with-the-linestyle-is-deprecated`,
  message: "a step drawstyle inside linestyle ('steps', 'steps-mid--') was deprecated in matplotlib 3.1 and removed in 3.3: it is drawstyle=, the rest stays the linestyle",
  fixtures: [{
    before: MPL_SETUP + "l1, = plt.plot([1, 2, 3], linestyle='steps')\nl2, = plt.plot([1, 2, 3], ls='steps-mid--', color='r')\nprint(l1.get_drawstyle(), l1.get_linestyle(), l2.get_drawstyle(), l2.get_linestyle())",
    after: MPL_SETUP + "l1, = plt.plot([1, 2, 3], drawstyle='steps')\nl2, = plt.plot([1, 2, 3], drawstyle='steps-mid', ls='--', color='r')\nprint(l1.get_drawstyle(), l1.get_linestyle(), l2.get_drawstyle(), l2.get_linestyle())",
    expect: 'steps - steps-mid --',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const kw of ctx.nodes('keyword_argument')) {
      const name = kw.childForFieldName('name')?.text;
      if (name !== 'linestyle' && name !== 'ls') continue;
      const v = kwValue(kw);
      const m = STEPS.exec(stringValue(v) ?? '');
      const call = kw.parent?.parent;
      const args = call?.type === 'call' ? callArgs(call) : undefined;
      if (!v || !m || !args || args.keywords.has('drawstyle') || args.keywords.has('ds')) continue;
      const q = quoteOf(v);
      const edits: TextEdit[] = m[2]
        ? [{ start: kw.startIndex, end: kw.startIndex, text: `drawstyle=${q}${m[1]}${q}, ` }, replaceNode(v, `${q}${m[2]}${q}`)]
        : [replaceNode(kw, `drawstyle=${q}${m[1]}${q}`)];
      yield { node: kw, edits };
    }
  },
});

/** Axes / pyplot plotting functions whose `data=` resolves string arguments (matplotlib's _preprocess_data). */
const DATA_PLOTTERS = ['scatter', 'plot', 'bar', 'barh', 'hist', 'fill_between', 'errorbar', 'stem', 'step', 'pie', 'boxplot', 'violinplot', 'hexbin', 'hist2d', 'stackplot'];
const SERIES_TRUTH = /The truth value of a Series is ambiguous/;

/**
 * `data=` only looks up the *string* arguments of a plotting call (`plt.scatter('a', 'b', data=df)`);
 * with the columns passed as Series (`plt.scatter(x=df['a'], y=df['b'], data=df)`) older matplotlib
 * ignored it. Matplotlib 3.x names the plot's label from the arguments when data= is given
 * (`bound.arguments.get('y') or ...`), and the truth of a Series raises. Without a string argument
 * data= does nothing, so it is dropped. From the runtime error, on the failing statement.
 */
const dataKeywordWithoutNames = rule({
  id: 'mpl-data-keyword-without-names',
  triggers: DATA_PLOTTERS,
  library: 'matplotlib',
  title: 'data= on a plotting call whose arguments are Series, not column names',
  old: "plt.scatter(x=df['a'], y=df['b'], data=df)",
  new: "plt.scatter(x=df['a'], y=df['b'])",
  removedIn: '3.0',
  trigger: 'error',
  errors: [err('ValueError', SERIES_TRUTH)],
  link: 'https://matplotlib.org/stable/api/_as_gen/matplotlib.pyplot.scatter.html',
  message: 'data= only resolves string arguments; with Series arguments it did nothing, and matplotlib 3 tests their truth to name the label: drop it',
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nimport pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0], 'b': [3, 4]})\npc = plt.scatter(x=df['a'], y=df['b'], data=df)\nprint(pc.get_offsets().tolist())",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nimport pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0], 'b': [3, 4]})\npc = plt.scatter(x=df['a'], y=df['b'])\nprint(pc.get_offsets().tolist())",
    expect: '[[1.0, 3.0], [2.0, 4.0]]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'The truth value of a Series is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all().' } },
  }],
  *find(ctx) {
    const at = atRuntimeError(ctx, SERIES_TRUTH);
    if (!at || !isTracedCell(ctx)) return;
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      if (fn?.type !== 'attribute' || !DATA_PLOTTERS.includes(fn.childForFieldName('attribute')?.text ?? '') || !at.onLine(call)) continue;
      // pyplot or an Axes: not seaborn or pandas, whose data= means more.
      const q = ctx.nb.qname(fn, ctx.index);
      const recv = fn.childForFieldName('object')!;
      if (q ? !q.startsWith('matplotlib.') : ctx.nb.isPandasExpr(recv, ctx.index)) continue;
      const args = callArgs(call);
      const data = args?.keywords.get('data');
      if (!args || !data || args.splat) continue;
      if (args.all.some((a) => a !== data && stringValue(a.type === 'keyword_argument' ? a.childForFieldName('value')! : a) !== undefined)) continue;
      yield { node: data, edits: [removeArgument(args, data, ctx.source)] };
    }
  },
});

/** A string holding a plain number: what `float()` read before matplotlib 3.6 validated rotations. */
const NUMERIC_STRING = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
/** Keywords that reach Text.set_rotation (text, labels, ticks) or tick_params' label rotation. */
const ROTATION_KEYWORDS = new Set(['rotation', 'labelrotation']);

const rotationNumericString = rule({
  id: 'mpl-rotation-numeric-string',
  triggers: ['rotation', 'labelrotation'],
  library: 'matplotlib',
  title: "rotation='90' (a number in a string)",
  old: "plt.xticks(rotation='90')",
  new: 'plt.xticks(rotation=90)',
  removedIn: '3.6',
  errors: [err('ValueError', /rotation must be 'vertical', 'horizontal' or a number, not/)],
  link: 'https://github.com/matplotlib/matplotlib/pull/22539',
  message: "matplotlib up to 3.5 read a rotation given as a numeric string with float(); 3.6 validates it (ValueError: rotation must be 'vertical', 'horizontal' or a number): write the number",
  fixtures: [{
    before: MPL_SETUP + "fig, ax = plt.subplots()\nax.set_xticks([0, 1])\nax.set_xticklabels(['a', 'b'], rotation='45')\nt = ax.text(0, 0, 'x', rotation='90.5')\nax.tick_params(axis='x', labelrotation='30')\nprint(ax.get_xticklabels()[0].get_rotation(), t.get_rotation())",
    after: MPL_SETUP + "fig, ax = plt.subplots()\nax.set_xticks([0, 1])\nax.set_xticklabels(['a', 'b'], rotation=45)\nt = ax.text(0, 0, 'x', rotation=90.5)\nax.tick_params(axis='x', labelrotation=30)\nprint(ax.get_xticklabels()[0].get_rotation(), t.get_rotation())",
    expect: '30.0 90.5',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const kw of ctx.nodes('keyword_argument')) {
      if (!ROTATION_KEYWORDS.has(kw.childForFieldName('name')?.text ?? '')) continue;
      const v = kwValue(kw);
      const s = v ? stringValue(v) : undefined;
      if (!v || s === undefined || !NUMERIC_STRING.test(s)) continue;
      yield { node: v, edits: [replaceNode(v, s.trim().replace(/^\+/, ''))] };
    }
  },
});

export const matplotlibRules: Rule[] = [histNormed, seabornStyles, gcaProjection, axes3dFigure, mlabNormpdf, axisbg, hold, gridB, spectral, colorCycle, axisNormal, removedRcParams, onOffStrings, legendDraggable, linestyleSteps, dataKeywordWithoutNames, rotationNumericString];


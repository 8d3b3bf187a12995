/** seaborn: removed functions (factorplot, lvplot, tsplot...), keyword-only data arguments (0.12), size -> height. */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, TextEdit } from './types.js';
import { deleteStatement, err, moveModules, rule } from './helpers.js';
import { addArgument, callArgs, kwValue, paren, removeArgument, renameKeyword, replaceNode, stringValue, type Args } from './tree.js';
import { atRuntimeError } from './traceback.js';

const WN = (v: string) => `https://seaborn.pydata.org/whatsnew/v${v}.html`;
const SETUP = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.close('all')\nimport pandas as pd\nimport seaborn as sns\ndf = pd.DataFrame({'x': [1, 2, 3, 4], 'y': [2.0, 4.0, 5.0, 4.0], 'c': ['a', 'b', 'a', 'b']})\n";
const noAttr = (names: string) => err('AttributeError', new RegExp(`module 'seaborn' has no attribute '(${names})'`));

function* snsCalls(ctx: CellContext, names: string[]): Generator<{ call: SyntaxNode; fn: SyntaxNode; name: string; args: Args }> {
  for (const { call, fn, qname } of ctx.callsTo(names.map((n) => `seaborn.${n}`))) {
    const args = callArgs(call);
    if (args) yield { call, fn, name: qname.slice(8), args };
  }
}

function renameFn(fn: SyntaxNode, name: string): TextEdit {
  return replaceNode(fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn, name);
}

const factorplot = rule({
  id: 'seaborn-factorplot',
  triggers: ['factorplot'],
  library: 'seaborn',
  title: 'sns.factorplot',
  old: "sns.factorplot(x='c', y='y', data=df)",
  new: "sns.catplot(x='c', y='y', data=df, kind='point')",
  removedIn: '0.12',
  errors: [noAttr('factorplot')],
  link: WN('0.9.0'),
  message: "factorplot was renamed catplot (seaborn 0.9) and removed in 0.12; catplot's default kind is 'strip' where factorplot's was 'point', so kind='point' is pinned",
  fixtures: [{
    before: SETUP + "g = sns.factorplot(x='c', y='y', data=df, size=3)\nprint(type(g).__name__, len(g.ax.lines) > 0)",
    after: SETUP + "g = sns.catplot(x='c', y='y', data=df, height=3, kind='point')\nprint(type(g).__name__, len(g.ax.lines) > 0)",
    expect: 'FacetGrid True',
    beforeError: 'AttributeError',
  }, {
    // Positional x of the old signature: named by seaborn-positional-arguments in the same pass.
    before: SETUP + "g = sns.factorplot('c', data=df, kind='count')\nprint(g.ax.get_xlabel(), len(g.ax.patches))",
    after: SETUP + "g = sns.catplot(x='c', data=df, kind='count')\nprint(g.ax.get_xlabel(), len(g.ax.patches))",
    expect: 'c 2',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn, args } of snsCalls(ctx, ['factorplot'])) {
      const edits = [renameFn(fn, 'catplot')];
      if (!args.keywords.has('kind') && !args.splat) edits.push(addArgument(args, "kind='point'"));
      yield { node: call, edits };
    }
  },
});

const lvplot = rule({
  id: 'seaborn-lvplot',
  triggers: ['lvplot'],
  library: 'seaborn',
  title: 'sns.lvplot',
  old: 'sns.lvplot(...)',
  new: 'sns.boxenplot(...)',
  removedIn: '0.12',
  errors: [noAttr('lvplot')],
  link: WN('0.9.1'),
  message: 'lvplot was renamed boxenplot (seaborn 0.9.1) and removed later',
  fixtures: [{
    before: SETUP + "ax = sns.lvplot(x='c', y='y', data=df)\nprint(ax.get_xlabel())",
    after: SETUP + "ax = sns.boxenplot(x='c', y='y', data=df)\nprint(ax.get_xlabel())",
    expect: 'c',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn } of snsCalls(ctx, ['lvplot'])) yield { node: call, edits: [renameFn(fn, 'boxenplot')] };
  },
});

/** tsplot keywords lineplot takes as they are (seaborn's and matplotlib's); anything else of tsplot's is report-only. */
const TSPLOT_KEPT = new Set(['color', 'ax', 'estimator', 'n_boot', 'legend', 'err_kws', 'label', 'linewidth', 'lw', 'linestyle', 'ls', 'marker', 'alpha', 'markersize', 'ms']);
const TSPLOT_LONG = ['time', 'value', 'unit', 'condition'];

/**
 * tsplot (removed in 0.10) drew, for an array (rows = units, columns = time points; a 1-D array is one
 * unit), the mean over the units at each time point with a 68% bootstrap band; for long-form data the
 * mean of `value` over `unit`s at each `time`, one line per `condition`. lineplot draws the same mean:
 * the array melted to long form (column index, value), or the frame with time -> x, value -> y,
 * condition -> hue (the mean over units is lineplot's default aggregation). ci=N is errorbar=('ci', N).
 */
function tsplotRewrite(ctx: CellContext, call: SyntaxNode, fn: SyntaxNode, args: Args): TextEdit[] | undefined {
  if (args.splat || args.positional.length > 1) return undefined;
  const data = args.positional[0] ?? kwValue(args.keywords.get('data'));
  if (!data) return undefined;
  const kept: string[] = [];
  let errorbar = "('ci', 68)";
  for (const [k, kw] of args.keywords) {
    const v = kwValue(kw)!;
    if (k === 'data' || TSPLOT_LONG.includes(k)) continue;
    if (k === 'ci') {
      if (!['integer', 'float'].includes(v.type)) return undefined;
      errorbar = `('ci', ${v.text})`;
    } else if (k === 'err_style') {
      const st = stringValue(v);
      if (st === 'ci_bars') kept.push("err_style='bars'");
      else if (st !== 'ci_band') return undefined;
    } else if (TSPLOT_KEPT.has(k)) kept.push(kw.text);
    else return undefined;
  }
  const long = TSPLOT_LONG.filter((k) => args.keywords.has(k));
  let head: string;
  if (!long.length) {
    const pd = ctx.moduleRef('pandas', 'pd');
    const np = ctx.moduleRef('numpy', 'np');
    if (!pd || !np) return undefined;
    head = `data=${pd.name}.DataFrame(${np.name}.atleast_2d(${np.name}.asarray(${data.text}))).melt(), x='variable', y='value'`;
    const imports = [pd.edit, np.edit].filter((e): e is TextEdit => !!e);
    return [replaceNode(call, `${fn.text.replace(/tsplot$/, 'lineplot')}(${[head, `errorbar=${errorbar}`, ...kept].join(', ')})`), ...imports];
  }
  const name = (k: string) => { const v = kwValue(args.keywords.get(k)); return v && stringValue(v) !== undefined ? v.text : undefined; };
  const [time, value, condition] = [name('time'), name('value'), name('condition')];
  // Long form needs named columns; `unit` may be anything lineplot can drop (it averages over the rows at each x).
  if (!time || !value || (args.keywords.has('condition') && !condition) || ctx.nb.isNonPandasExpr(data, ctx.index)) return undefined;
  head = `data=${data.text}, x=${time}, y=${value}${condition ? `, hue=${condition}` : ''}`;
  return [replaceNode(call, `${fn.text.replace(/tsplot$/, 'lineplot')}(${[head, `errorbar=${errorbar}`, ...kept].join(', ')})`)];
}

const tsplot = rule({
  id: 'seaborn-tsplot',
  triggers: ['tsplot'],
  library: 'seaborn',
  title: 'sns.tsplot',
  old: "sns.tsplot(X) / sns.tsplot(data=df, time='t', unit='u', condition='c', value='v')",
  new: "sns.lineplot(data=pd.DataFrame(np.atleast_2d(np.asarray(X))).melt(), x='variable', y='value', errorbar=('ci', 68)) / sns.lineplot(data=df, x='t', y='v', hue='c', errorbar=('ci', 68))",
  removedIn: '0.10',
  errors: [noAttr('tsplot')],
  link: WN('0.10.0'),
  message: "tsplot was removed in seaborn 0.10: lineplot draws the same mean and 68% band (an array is melted to long form: rows are units, columns time points; long-form data maps time -> x, value -> y, condition -> hue); other tsplot options are reported only",
  fixtures: [{
    before: SETUP + "import numpy as np\nX = np.random.RandomState(0).rand(5, 4)\nax = sns.tsplot(X, color='r')\nprint(np.round(ax.lines[0].get_ydata(), 3).tolist() == np.round(X.mean(axis=0), 3).tolist(), len(ax.collections))",
    after: SETUP + "import numpy as np\nX = np.random.RandomState(0).rand(5, 4)\nax = sns.lineplot(data=pd.DataFrame(np.atleast_2d(np.asarray(X))).melt(), x='variable', y='value', errorbar=('ci', 68), color='r')\nprint(np.round(ax.lines[0].get_ydata(), 3).tolist() == np.round(X.mean(axis=0), 3).tolist(), len(ax.collections))",
    expect: 'True 1',
    beforeError: 'AttributeError',
  }, {
    before: SETUP + "ax = sns.tsplot(data=[3, 1, 2], ci=95, err_style='ci_bars')\nprint(ax.lines[0].get_ydata().tolist(), ax.lines[0].get_xdata().tolist())",
    after: 'import numpy as np\n' + SETUP + "ax = sns.lineplot(data=pd.DataFrame(np.atleast_2d(np.asarray([3, 1, 2]))).melt(), x='variable', y='value', errorbar=('ci', 95), err_style='bars')\nprint(ax.lines[0].get_ydata().tolist(), ax.lines[0].get_xdata().tolist())",
    expect: '[3.0, 1.0, 2.0] [0.0, 1.0, 2.0]',
    beforeError: 'AttributeError',
  }, {
    before: SETUP + "ax = sns.tsplot(data=df, time='x', value='y', unit='c', condition='c')\nprint(ax.get_xlabel(), [l.get_ydata().tolist() for l in ax.lines[:2]])",
    after: SETUP + "ax = sns.lineplot(data=df, x='x', y='y', hue='c', errorbar=('ci', 68))\nprint(ax.get_xlabel(), [l.get_ydata().tolist() for l in ax.lines[:2]])",
    expect: 'x [[2.0, 5.0], [4.0, 4.0]]',
    beforeError: 'AttributeError',
  }, {
    before: SETUP + "import numpy as np\nax = sns.tsplot(np.ones((3, 2)), err_style='unit_traces')\nprint(len(ax.lines))",
    manual: SETUP + "import numpy as np\nax = sns.lineplot(data=pd.DataFrame(np.ones((3, 2))).melt(ignore_index=False).reset_index(), x='variable', y='value', units='index', estimator=None)\nprint(len(ax.lines))",
    expect: '3',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn, args } of snsCalls(ctx, ['tsplot'])) {
      const edits = tsplotRewrite(ctx, call, fn, args);
      yield edits ? { node: call, edits } : { node: call };
    }
  },
});

/** Positional parameter order before seaborn 0.12 made them keyword-only (data first). */
const OLD_POSITIONAL: Record<string, string[]> = {
  // The old names (seaborn-factorplot/-lvplot rename them in the same pass).
  factorplot: ['x', 'y', 'hue', 'data'],
  lvplot: ['x', 'y', 'hue', 'data'],
  countplot: ['x', 'y', 'hue', 'data'],
  barplot: ['x', 'y', 'hue', 'data'],
  boxplot: ['x', 'y', 'hue', 'data'],
  violinplot: ['x', 'y', 'hue', 'data'],
  stripplot: ['x', 'y', 'hue', 'data'],
  swarmplot: ['x', 'y', 'hue', 'data'],
  pointplot: ['x', 'y', 'hue', 'data'],
  boxenplot: ['x', 'y', 'hue', 'data'],
  catplot: ['x', 'y', 'hue', 'data'],
  regplot: ['x', 'y', 'data'],
  residplot: ['x', 'y', 'data'],
  lmplot: ['x', 'y', 'data'],
  jointplot: ['x', 'y', 'data'],
  scatterplot: ['x', 'y', 'hue', 'style', 'size', 'data'],
  lineplot: ['x', 'y', 'hue', 'size', 'style', 'data'],
  kdeplot: ['x', 'y'],
};

/** The functions above, looked up on every cell that names one (built once). */
const OLD_POSITIONAL_NAMES = Object.keys(OLD_POSITIONAL);

const positional = rule({
  id: 'seaborn-positional-arguments',
  triggers: OLD_POSITIONAL_NAMES,
  library: 'seaborn',
  title: 'positional x/y arguments',
  old: "sns.barplot('c', 'y', data=df); sns.countplot(df.c); sns.kdeplot(a, b)",
  new: "sns.barplot(x='c', y='y', data=df); sns.countplot(x=df.c); sns.kdeplot(x=a, y=b)",
  removedIn: '0.12',
  errors: [err('TypeError', /got multiple values for argument 'data'|takes from 0 to 1 positional arguments? but \d+ were given|takes 1 positional argument but \d+ were given/)],
  link: WN('0.12.0'),
  message: 'seaborn 0.12 made x/y keyword-only (the only positional argument is data): name them',
  fixtures: [
    {
      before: SETUP + "ax = sns.barplot('c', 'y', data=df)\nlabels = (ax.get_xlabel(), ax.get_ylabel())\nax2 = sns.regplot(df.x, df.y)\nprint(*labels)",
      after: SETUP + "ax = sns.barplot(x='c', y='y', data=df)\nlabels = (ax.get_xlabel(), ax.get_ylabel())\nax2 = sns.regplot(x=df.x, y=df.y)\nprint(*labels)",
      expect: 'c y',
      beforeError: 'TypeError',
    },
    {
      // Two positionals, the first a one-column frame: old-style all the same.
      before: SETUP + "obs = df[['x']]\nax = sns.regplot(obs, df.y)\nprint(ax.get_ylabel())",
      after: SETUP + "obs = df[['x']]\nax = sns.regplot(x=obs, y=df.y)\nprint(ax.get_ylabel())",
      expect: 'y',
      beforeError: 'TypeError',
    },
    {
      before: SETUP + 'ax = sns.countplot(df.c)\nprint(ax.get_xlabel())',
      after: SETUP + 'ax = sns.countplot(x=df.c)\nprint(ax.get_xlabel())',
      expect: 'c',
      beforeOutcome: 'differs',
    },
  ],
  *find(ctx) {
    for (const { call, name, args } of snsCalls(ctx, OLD_POSITIONAL_NAMES)) {
      if (args.listSplat || args.positional.length === 0) continue;
      const first = args.positional[0];
      // New-style call: kdeplot/… with a single vector or a DataFrame first (sns.barplot(df, x='a')), both
      // still valid (the cheap test first: the DataFrame inference is notebook-wide work). Two or more
      // positional arguments are old-style whatever the first is: data is the only one 0.12 takes
      // (`sns.regplot(y_test, pred)` with a one-column frame `y_test`).
      if (args.positional.length === 1 && (name === 'kdeplot' || ctx.nb.isDataFrameExpr(first, ctx.index))) continue;
      const names = OLD_POSITIONAL[name];
      if (args.positional.length > names.length) { yield { node: call }; continue; }
      const edits: TextEdit[] = [];
      for (let i = 0; i < args.positional.length; i++) {
        if (args.keywords.has(names[i])) { edits.length = 0; break; }
        edits.push({ start: args.positional[i].startIndex, end: args.positional[i].startIndex, text: `${names[i]}=` });
      }
      if (edits.length) yield { node: call, edits };
      else yield { node: call };
    }
  },
});

const SIZE_FUNCS = ['factorplot', 'catplot', 'lmplot', 'pairplot', 'jointplot', 'FacetGrid', 'PairGrid', 'JointGrid'];

const sizeHeight = rule({
  id: 'seaborn-size-height',
  triggers: ['size'],
  library: 'seaborn',
  title: 'size= -> height=',
  old: 'sns.FacetGrid(df, col="c", size=3)',
  new: 'sns.FacetGrid(df, col="c", height=3)',
  removedIn: '0.12',
  errors: [err('TypeError', /unexpected keyword argument 'size'/)],
  link: WN('0.9.0'),
  message: "the figure-level size= parameter was renamed height= in seaborn 0.9 and removed later (lmplot, FacetGrid; elsewhere it is silently passed on)",
  fixtures: [{
    before: SETUP + "g = sns.FacetGrid(df, col='c', size=2)\nh = sns.lmplot(x='x', y='y', data=df, size=2)\nprint(g.fig.get_size_inches().tolist())",
    after: SETUP + "g = sns.FacetGrid(df, col='c', height=2)\nh = sns.lmplot(x='x', y='y', data=df, height=2)\nprint(g.fig.get_size_inches().tolist())",
    expect: '[4.0, 2.0]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { args } of snsCalls(ctx, SIZE_FUNCS)) {
      const kw = args.keywords.get('size');
      if (kw && !args.keywords.has('height')) yield { node: kw, edits: [renameKeyword(kw, 'height')] };
    }
  },
});

const statFunc = rule({
  id: 'seaborn-jointplot-stat-func',
  triggers: ['stat_func'],
  library: 'seaborn',
  title: 'jointplot(stat_func=)',
  old: 'sns.jointplot(x=..., y=..., stat_func=stats.pearsonr)',
  new: 'sns.jointplot(x=..., y=...)',
  removedIn: '0.11',
  errors: [err('AttributeError', /unexpected keyword argument 'stat_func'/)],
  link: WN('0.11.0'),
  message: 'jointplot(stat_func=) was removed in seaborn 0.11 (the statistic annotation is gone); the argument is dropped',
  fixtures: [{
    before: SETUP + "from scipy import stats\ng = sns.jointplot(x='x', y='y', data=df, stat_func=stats.pearsonr)\nprint(type(g).__name__)",
    after: SETUP + "from scipy import stats\ng = sns.jointplot(x='x', y='y', data=df)\nprint(type(g).__name__)",
    expect: 'JointGrid',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { args } of snsCalls(ctx, ['jointplot'])) {
      const kw = args.keywords.get('stat_func');
      if (kw) yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] };
    }
  },
});

const removedFunctions = rule({
  id: 'seaborn-removed-functions',
  triggers: ['corrplot', 'interactplot', 'coefplot', 'symmatplot'],
  library: 'seaborn',
  title: 'sns.corrplot / interactplot / coefplot',
  old: 'sns.corrplot(df)',
  new: 'sns.heatmap(df.corr(), annot=True)',
  removedIn: '0.9',
  autoFixable: false,
  errors: [noAttr('corrplot|interactplot|coefplot|symmatplot')],
  link: WN('0.6.0'),
  message: 'this seaborn function was removed: corrplot/symmatplot -> sns.heatmap(df.corr(), annot=True); interactplot/coefplot have no replacement (use statsmodels or matplotlib directly)',
  fixtures: [{
    before: SETUP + "ax = sns.corrplot(df[['x', 'y']])\nprint(type(ax).__name__)",
    manual: SETUP + "ax = sns.heatmap(df[['x', 'y']].corr(), annot=True)\nprint(type(ax).__name__)",
    expect: 'Axes',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['seaborn.corrplot', 'seaborn.interactplot', 'seaborn.coefplot', 'seaborn.symmatplot'])) yield { node };
  },
});

/** sns.axlabel(x, y, **kw) (deprecated 0.11, removed 0.12) set the current axes' two labels. */
const axlabel = rule({
  id: 'seaborn-axlabel',
  triggers: ['axlabel'],
  library: 'seaborn',
  title: 'sns.axlabel',
  old: "sns.axlabel('Age', 'Fare')",
  new: "plt.gca().set(xlabel='Age', ylabel='Fare')",
  removedIn: '0.12',
  errors: [noAttr('axlabel')],
  link: WN('0.11.0'),
  message: 'sns.axlabel was removed in seaborn 0.12 (deprecated in 0.11): it set the current axes\' x and y labels, as plt.xlabel/plt.ylabel or ax.set(xlabel=, ylabel=) do',
  fixtures: [{
    before: SETUP + "ax = sns.barplot(x='c', y='y', data=df)\nsns.axlabel('Class', 'Mean y')\nprint(ax.get_xlabel(), '|', ax.get_ylabel())",
    after: SETUP + "ax = sns.barplot(x='c', y='y', data=df)\nplt.gca().set(xlabel='Class', ylabel='Mean y')\nprint(ax.get_xlabel(), '|', ax.get_ylabel())",
    expect: 'Class | Mean y',
    beforeError: 'AttributeError',
  }, {
    before: SETUP + "plt.plot([1, 2])\nsns.axlabel('a', 'b', fontsize=7)\nprint(plt.gca().xaxis.label.get_fontsize(), plt.gca().get_ylabel())",
    after: SETUP + "plt.plot([1, 2])\nplt.xlabel('a', fontsize=7); plt.ylabel('b', fontsize=7)\nprint(plt.gca().xaxis.label.get_fontsize(), plt.gca().get_ylabel())",
    expect: '7.0 b',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, args } of snsCalls(ctx, ['axlabel'])) {
      const ref = ctx.moduleRef('matplotlib.pyplot', 'plt');
      const [x, y] = args.positional;
      if (!ref || args.positional.length !== 2 || args.splat) { yield { node: call }; continue; }
      const kws = [...args.keywords.values()].map((k) => k.text);
      const imports = ref.edit ? [ref.edit] : [];
      if (!kws.length) { yield { node: call, edits: [replaceNode(call, `${ref.name}.gca().set(xlabel=${x.text}, ylabel=${y.text})`), ...imports] }; continue; }
      if (call.parent?.type !== 'expression_statement') { yield { node: call }; continue; }
      const more = kws.map((k) => `, ${k}`).join('');
      yield { node: call, edits: [replaceNode(call, `${ref.name}.xlabel(${x.text}${more}); ${ref.name}.ylabel(${y.text}${more})`), ...imports] };
    }
  },
});

const splitDodge = rule({
  id: 'seaborn-split-dodge',
  triggers: ['split'],
  library: 'seaborn',
  title: 'stripplot/swarmplot(split=)',
  old: "sns.stripplot(x='c', y='y', hue='h', data=df, split=True)",
  new: "sns.stripplot(x='c', y='y', hue='h', data=df, dodge=True)",
  removedIn: '0.10',
  errors: [err('AttributeError', /unexpected keyword argument 'split'/)],
  link: WN('0.9.0'),
  message: "stripplot/swarmplot's split= was renamed dodge= in seaborn 0.9 (and is now passed on to matplotlib, which rejects it)",
  fixtures: [{
    before: SETUP + "ax = sns.stripplot(x='c', y='y', hue='x', data=df, jitter=True, split=True)\nprint(ax.get_xlabel())",
    after: SETUP + "ax = sns.stripplot(x='c', y='y', hue='x', data=df, jitter=True, dodge=True)\nprint(ax.get_xlabel())",
    expect: 'c',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { args } of snsCalls(ctx, ['stripplot', 'swarmplot'])) {
      const kw = args.keywords.get('split');
      if (kw && !args.keywords.has('dodge')) yield { node: kw, edits: [renameKeyword(kw, 'dodge')] };
    }
  },
});

const snsPlt = rule({
  id: 'seaborn-plt-alias',
  triggers: ['plt'],
  library: 'seaborn',
  title: 'sns.plt',
  old: 'sns.plt.show()',
  new: 'plt.show()  (import matplotlib.pyplot as plt)',
  removedIn: '0.8',
  errors: [err('AttributeError', /module 'seaborn' has no attribute 'plt'/)],
  link: WN('0.8.0'),
  message: 'seaborn no longer re-exports matplotlib.pyplot as sns.plt; use matplotlib.pyplot directly',
  fixtures: [{
    before: SETUP + "sns.plt.plot([1, 2])\nprint(len(sns.plt.gca().lines))",
    after: SETUP + "plt.plot([1, 2])\nprint(len(plt.gca().lines))",
    expect: '1',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['seaborn.plt'])) {
      const ref = ctx.moduleRef('matplotlib.pyplot', 'plt');
      if (!ref) { yield { node }; continue; }
      yield { node, edits: [replaceNode(node, ref.name), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

/** The pre-0.11 bivariate KDE: kdeplot(data, data2) was x and y; now `data` is a DataFrame and data2 is gone. */
const kdeplotData2 = rule({
  id: 'seaborn-kdeplot-data2',
  triggers: ['data2'],
  library: 'seaborn',
  title: 'kdeplot(data2=)',
  old: 'sns.kdeplot(df.x, data2=df.y) / sns.kdeplot(data=df.x, data2=df.y)',
  new: 'sns.kdeplot(x=df.x, y=df.y)',
  removedIn: '0.11',
  errors: [err('TypeError', /`data2` has been removed \(replaced by `y`\)/)],
  link: WN('0.11.0'),
  message: 'kdeplot(data2=) was removed in seaborn 0.11: the bivariate KDE takes x= and y= (data= is now a DataFrame)',
  fixtures: [{
    before: SETUP + 'ax = sns.kdeplot(df.x, data2=df.y)\nax2 = sns.kdeplot(data=df.x, data2=df.y)\nprint(ax.get_xlabel(), ax.get_ylabel())',
    after: SETUP + 'ax = sns.kdeplot(x=df.x, y=df.y)\nax2 = sns.kdeplot(x=df.x, y=df.y)\nprint(ax.get_xlabel(), ax.get_ylabel())',
    expect: 'x y',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, args } of snsCalls(ctx, ['kdeplot'])) {
      const kw = args.keywords.get('data2');
      if (!kw) continue;
      if (args.keywords.has('y') || args.keywords.has('x') || args.positional.length > 1 || args.listSplat) { yield { node: call }; continue; }
      const edits: TextEdit[] = [renameKeyword(kw, 'y')];
      const data = args.keywords.get('data');
      const first = args.positional[0];
      // The old first argument was the x vector; a DataFrame there is the new API and cannot pair with data2.
      if (data) edits.push(renameKeyword(data, 'x'));
      else if (first && !ctx.nb.isDataFrameExpr(first, ctx.index)) edits.push({ start: first.startIndex, end: first.startIndex, text: 'x=' });
      else { yield { node: call }; continue; }
      yield { node: kw, edits };
    }
  },
});

/** Modules removed in 0.10: apionly (the import that skipped the style change, which plain `import seaborn` no longer makes) and linearmodels. */
const removedModules = rule({
  id: 'seaborn-removed-modules',
  triggers: ['apionly', 'linearmodels'],
  library: 'seaborn',
  title: 'seaborn.apionly / seaborn.linearmodels',
  old: 'import seaborn.apionly as sns',
  new: 'import seaborn as sns',
  removedIn: '0.10',
  errors: [err('ModuleNotFoundError', /No module named 'seaborn\.(apionly|linearmodels)'/)],
  link: WN('0.10.0'),
  message: "seaborn.apionly was removed in seaborn 0.10 (since 0.8 a plain import does not change matplotlib's style, so it is the same thing); seaborn.linearmodels is seaborn.regression",
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn.apionly as sns\nprint(sns.__name__, callable(sns.barplot))",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nprint(sns.__name__, callable(sns.barplot))",
    expect: 'seaborn True',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { 'seaborn.apionly': 'seaborn', 'seaborn.linearmodels': 'seaborn.regression' });
  },
});

/** JointGrid.annotate(stats.pearsonr) (0.9 deprecation, removed 0.11): a scipy.stats function as first argument tells it from matplotlib's annotate(text, xy). */
const jointAnnotate = rule({
  id: 'seaborn-jointgrid-annotate',
  triggers: ['annotate'],
  library: 'seaborn',
  title: 'JointGrid.annotate(stats.pearsonr)',
  old: 'g = sns.jointplot(...); g.annotate(stats.pearsonr)',
  new: 'g = sns.jointplot(...)  (annotation dropped)',
  removedIn: '0.11',
  errors: [err('AttributeError', /'JointGrid' object has no attribute 'annotate'/)],
  link: WN('0.11.0'),
  message: 'JointGrid.annotate was removed in seaborn 0.11 (the statistic legend is gone); the call is dropped and the plot kept',
  fixtures: [{
    before: SETUP + "from scipy import stats\ng = sns.jointplot(x='x', y='y', data=df).annotate(stats.pearsonr)\ng.annotate(stats.spearmanr)\nprint(type(g).__name__)",
    after: SETUP + "from scipy import stats\ng = sns.jointplot(x='x', y='y', data=df)\nprint(type(g).__name__)",
    expect: 'JointGrid',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['annotate'])) {
      const first = callArgs(call)?.positional[0];
      if (!first || !ctx.qname(first)?.startsWith('scipy.stats.')) continue;
      const stmt = call.parent;
      if (stmt?.type === 'expression_statement' && recv.type === 'identifier') yield { node: call, edits: [deleteStatement(ctx, stmt)] };
      else yield { node: call, edits: [replaceNode(call, recv.text)] };
    }
  },
});

/** The grids whose `dropna` default went from True to False in seaborn 0.11. */
const GRIDS = ['FacetGrid', 'PairGrid', 'JointGrid'];
/** What matplotlib raises for a NaN among the strings a grid's map hands it (categorical axis). */
const NAN_AMONG_STRINGS = /Failed to convert value\(s\) to axis units|'value' must be an instance of str or bytes, not a float/;

const gridDropna = rule({
  id: 'seaborn-grid-dropna',
  triggers: GRIDS,
  library: 'seaborn',
  title: 'FacetGrid / PairGrid / JointGrid dropna True -> False',
  old: "sns.FacetGrid(df, col='Survived').map(plt.hist, 'Embarked')",
  new: "sns.FacetGrid(df, col='Survived', dropna=True).map(plt.hist, 'Embarked')",
  removedIn: '0.11',
  trigger: 'error',
  errors: [err('ConversionError', NAN_AMONG_STRINGS), err('TypeError', NAN_AMONG_STRINGS)],
  link: WN('0.11.0'),
  message: "the grids' dropna default changed from True to False in seaborn 0.11: missing values now reach the mapped function (a NaN among strings breaks matplotlib's categorical axis); dropna=True is what the notebook ran with",
  fixtures: [{
    before: SETUP + "import numpy as np\nd = pd.DataFrame({'s': [0, 1, 0, 1, 0], 'e': ['S', 'C', np.nan, 'S', 'Q']})\ng = sns.FacetGrid(data=d, col='s').map(plt.hist, 'e')\nprint([len(ax.patches) for ax in g.axes.flat])",
    after: SETUP + "import numpy as np\nd = pd.DataFrame({'s': [0, 1, 0, 1, 0], 'e': ['S', 'C', np.nan, 'S', 'Q']})\ng = sns.FacetGrid(data=d, col='s', dropna=True).map(plt.hist, 'e')\nprint([len(ax.patches) for ax in g.axes.flat])",
    expect: '[10, 10]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: "'value' must be an instance of str or bytes, not a float" } },
  }],
  *find(ctx) {
    for (const { args } of snsCalls(ctx, GRIDS)) {
      if (!args.splat && !args.keywords.has('dropna')) yield { node: args.list, edits: [addArgument(args, 'dropna=True')] };
    }
  },
});

/** What pandas raises when seaborn reindexes a frame whose index repeats labels (2.x wording, then 1.x). */
const DUPLICATE_AXIS = /cannot reindex (?:on an axis with duplicate labels|from a duplicate axis)/;

/** Plotting functions and grids that take a frame as `data` (the grids and pairplot also as their first argument). */
const DATA_TAKERS = ['barplot', 'boxplot', 'violinplot', 'boxenplot', 'pointplot', 'countplot', 'stripplot', 'swarmplot', 'catplot', 'factorplot', 'lineplot', 'scatterplot', 'relplot', 'histplot', 'kdeplot', 'ecdfplot', 'rugplot', 'displot', 'regplot', 'residplot', 'lmplot', 'jointplot', 'pairplot', 'FacetGrid', 'PairGrid', 'JointGrid'];
const DATA_FIRST = new Set(['pairplot', 'FacetGrid', 'PairGrid']);

const duplicateIndex = rule({
  id: 'seaborn-duplicate-index',
  triggers: DATA_TAKERS,
  library: 'seaborn',
  title: 'a frame with repeated index labels given as data (reindexed since 0.11.2)',
  old: "sns.barplot(x='Pclass', y='Fare', data=pd.concat([train, test]))",
  new: "sns.barplot(x='Pclass', y='Fare', data=pd.concat([train, test]).reset_index(drop=True))",
  removedIn: '0.11.2',
  trigger: 'error',
  errors: [err('ValueError', DUPLICATE_AXIS)],
  link: 'https://github.com/mwaskom/seaborn/issues/2709',
  message: "since seaborn 0.11.2 the plotting functions reindex their data, which fails when the frame's index repeats labels (pd.concat([train, test]) keeps both frames' 0..n): the frame's columns are what is plotted, so data=<frame>.reset_index(drop=True) draws what 0.11.1 drew (the maintainers' own advice)",
  fixtures: [{
    before: SETUP + "d = pd.concat([df, df.assign(y=[1.0, None, 2.0, None])])\nax = sns.barplot(x='c', y='y', data=d)\nprint(len(ax.patches))",
    after: SETUP + "d = pd.concat([df, df.assign(y=[1.0, None, 2.0, None])])\nax = sns.barplot(x='c', y='y', data=d.reset_index(drop=True))\nprint(len(ax.patches))",
    expect: '2',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'cannot reindex on an axis with duplicate labels' } },
  }],
  *find(ctx) {
    const at = atRuntimeError(ctx, DUPLICATE_AXIS);
    if (!at) return;
    for (const { call, name, args } of snsCalls(ctx, DATA_TAKERS)) {
      if (!at.onLine(call)) continue;
      const data = kwValue(args.keywords.get('data')) ?? (DATA_FIRST.has(name) ? args.positional[0] : undefined);
      if (!data || /\.reset_index\(/.test(data.text)) continue;
      yield { node: data, edits: [replaceNode(data, `${paren(data)}.reset_index(drop=True)`)] };
    }
  },
});

export const seabornRules: Rule[] = [duplicateIndex, gridDropna, factorplot, lvplot, tsplot, positional, sizeHeight, statFunc, removedFunctions, axlabel, splitDodge, snsPlt, kdeplotData2, removedModules, jointAnnotate];

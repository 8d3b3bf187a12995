/**
 * pandas 0.20–2.2 change-record items, counted record by record (docs/rules-coverage.md), that
 * break in pandas 2.2 and need more than a table entry: a setter that became a method
 * (`s.cat.categories = ...`, 2.0), a constructor form that became a function (`DatetimeIndex(start=)`,
 * 1.0), Styler setters folded into `format()` (2.0), Index set operators that became element-wise
 * (`&`/`|`/`^` in 2.0, `-` since 0.20), `Index.contains` (1.0), the `raw=` default of
 * `rolling/expanding(...).apply` (1.0), a date string as a row key of a DataFrame (2.0) and
 * `to_datetime` of mixed formats (2.0). Each rewrite computes what the old code computed.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, callArgs, isPure, paren, replaceNode, stringValue } from './tree.js';
import { atRuntimeError } from './traceback.js';

const WN = (v: string, anchor = 'removal-of-prior-version-deprecations-changes') => `https://pandas.pydata.org/docs/whatsnew/v${v}.html#${anchor}`;
const ASSIGNABLE = new Set(['identifier', 'attribute', 'subscript']);

export const pandasCatCategoriesSetter: Rule = rule({
  id: 'pandas-cat-categories-setter',
  triggers: ['categories'],
  library: 'pandas',
  title: 's.cat.categories = new_names',
  old: "df['c'].cat.categories = ['low', 'high']",
  new: "df['c'] = df['c'].cat.rename_categories(['low', 'high'])",
  removedIn: '2.0',
  deprecatedIn: '1.5',
  errors: [err('AttributeError', /property 'categories' of 'Categorical' object has no setter|can't set attribute/)],
  link: WN('2.0.0'),
  message: 'setting .cat.categories was removed in pandas 2.0: rename_categories() returns the renamed Series, assigned back',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'c': ['b', 'a', 'b']}, dtype='category')\ndf['c'].cat.categories = ['A', 'B']\nprint(df['c'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'c': ['b', 'a', 'b']}, dtype='category')\ndf['c'] = df['c'].cat.rename_categories(['A', 'B'])\nprint(df['c'].tolist())",
    expect: "['B', 'A', 'B']",
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const asg of ctx.nodes('assignment')) {
      const left = asg.childForFieldName('left');
      const right = asg.childForFieldName('right');
      if (!left || !right || left.type !== 'attribute' || left.childForFieldName('attribute')?.text !== 'categories') continue;
      const cat = left.childForFieldName('object');
      if (cat?.type !== 'attribute' || cat.childForFieldName('attribute')?.text !== 'cat') continue;
      const series = cat.childForFieldName('object')!;
      if (!ASSIGNABLE.has(series.type) || !isPure(series) || asg.parent?.type !== 'expression_statement') { yield { node: asg }; continue; }
      yield { node: asg, edits: [replaceNode(asg, `${series.text} = ${series.text}.cat.rename_categories(${right.text})`)] };
    }
  },
});

const RANGE_FUNCTIONS: Record<string, string> = { DatetimeIndex: 'date_range', PeriodIndex: 'period_range', TimedeltaIndex: 'timedelta_range' };

export const pandasIndexConstructorRange: Rule = rule({
  id: 'pandas-index-constructor-range',
  triggers: Object.keys(RANGE_FUNCTIONS),
  library: 'pandas',
  title: 'DatetimeIndex(start=, end=, periods=, freq=)',
  old: "pd.DatetimeIndex(start='2015-01-01', periods=3, freq='D')",
  new: "pd.date_range(start='2015-01-01', periods=3, freq='D')",
  removedIn: '1.0',
  deprecatedIn: '0.24',
  errors: [err('TypeError', /(DatetimeIndex\.)?__new__\(\) got an unexpected keyword argument '?(start|end|periods)/)],
  link: WN('1.0.0'),
  message: 'the start/end/periods keywords of DatetimeIndex/PeriodIndex/TimedeltaIndex were removed in pandas 1.0: use date_range/period_range/timedelta_range',
  fixtures: [{
    before: "import pandas as pd\ni = pd.DatetimeIndex(start='2015-01-01', periods=3, freq='D')\np = pd.PeriodIndex(start='2015-01', end='2015-03', freq='M')\nprint(i[-1].day, len(p))",
    after: "import pandas as pd\ni = pd.date_range(start='2015-01-01', periods=3, freq='D')\np = pd.period_range(start='2015-01', end='2015-03', freq='M')\nprint(i[-1].day, len(p))",
    expect: '3 3',
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call, fn, qname } of ctx.callsTo(Object.keys(RANGE_FUNCTIONS).map((c) => `pandas.${c}`))) {
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length) continue;
      if (!['start', 'end', 'periods'].some((k) => args.keywords.has(k))) continue;
      const cls = qname.split('.').pop()!;
      // closed= became inclusive= in date_range (2.0); the call is only reported then.
      if (args.keywords.has('closed') || args.keywords.has('verify_integrity') || args.keywords.has('data')) { yield { node: call }; continue; }
      const target = fn.type === 'attribute' ? `${fn.childForFieldName('object')!.text}.${RANGE_FUNCTIONS[cls]}` : undefined;
      if (!target) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(fn, target)] };
    }
  },
});

const STYLER_SETTERS: Record<string, string> = { set_precision: 'precision', set_na_rep: 'na_rep' };

export const pandasStylerSetters: Rule = rule({
  id: 'pandas-styler-set-precision',
  triggers: Object.keys(STYLER_SETTERS),
  library: 'pandas',
  title: 'Styler.set_precision(n) / Styler.set_na_rep(s)',
  old: 'df.style.set_precision(2)',
  new: 'df.style.format(precision=2)',
  removedIn: '2.0',
  deprecatedIn: '1.3',
  errors: [err('AttributeError', /'Styler' object has no attribute '(set_precision|set_na_rep)'/)],
  link: WN('2.0.0'),
  message: 'Styler.set_precision()/set_na_rep() were removed in pandas 2.0: use Styler.format(precision=..., na_rep=...)',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1.23456, None]})\nh = df.style.set_precision(2).set_na_rep('-').to_html()\nprint('>1.23<' in h, '>-<' in h, '>1.235<' in df.style.set_precision(3).to_html())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1.23456, None]})\nh = df.style.format(precision=2, na_rep='-').to_html()\nprint('>1.23<' in h, '>-<' in h, '>1.235<' in df.style.format(precision=3).to_html())",
    expect: 'True True True',
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const setter = (n: SyntaxNode | null | undefined) => {
      if (n?.type !== 'call') return undefined;
      const f = n.childForFieldName('function');
      const name = f?.type === 'attribute' ? f.childForFieldName('attribute') : undefined;
      const args = callArgs(n);
      return name && name.text in STYLER_SETTERS && args && !args.splat && args.positional.length === 1 && !args.keywords.size
        ? { name, value: args.positional[0], kw: STYLER_SETTERS[name.text] } : undefined;
    };
    for (const { call } of ctx.methodCalls(Object.keys(STYLER_SETTERS))) {
      const me = setter(call);
      if (!me) { yield { node: call }; continue; }
      // A chain of both setters becomes one format(): a second format() would reset the first's option.
      const outer = call.parent?.type === 'attribute' ? setter(call.parent.parent) : undefined;
      if (outer && outer.kw !== me.kw) continue;
      const inner = setter(call.childForFieldName('function')!.childForFieldName('object'));
      if (inner && inner.kw !== me.kw) {
        yield { node: call, edits: [{ start: inner.name.startIndex, end: call.endIndex, text: `format(${inner.kw}=${inner.value.text}, ${me.kw}=${me.value.text})` }] };
        continue;
      }
      yield { node: call, edits: [{ start: me.name.startIndex, end: call.endIndex, text: `format(${me.kw}=${me.value.text})` }] };
    }
  },
});

const SET_OPS: Record<string, string> = { '&': 'intersection', '|': 'union', '^': 'symmetric_difference', '-': 'difference' };

/** `x.columns` / `x.index` (the frame's axes: Index objects). */
function isAxis(n: SyntaxNode | null | undefined, names = ['columns', 'index']): n is SyntaxNode {
  return !!n && n.type === 'attribute' && names.includes(n.childForFieldName('attribute')?.text ?? '');
}

export const pandasIndexSetOperators: Rule = rule({
  id: 'pandas-index-set-operators',
  triggers: ['columns', 'index'],
  library: 'pandas',
  title: 'a.columns & b.columns / | / ^ / a.columns - [...] as set operations',
  old: "common = train.columns & test.columns; feats = train.columns - ['target']",
  new: "common = train.columns.intersection(test.columns); feats = train.columns.difference(['target'])",
  removedIn: '2.0',
  deprecatedIn: '1.2',
  errors: [err('TypeError', /unsupported operand type\(s\) for [&|^-]: 'str' and 'str'|Cannot broadcast np\.ndarray with operand of type <class 'list'>/), err('ValueError', /operands could not be broadcast together|Arrays were different lengths/)],
  link: WN('2.0.0'),
  message: 'Index &, |, ^ are element-wise logical operations since pandas 2.0 (and - arithmetic since 0.20), no longer set operations: use intersection/union/symmetric_difference/difference',
  fixtures: [{
    before: "import pandas as pd\na = pd.DataFrame(columns=['x', 'y', 't'])\nb = pd.DataFrame(columns=['y', 'x'])\nprint(list(a.columns & b.columns), list(a.columns | b.columns), list(a.columns - ['t']))",
    after: "import pandas as pd\na = pd.DataFrame(columns=['x', 'y', 't'])\nb = pd.DataFrame(columns=['y', 'x'])\nprint(list(a.columns.intersection(b.columns)), list(a.columns.union(b.columns)), list(a.columns.difference(['t'])))",
    expect: "['x', 'y'] ['t', 'x', 'y'] ['x', 'y']",
    beforeError: 'ValueError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const op of ctx.nodes('binary_operator')) {
      const sym = op.childForFieldName('operator')?.text ?? '';
      const method = SET_OPS[sym];
      const left = op.childForFieldName('left');
      const right = op.childForFieldName('right');
      if (!method || !left || !right) continue;
      // &, |, ^: both sides a frame axis. -: the left a frame's columns (labels, not numbers) and the
      // right a literal list/set or another frame's columns.
      const ok = sym === '-'
        ? isAxis(left, ['columns']) && (right.type === 'list' || right.type === 'set' || isAxis(right, ['columns']))
        : isAxis(left) && isAxis(right);
      if (!ok) continue;
      yield { node: op, edits: [replaceNode(op, `${left.text}.${method}(${right.type === 'set' ? `list(${right.text})` : right.text})`)] };
    }
  },
});

export const pandasIndexContains: Rule = rule({
  id: 'pandas-index-contains',
  triggers: ['contains'],
  library: 'pandas',
  title: 'Index.contains(key)',
  old: "df.columns.contains('a')",
  new: "('a' in df.columns)",
  removedIn: '1.0',
  deprecatedIn: '0.25',
  errors: [err('AttributeError', /'\w*Index' object has no attribute 'contains'/)],
  link: WN('1.0.0'),
  message: 'Index.contains() was removed in pandas 1.0: use `key in index`',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nprint(df.columns.contains('a'), df.index.contains(5))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nprint(('a' in df.columns), (5 in df.index))",
    expect: 'True False',
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call, recv } of ctx.methodCalls(['contains'])) {
      if (!isAxis(recv)) continue; // s.str.contains is the string method
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length !== 1 || args.keywords.size) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(call, `(${paren(args.positional[0])} in ${recv.text})`)] };
    }
  },
});

/** Names of attributes a Series has and an ndarray lacks: a function using them was written for raw=False. */
const SERIES_ONLY = /\.(iloc|loc|iat|at|index|values|to_numpy|name|shift|diff|pct_change|rolling|ewm|isna|isnull|notna|fillna|dropna|value_counts|idxmax|idxmin|mode|nunique|unique|dt|str|cat|tolist|to_list|head|tail|apply|map)\b/;

export const pandasRollingApplyRaw: Rule = rule({
  id: 'pandas-rolling-apply-raw',
  triggers: ['apply'],
  library: 'pandas',
  title: 'rolling/expanding(...).apply(func) passed arrays until pandas 1.0',
  old: 's.rolling(3).apply(lambda x: x[-1] - x[0])',
  new: 's.rolling(3).apply(lambda x: x[-1] - x[0], raw=True)',
  removedIn: '1.0',
  deprecatedIn: '0.23',
  errors: [err('KeyError', /^-?\d+$/)],
  link: WN('1.0.0'),
  message: "until pandas 1.0, rolling/expanding apply passed each window to the function as a numpy array; since 1.0 (raw=False) it is a Series, so x[-1] is a label lookup (KeyError) and positions differ: raw=True restores the array",
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1.0, 4.0, 9.0, 16.0])\nprint(s.rolling(2).apply(lambda x: x[-1] - x[0]).tolist())",
    after: "import pandas as pd\ns = pd.Series([1.0, 4.0, 9.0, 16.0])\nprint(s.rolling(2).apply(lambda x: x[-1] - x[0], raw=True).tolist())",
    expect: '[nan, 3.0, 5.0, 7.0]',
    beforeError: 'KeyError',
  }],
  *find(ctx): Generator<RuleMatch> {
    if (ctx.nb.info.era.predates('pandas', '1.0') === false) return;
    for (const { call, recv } of ctx.methodCalls(['apply'])) {
      // recv is the window: `<x>.rolling(...)` / `<x>.expanding(...)` (a call).
      if (recv.type !== 'call') continue;
      const wfn = recv.childForFieldName('function');
      const wname = wfn?.type === 'attribute' ? wfn.childForFieldName('attribute')?.text : undefined;
      if (wname !== 'rolling' && wname !== 'expanding') continue;
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('raw') || args.positional.length !== 1) continue;
      const func = args.positional[0];
      // Only a function whose body can be read: a lambda not written for Series windows, or a numpy function.
      if (func.type === 'lambda') {
        if (SERIES_ONLY.test(func.childForFieldName('body')?.text ?? '')) continue;
      } else if (!(func.type === 'attribute' && ['numpy', 'np'].includes(func.childForFieldName('object')?.text ?? ''))) {
        continue;
      }
      yield { node: call, edits: [addArgument(args, 'raw=True')] };
    }
  },
});

const DATE_KEY = /^'(\d{4}(?:-\d{1,2}){0,2})'$/;

export const pandasDateStringRowKey: Rule = rule({
  id: 'pandas-date-string-row-key',
  library: 'pandas',
  title: "df['2015-01'] selecting rows of a DatetimeIndex",
  old: "df['2015-01']",
  new: "df.loc['2015-01']",
  removedIn: '2.0',
  deprecatedIn: '1.2',
  trigger: 'error',
  errors: [err('KeyError', /^'\d{4}(-\d{1,2}){0,2}'$/)],
  link: WN('2.0.0'),
  message: "a date string in df[...] selected rows of a DatetimeIndex until pandas 2.0; now it is a column key: use df.loc['2015-01']",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'v': [1, 2, 3]}, index=pd.date_range('2015-01-30', periods=3, freq='D'))\nprint(df['2015-02']['v'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'v': [1, 2, 3]}, index=pd.date_range('2015-01-30', periods=3, freq='D'))\nprint(df.loc['2015-02']['v'].tolist())",
    expect: '[3]',
    beforeError: 'KeyError',
    context: { runtime: { ename: 'KeyError', evalue: "'2015-02'" } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, DATE_KEY);
    if (!at || ctx.nb.info.runtime?.ename !== 'KeyError') return;
    const key = at.match[1];
    for (const sub of ctx.nodes('subscript')) {
      if (!at.onLine(sub)) continue;
      const value = sub.childForFieldName('value');
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (!value || keys.length !== 1 || stringValue(keys[0]) !== key) continue;
      if (value.type === 'attribute' && ['loc', 'iloc', 'at', 'iat'].includes(value.childForFieldName('attribute')?.text ?? '')) continue;
      const parent = sub.parent;
      if (parent?.type === 'assignment' && parent.childForFieldName('left')?.startIndex === sub.startIndex) continue;
      yield { node: sub, edits: [{ start: value.endIndex, end: value.endIndex, text: '.loc' }] };
    }
  },
});

export const pandasToDatetimeMixed: Rule = rule({
  id: 'pandas-to-datetime-mixed-formats',
  library: 'pandas',
  title: 'to_datetime of strings in several formats',
  old: "pd.to_datetime(df['date'])",
  new: "pd.to_datetime(df['date'], format='mixed')",
  removedIn: '2.0',
  trigger: 'error',
  errors: [err('ValueError', /doesn't match format .*You might want to try/s)],
  link: WN('2.0.0', 'datetimes-are-now-parsed-with-a-consistent-format'),
  message: "since pandas 2.0 to_datetime parses every string with the format of the first one; before, each was parsed on its own: format='mixed' does that",
  fixtures: [{
    before: "import pandas as pd\nprint(pd.to_datetime(pd.Series(['2015-01-02', '03/04/2015', '5 Jun 2015'])).dt.month.tolist())",
    after: "import pandas as pd\nprint(pd.to_datetime(pd.Series(['2015-01-02', '03/04/2015', '5 Jun 2015']), format='mixed').dt.month.tolist())",
    expect: '[1, 3, 6]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'time data "03/04/2015" doesn\'t match format "%Y-%m-%d", at position 1. You might want to try:' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, /doesn't match format/);
    if (!at) return;
    for (const { call } of ctx.callsTo(['pandas.to_datetime'])) {
      if (!at.onLine(call)) continue;
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('format') || !args.positional.length) continue;
      const infer = args.keywords.get('infer_datetime_format');
      yield { node: call, edits: [infer ? replaceNode(infer, "format='mixed'") : addArgument(args, "format='mixed'")] };
    }
  },
});

export const pandasRecordForms: Rule[] = [
  pandasCatCategoriesSetter, pandasIndexConstructorRange, pandasStylerSetters, pandasIndexSetOperators,
  pandasIndexContains, pandasRollingApplyRaw, pandasDateStringRowKey, pandasToDatetimeMixed,
];

/**
 * pandas 0.18.0 made `.resample(rule)` a deferred, groupby-like operation (whatsnew 0.18.0,
 * "Resample API"). Before it, `df.resample('W')` evaluated at once with `how='mean'`; from 0.18 to
 * the end of the 0.x shims, using the Resampler as if it were the frame materialised it "by
 * implicitly taking the mean" (FutureWarning). pandas 2.2 has no such shim: a boolean mask raises
 * `KeyError: 'Columns not found: False, True'`, `.index` / `.plot()` / `.head()` an AttributeError,
 * arithmetic a TypeError, `== 0` quietly gives False, and a displayed resampler prints its repr.
 *
 * So where a resampler without an aggregation is used as a frame (subscripted with something that
 * is not a column name, an attribute a Resampler does not have, an operand, or displayed as a
 * cell's last expression), the old code meant the mean: `.mean()` is written after the call. A
 * resampler bound to a name is rewritten where it is bound when every later use of the name is such
 * a frame use. Uses the new API has (`r['col']`, `r.sum()`, `r.agg(...)`) are left alone: they are
 * what code written for 0.18+ looks like.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, methodCall, stringValue } from './tree.js';

/** Public attributes of pandas 2.2's DatetimeIndexResampler (dir() in the fixed environment), plus the other resamplers' few. */
const RESAMPLER_API = new Set([
  'agg', 'aggregate', 'apply', 'asfreq', 'ax', 'bfill', 'binner', 'count', 'ffill', 'fillna', 'first', 'get_group',
  'groups', 'include_groups', 'indices', 'interpolate', 'kind', 'last', 'max', 'mean', 'median', 'min', 'ndim',
  'nearest', 'ngroups', 'nunique', 'ohlc', 'pipe', 'prod', 'quantile', 'sem', 'size', 'std', 'sum', 'transform',
  'var', 'pad', 'backfill', 'obj',
]);

/**
 * Attributes of a DataFrame / Series an era notebook reads off a resampled frame. Other names could
 * be a column read as an attribute (`r.count` is the resampler's, `r.temp` a column's SeriesGroupBy),
 * so only these frame members count as evidence.
 */
const FRAME_MEMBERS = new Set([
  'index', 'values', 'columns', 'shape', 'loc', 'iloc', 'ix', 'at', 'iat', 'T', 'plot', 'hist', 'boxplot', 'head', 'tail',
  'cumsum', 'cumprod', 'cummax', 'cummin', 'diff', 'pct_change', 'shift', 'rolling', 'expanding', 'ewm', 'dropna',
  'reset_index', 'set_index', 'rename', 'to_csv', 'to_frame', 'to_dict', 'tolist', 'to_numpy', 'describe', 'unstack',
  'stack', 'round', 'abs', 'corr', 'cov', 'idxmax', 'idxmin', 'sort_values', 'sort_index', 'reindex', 'iterrows',
  'itertuples', 'items', 'iteritems', 'copy', 'where', 'mask', 'clip', 'div', 'mul', 'add', 'sub', 'truediv',
  'tz_localize', 'tz_convert', 'to_period', 'unique', 'value_counts', 'nlargest', 'nsmallest', 'astype', 'empty',
  'dtypes', 'dtype', 'info', 'isnull', 'isna', 'notnull', 'notna', 'drop', 'join', 'merge', 'query', 'fillna_', 'style',
]);

/** Is `key` a column selection the new API also has (a string, or a list / tuple of strings)? */
function columnKey(key: SyntaxNode): boolean {
  if (stringValue(key) !== undefined) return true;
  if (key.type === 'list' || key.type === 'tuple') {
    const items = key.namedChildren.filter((c): c is SyntaxNode => !!c);
    return items.length > 0 && items.every((c) => stringValue(c) !== undefined);
  }
  return false;
}

/** How an expression whose value is a resampler is consumed: as a frame, as a resampler, or not known. */
function consumer(expr: SyntaxNode): 'frame' | 'resampler' | 'unknown' {
  let node = expr;
  while (node.parent?.type === 'parenthesized_expression') node = node.parent;
  const p = node.parent;
  if (!p) return 'unknown';
  if (p.type === 'attribute' && p.childForFieldName('object')?.id === node.id) {
    const name = p.childForFieldName('attribute')?.text ?? '';
    if (RESAMPLER_API.has(name)) return 'resampler';
    return FRAME_MEMBERS.has(name) ? 'frame' : 'unknown';
  }
  if (p.type === 'subscript' && p.childForFieldName('value')?.id === node.id) {
    const key = p.childForFieldName('subscript');
    if (!key) return 'unknown';
    return columnKey(key) ? 'resampler' : 'frame';
  }
  if (p.type === 'binary_operator' || p.type === 'comparison_operator' || p.type === 'unary_operator') return 'frame';
  // The cell's last statement, displayed: the author saw a frame, pandas 2.2 prints the resampler's repr.
  if (p.type === 'expression_statement' && isLastStatement(p)) return 'frame';
  return 'unknown';
}

function isLastStatement(stmt: SyntaxNode): boolean {
  if (stmt.parent?.type !== 'module') return false;
  const named = stmt.parent.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
  return named[named.length - 1]?.id === stmt.id;
}

/** A `.resample(...)` call without the removed how= / fill_method= (PD029 rewrites those). */
function bareResample(call: SyntaxNode): boolean {
  if (methodCall(call)?.name !== 'resample') return false;
  const args = callArgs(call);
  return !!args && !args.splat && !args.keywords.has('how') && !args.keywords.has('fill_method') && args.all.length > 0;
}

/** The name a statement `name = <call>` binds, when the call is the whole right-hand side. */
function boundName(call: SyntaxNode): string | undefined {
  const p = call.parent;
  if (p?.type !== 'assignment' || p.childForFieldName('right')?.id !== call.id) return undefined;
  const left = p.childForFieldName('left');
  return left?.type === 'identifier' ? left.text : undefined;
}

/** Every later use of `name` is a frame use (and there is one), and the name is bound only here. */
function usedOnlyAsFrame(ctx: CellContext, name: string, def: SyntaxNode): boolean {
  let frameUses = 0;
  for (const { node, cell } of ctx.nb.identifiers(name)) {
    if (cell === ctx.index && node.startIndex === def.startIndex) continue;
    const p = node.parent;
    if (p?.type === 'assignment' && p.childForFieldName('left')?.id === node.id) return false;
    if (p?.type === 'attribute' && p.childForFieldName('attribute')?.id === node.id) continue;
    if (p?.type === 'keyword_argument' && p.childForFieldName('name')?.id === node.id) continue;
    const use = consumer(node);
    if (use !== 'frame') return false;
    frameUses++;
  }
  return frameUses > 0;
}

export const pandasResampleImplicitMean: Rule = rule({
  id: 'pandas-resample-implicit-mean',
  triggers: ['resample'],
  library: 'pandas',
  title: 'resample(rule) used as the resampled frame',
  old: "df.resample('W')[mask]",
  new: "df.resample('W').mean()[mask]",
  // The 0.18 shims went with the other 0.18 resample deprecations (how=, fill_method=: PD029's record).
  removedIn: '0.23',
  deprecatedIn: '0.18',
  errors: [
    err('KeyError', /Columns not found/),
    err('AttributeError', /'\w*Resampler' object has no attribute/),
    err('TypeError', /unsupported operand type\(s\) for .*Resampler/),
  ],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.18.0.html#resample-api',
  message: "before pandas 0.18 resample(rule) returned the resampled frame (how='mean'), and the 0.x shims took the mean implicitly; pandas 2.2 returns a Resampler: write .mean()",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': range(20)}, index=pd.date_range('2020-01-01', periods=20, freq='D'))\nprint(df.resample('W')[df.resample('W').count().a > 5].a.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': range(20)}, index=pd.date_range('2020-01-01', periods=20, freq='D'))\nprint(df.resample('W').mean(numeric_only=True)[df.resample('W').count().a > 5].a.tolist())",
    expect: '[8.0, 15.0]',
    beforeError: 'KeyError',
  }, {
    before: "import pandas as pd\ns = pd.Series(range(6), index=pd.date_range('2020-01-01', periods=6, freq='12h'))\ndaily = s.resample('D')\nprint((daily * 2).tolist(), list(daily.index.day))",
    after: "import pandas as pd\ns = pd.Series(range(6), index=pd.date_range('2020-01-01', periods=6, freq='12h'))\ndaily = s.resample('D').mean()\nprint((daily * 2).tolist(), list(daily.index.day))",
    expect: '[1.0, 5.0, 9.0] [1, 2, 3]',
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call } of ctx.methodCalls(['resample'])) {
      if (!bareResample(call)) continue;
      const name = boundName(call);
      const use = name ? (usedOnlyAsFrame(ctx, name, call.parent!.childForFieldName('left')!) ? 'frame' : 'unknown') : consumer(call);
      if (use !== 'frame') continue;
      yield { node: call, edits: [{ start: call.endIndex, end: call.endIndex, text: '.mean()' }] };
    }
  },
});

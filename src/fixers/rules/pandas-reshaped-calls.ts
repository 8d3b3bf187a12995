/**
 * pandas removals whose replacement is a differently shaped call, not a rename (whatsnew "Removal of
 * prior version deprecations"): `concat(join_axes=)` (1.0), `astype('category', categories=,
 * ordered=)` (0.25), `sortlevel()` (0.20), `DataFrame.from_items()` (1.0). Each rewrite computes
 * what the old call computed.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, kwValue, removeArgument, replaceNode, stringValue } from './tree.js';

const WN = (v: string) => `https://pandas.pydata.org/docs/whatsnew/v${v}.html#removal-of-prior-version-deprecations-changes`;

/** `pd` as the notebook imports pandas (the rewrite names pandas.CategoricalDtype / pandas.DataFrame). */
function pandasName(ctx: Parameters<Rule['find']>[0]): string | undefined {
  return ctx.nb.aliasFor('pandas');
}

export const pandasConcatJoinAxes: Rule = rule({
  id: 'pandas-concat-join-axes',
  triggers: ['join_axes'],
  library: 'pandas',
  title: 'concat(join_axes=[index])',
  old: 'pd.concat([a, b], axis=1, join_axes=[a.index])',
  new: 'pd.concat([a, b], axis=1).reindex(a.index)',
  removedIn: '1.0',
  deprecatedIn: '0.25',
  errors: [err('TypeError', /concat\(\) got an unexpected keyword argument 'join_axes'/)],
  link: WN('1.0.0'),
  message: 'concat(join_axes=) was removed in pandas 1.0: reindex the result on that axis instead',
  fixtures: [{
    before: "import pandas as pd\na = pd.DataFrame({'x': [1, 2]}, index=[0, 1])\nb = pd.DataFrame({'y': [3, 4]}, index=[1, 2])\nprint(pd.concat([a, b], axis=1, join_axes=[a.index]).fillna(0).values.tolist())",
    after: "import pandas as pd\na = pd.DataFrame({'x': [1, 2]}, index=[0, 1])\nb = pd.DataFrame({'y': [3, 4]}, index=[1, 2])\nprint(pd.concat([a, b], axis=1).reindex(a.index).fillna(0).values.tolist())",
    expect: '[[1.0, 0.0], [2.0, 3.0]]',
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call } of ctx.callsTo(['pandas.concat'])) {
      const args = callArgs(call);
      const kw = args?.keywords.get('join_axes');
      const v = kwValue(kw);
      if (!args || !kw || !v) continue;
      // One index for the one axis not concatenated along: [a.index] (axis=1) or [a.columns] (axis=0).
      const only = v.type === 'list' ? v.namedChildren.filter((n): n is SyntaxNode => !!n && n.type !== 'comment') : [];
      if (only.length !== 1) { yield { node: kw }; continue; }
      const axis = kwValue(args.keywords.get('axis'))?.text ?? (args.positional[1]?.text);
      const along = axis === '1' || stringValue(kwValue(args.keywords.get('axis'))) === 'columns' ? 'index' : 'columns';
      yield { node: call, edits: [removeArgument(args, kw, ctx.source), { start: call.endIndex, end: call.endIndex, text: `.reindex(${along === 'index' ? '' : 'columns='}${only[0].text})` }] };
    }
  },
});

export const pandasAstypeCategories: Rule = rule({
  id: 'pandas-astype-categories',
  triggers: ['astype'],
  library: 'pandas',
  title: "astype('category', categories=..., ordered=...)",
  old: "s.astype('category', categories=['lo', 'hi'], ordered=True)",
  new: "s.astype(pd.CategoricalDtype(categories=['lo', 'hi'], ordered=True))",
  removedIn: '0.25',
  deprecatedIn: '0.21',
  errors: [err('TypeError', /astype\(\) got an unexpected keyword argument '(categories|ordered)'/)],
  link: WN('0.25.0'),
  message: "astype('category', categories=, ordered=) was removed in pandas 0.25: pass a CategoricalDtype",
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series(['hi', 'lo', 'hi'])\nc = s.astype('category', categories=['lo', 'hi'], ordered=True)\nprint(list(c.cat.categories), c.cat.ordered, (c > 'lo').tolist())",
    after: "import pandas as pd\ns = pd.Series(['hi', 'lo', 'hi'])\nc = s.astype(pd.CategoricalDtype(categories=['lo', 'hi'], ordered=True))\nprint(list(c.cat.categories), c.cat.ordered, (c > 'lo').tolist())",
    expect: "['lo', 'hi'] True [True, False, True]",
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call } of ctx.methodCalls(['astype'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length !== 1 || stringValue(args.positional[0]) !== 'category') continue;
      const cats = args.keywords.get('categories');
      const ordered = args.keywords.get('ordered');
      if (!cats && !ordered) continue;
      const pd = pandasName(ctx);
      if (!pd) { yield { node: call }; continue; }
      const parts = [cats, ordered].filter((k): k is SyntaxNode => !!k).map((k) => k.text);
      const rest = args.all.filter((a) => a !== args.positional[0] && a !== cats && a !== ordered).map((a) => a.text);
      yield { node: call, edits: [replaceNode(args.list, `(${[`${pd}.CategoricalDtype(${parts.join(', ')})`, ...rest].join(', ')})`)] };
    }
  },
});

export const pandasSortlevel: Rule = rule({
  id: 'pandas-sortlevel',
  triggers: ['sortlevel'],
  library: 'pandas',
  title: 'sortlevel(level)',
  old: 'df.sortlevel(0)',
  new: 'df.sort_index(level=0)',
  removedIn: '0.20',
  deprecatedIn: '0.20',
  errors: [err('AttributeError', /object has no attribute 'sortlevel'/)],
  link: WN('0.20.0'),
  message: 'sortlevel() was removed in pandas 0.20: use sort_index(level=...)',
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.MultiIndex.from_tuples([('b', 1), ('a', 2), ('a', 1)]))\nprint(s.sortlevel(0).tolist(), s.sortlevel().tolist(), s.sortlevel(1, ascending=False).tolist())",
    after: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.MultiIndex.from_tuples([('b', 1), ('a', 2), ('a', 1)]))\nprint(s.sort_index(level=0).tolist(), s.sort_index(level=0).tolist(), s.sort_index(level=1, ascending=False).tolist())",
    expect: '[3, 2, 1] [3, 2, 1] [2, 1, 3]',
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call, nameNode } of ctx.methodCalls(['sortlevel'])) {
      const args = callArgs(call);
      if (!args || args.splat) continue;
      const edits: TextEdit[] = [replaceNode(nameNode, 'sort_index')];
      // sortlevel(level=0, axis=0, ascending=True, inplace=False, sort_remaining=True): level first.
      if (args.positional.length > 1) { yield { node: call }; continue; }
      if (args.positional.length === 1) edits.push({ start: args.positional[0].startIndex, end: args.positional[0].startIndex, text: 'level=' });
      else if (!args.keywords.has('level')) edits.push({ start: args.list.startIndex + 1, end: args.list.startIndex + 1, text: args.all.length ? 'level=0, ' : 'level=0' });
      yield { node: call, edits };
    }
  },
});

export const pandasFromItems: Rule = rule({
  id: 'pandas-from-items',
  triggers: ['from_items'],
  library: 'pandas',
  title: 'DataFrame.from_items(items)',
  old: "pd.DataFrame.from_items([('a', [1, 2]), ('b', [3, 4])])",
  new: "pd.DataFrame(dict([('a', [1, 2]), ('b', [3, 4])]))",
  removedIn: '1.0',
  deprecatedIn: '0.23',
  errors: [err('AttributeError', /has no attribute 'from_items'/)],
  link: WN('1.0.0'),
  message: "DataFrame.from_items() was removed in pandas 1.0: build the frame from a dict of the items (dicts keep their order), or from_dict(..., orient='index') for row items",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame.from_items([('b', [1, 2]), ('a', [3, 4])])\nr = pd.DataFrame.from_items([('x', [1, 2])], orient='index', columns=['p', 'q'])\nprint(list(df.columns), df['a'].tolist(), r.loc['x', 'q'])",
    after: "import pandas as pd\ndf = pd.DataFrame(dict([('b', [1, 2]), ('a', [3, 4])]))\nr = pd.DataFrame.from_dict(dict([('x', [1, 2])]), orient='index', columns=['p', 'q'])\nprint(list(df.columns), df['a'].tolist(), r.loc['x', 'q'])",
    expect: "['b', 'a'] [3, 4] 2",
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call, fn } of ctx.callsTo(['pandas.DataFrame.from_items'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length !== 1) { yield { node: call }; continue; }
      const items = args.positional[0].text;
      const orient = stringValue(kwValue(args.keywords.get('orient')));
      const columns = kwValue(args.keywords.get('columns'));
      const frame = fn.childForFieldName('object')!.text;
      if (orient === 'index') {
        yield { node: call, edits: [replaceNode(call, `${frame}.from_dict(dict(${items}), orient='index'${columns ? `, columns=${columns.text}` : ''})`)] };
      } else if (!orient || orient === 'columns') {
        yield { node: call, edits: [replaceNode(call, columns ? `${frame}(dict(${items}), columns=${columns.text})` : `${frame}(dict(${items}))`)] };
      } else {
        yield { node: call };
      }
    }
  },
});

export const pandasReshapedCalls: Rule[] = [pandasConcatJoinAxes, pandasAstypeCategories, pandasSortlevel, pandasFromItems];

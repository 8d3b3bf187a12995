/**
 * pandas 2.0 removed `inplace=` from the Categorical methods (`set_categories`, `rename_categories`,
 * `reorder_categories`, `add_categories`, `remove_categories`, `remove_unused_categories`,
 * `set_ordered`, `as_ordered`, `as_unordered`), from `set_axis` and from MultiIndex `set_levels` /
 * `set_codes` (whatsnew 2.0, "Removal of prior version deprecations"). The old call changed the
 * object it was called on; the same effect is to assign the returned object back to what it was
 * called on: `df['c'].cat.set_categories(cats, inplace=True)` -> `df['c'] = df['c'].cat.set_categories(cats)`.
 * `inplace=False` was the default and is only dropped. A discarded `set_axis(...)` without `inplace`
 * (0.21–0.24 defaulted to in place) gets the same assignment, unless the notebook is known to be
 * from pandas 1.0 or later: as written it now does nothing.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, kwValue, removeArgument } from './tree.js';

const CATEGORICAL = ['set_categories', 'rename_categories', 'reorder_categories', 'add_categories', 'remove_categories', 'remove_unused_categories', 'set_ordered', 'as_ordered', 'as_unordered'];
const OTHERS = ['set_axis', 'set_levels', 'set_codes'];
const ASSIGNABLE = new Set(['identifier', 'attribute', 'subscript']);

/** What the old in-place call changed: the Series behind `.cat`, else the receiver itself. */
function target(name: string, recv: SyntaxNode): SyntaxNode | undefined {
  let t = recv;
  if (CATEGORICAL.includes(name) && recv.type === 'attribute' && recv.childForFieldName('attribute')?.text === 'cat') t = recv.childForFieldName('object')!;
  return ASSIGNABLE.has(t.type) ? t : undefined;
}

export const pandasInplaceRemoved: Rule = rule({
  id: 'pandas-inplace-removed',
  library: 'pandas',
  title: 'inplace= of the Categorical methods, set_axis and MultiIndex.set_levels/set_codes',
  old: "df['c'].cat.set_categories(['a', 'b'], inplace=True)",
  new: "df['c'] = df['c'].cat.set_categories(['a', 'b'])",
  removedIn: '2.0',
  deprecatedIn: '1.3',
  errors: [err('TypeError', new RegExp(`(${[...CATEGORICAL, ...OTHERS].join('|')})\\(\\) got an unexpected keyword argument 'inplace'`))],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#removal-of-prior-version-deprecations-changes',
  message: 'inplace= was removed from this method in pandas 2.0: assign the returned object back instead',
  triggers: [...CATEGORICAL, ...OTHERS],
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'c': ['b', 'a', 'b']}, dtype='category')\ndf['c'].cat.set_categories(['b', 'a', 'z'], inplace=True)\ndf['c'].cat.rename_categories({'z': 'q'}, inplace=False)\nprint(list(df['c'].cat.categories))",
    after: "import pandas as pd\ndf = pd.DataFrame({'c': ['b', 'a', 'b']}, dtype='category')\ndf['c'] = df['c'].cat.set_categories(['b', 'a', 'z'])\ndf['c'].cat.rename_categories({'z': 'q'})\nprint(list(df['c'].cat.categories))",
    expect: "['b', 'a', 'z']",
    beforeError: 'TypeError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\ndf.set_axis(['x', 'y'], axis=1, inplace=True)\nprint(list(df.columns))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\ndf = df.set_axis(['x', 'y'], axis=1)\nprint(list(df.columns))",
    expect: "['x', 'y']",
    beforeError: 'TypeError',
  }, {
    // pandas 0.21–0.24 set the axis in place by default; the discarded result now changes nothing.
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\ndf.set_axis(['x', 'y'], axis=1)\nprint(list(df.columns))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\ndf = df.set_axis(['x', 'y'], axis=1)\nprint(list(df.columns))",
    expect: "['x', 'y']",
    beforeOutcome: 'differs',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call, recv, name } of ctx.methodCalls([...CATEGORICAL, ...OTHERS])) {
      const args = callArgs(call);
      if (!args || args.splat) continue;
      const kw = args.keywords.get('inplace');
      const value = kwValue(kw)?.text;
      const stmt = call.parent?.type === 'expression_statement' && call.parent.namedChildren.length === 1 ? call.parent : undefined;
      if (!kw) {
        // Only set_axis defaulted to in place, and only where its result is thrown away.
        if (name !== 'set_axis' || !stmt || ctx.nb.info.era.predates('pandas', '1.0') === false || !ctx.nb.isFrameExpr(recv, ctx.index)) continue;
        const t = target(name, recv);
        if (t) yield { node: call, message: 'set_axis() no longer works in place (pandas 1.0): its result was discarded, so it is assigned back', edits: [{ start: call.startIndex, end: call.startIndex, text: `${t.text} = ` }] };
        continue;
      }
      if (value === 'False') { yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] }; continue; }
      const t = value === 'True' && stmt ? target(name, recv) : undefined;
      if (!t) { yield { node: kw }; continue; }
      yield { node: call, edits: [{ start: call.startIndex, end: call.startIndex, text: `${t.text} = ` }, removeArgument(args, kw, ctx.source)] };
    }
  },
});

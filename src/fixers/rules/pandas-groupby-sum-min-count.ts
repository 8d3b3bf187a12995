/**
 * pandas 0.22.0 (a release with this one API change) made the sum of an empty or all-NA group 0
 * and added `min_count` to get the old NaN back; before it, a group or resample bin with no valid
 * value summed to NaN (whatsnew 0.22.0: groupby, Categorical groupers, resample bins). An era
 * notebook that concatenates train and test and then sums per group (per day, per month) had NaN
 * for the test's groups, and every later mean, plot or count skipped them; pandas 2.2 gives 0, and
 * the mean over days falls by the share of test days.
 *
 * The pin asks for the old rule itself: `min_count=1` on the grouped `sum()`, and a dict
 * aggregation's `'sum'` becomes `lambda s: s.sum(min_count=1)` (the column keeps the dict key's
 * name). Where no group is all-NA the result is the same; lists of aggregations are left alone
 * (a lambda would rename their columns).
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { rule } from './helpers.js';
import { addArgument, callArgs, grouperCall, replaceNode, stringValue } from './tree.js';

const GROUPERS = new Set(['groupby', 'resample']);

/** Is `recv` a groupby / resample call, or a column selection of one (`df.groupby(k)['v']`, `.v`)? */
function grouped(recv: SyntaxNode): boolean {
  return grouperCall(recv, GROUPERS) !== undefined;
}

const MIN_COUNT_SUM = 'lambda s: s.sum(min_count=1)';

export const pandasGroupbySumMinCount: Rule = rule({
  id: 'pandas-pin-groupby-sum-min-count',
  triggers: ['sum'],
  library: 'pandas',
  title: 'sum of an all-NA group NaN -> 0 (pandas 0.22)',
  old: "day = df.groupby('date').agg({'casual': 'sum'})",
  new: "day = df.groupby('date').agg({'casual': lambda s: s.sum(min_count=1)})",
  kind: 'score-calibration',
  changedIn: '0.22',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.22.0.html',
  message: 'a group or resample bin with no valid value summed to NaN until pandas 0.22 (now 0): pin min_count=1 to keep the notebook\'s NaN groups out of later means and counts',
  fixtures: [{
    before: "import pandas as pd, numpy as np\ndf = pd.DataFrame({'k': ['a', 'a', 'b'], 'v': [1.0, 2.0, np.nan]})\nday = df.groupby('k', as_index=False).agg({'v': 'sum'})\nprint(day.v.tolist(), df.groupby('k').v.sum().mean())",
    after: "import pandas as pd, numpy as np\ndf = pd.DataFrame({'k': ['a', 'a', 'b'], 'v': [1.0, 2.0, np.nan]})\nday = df.groupby('k', as_index=False).agg({'v': lambda s: s.sum(min_count=1)})\nprint(day.v.tolist(), df.groupby('k').v.sum(min_count=1).mean())",
    expect: '[3.0, nan] 3.0',
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.20.3' } } },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (!ctx.nb.info.era.predates('pandas', '0.22')) return;
    const why = ctx.nb.info.era.why('pandas', '0.22');
    const message = `a group with no valid value summed to NaN until pandas 0.22 (now 0): pinning min_count=1 keeps the old result (${why})`;
    for (const { call, recv } of ctx.methodCalls(['sum'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('min_count') || args.positional.length || !grouped(recv)) continue;
      yield { node: call, edits: [addArgument(args, 'min_count=1')], message };
    }
    for (const { call, recv } of ctx.methodCalls(['agg', 'aggregate'])) {
      if (!grouped(recv)) continue;
      const args = callArgs(call);
      const first = args?.positional[0];
      if (!args || args.splat || args.all.length !== 1 || !first) continue;
      if (stringValue(first) === 'sum') {
        // `.agg('sum')` is the grouped sum itself.
        yield { node: call, edits: [{ start: call.childForFieldName('function')!.childForFieldName('attribute')!.startIndex, end: call.endIndex, text: 'sum(min_count=1)' }], message };
        continue;
      }
      if (first.type !== 'dictionary') continue;
      const edits: TextEdit[] = [];
      for (const pair of first.namedChildren) {
        const value = pair?.type === 'pair' ? pair.childForFieldName('value') : undefined;
        if (value && stringValue(value) === 'sum') edits.push(replaceNode(value, MIN_COUNT_SUM));
      }
      if (edits.length) yield { node: call, edits, message };
    }
  },
});

/**
 * `df.dropna(how='any', thresh=2)`: until pandas 2.0, `thresh` took precedence (`if thresh is not
 * None: mask = count >= thresh; elif how == 'any': ...`), so `how` was ignored whenever both were
 * given. 2.0 made `how` and `thresh` default to no value and raises "You cannot set both the how and
 * thresh arguments at the same time" (TypeError). Dropping `how` keeps exactly what the old code did.
 */
import type { Rule, RuleMatch } from './types.js';
import { dropKw, err, rule } from './helpers.js';
import { callArgs } from './tree.js';

export const pandasDropnaHowThresh: Rule = rule({
  id: 'pandas-dropna-how-and-thresh',
  triggers: ['dropna'],
  library: 'pandas',
  title: 'dropna with both how= and thresh= (thresh won until 2.0)',
  old: "df.dropna(how='any', thresh=3)",
  new: 'df.dropna(thresh=3)',
  removedIn: '2.0',
  errors: [err('TypeError', /You cannot set both the how and thresh arguments at the same time/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#other-api-changes',
  message: 'until pandas 2.0 dropna ignored how= when thresh= was given (thresh took precedence); today giving both raises: how= is dropped',
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'a': [1.0, np.nan, np.nan], 'b': [2.0, 3.0, np.nan], 'c': [1.0, 1.0, 1.0]})\nprint(df.dropna(how='any', thresh=2).index.tolist(), df.dropna(axis=1, how='all', thresh=3).columns.tolist())",
    after: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'a': [1.0, np.nan, np.nan], 'b': [2.0, 3.0, np.nan], 'c': [1.0, 1.0, 1.0]})\nprint(df.dropna(thresh=2).index.tolist(), df.dropna(axis=1, thresh=3).columns.tolist())",
    expect: "[0, 1] ['c']",
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call } of ctx.methodCalls(['dropna'])) {
      const args = callArgs(call);
      const how = args?.keywords.get('how');
      if (!args || !how || !args.keywords.has('thresh')) continue;
      yield { node: how, edits: [dropKw(ctx, call, how)] };
    }
  },
});

/**
 * pandas 1.0 changed `concat`'s `sort` default from None to False (whatsnew v1.0.0, "Removal of
 * prior version deprecations": "Changed the default value for the sort keyword in concat ... from
 * None to False"). Before, frames whose columns were not aligned came back with the union of their
 * columns sorted (0.23-0.25 warned "Sorting because non-concatenation axis is not aligned"); aligned
 * frames kept their order. Kaggle notebooks concatenate a train frame holding the target with a test
 * frame without it: the combined frame's column order changed, and with it `.values`, positional
 * slices, dummy columns and the feature order tree models sample from (different trees, different
 * scores, no error).
 *
 * `sort=True` alone would also sort aligned frames, which old pandas left alone, so the pin states
 * the old rule itself: sort when the frames' columns differ. Only where every frame is a known
 * DataFrame given by a plain expression (it is evaluated once more for the test) and the era
 * predates 1.0; otherwise generate-and-verify proposes it against the stored outputs.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule } from './types.js';
import { rule } from './helpers.js';
import { addArgument, callArgs, isPure, kwValue, stringValue } from './tree.js';

function frames(list: SyntaxNode): SyntaxNode[] {
  return list.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
}

export const pandasConcatSort: Rule = rule({
  id: 'pandas-pin-concat-sort',
  triggers: ['concat'],
  library: 'pandas',
  title: 'concat of frames with different columns sorted them until pandas 1.0',
  old: 'full = pd.concat([train, test])',
  new: 'full = pd.concat([train, test], sort=len({tuple(f.columns) for f in [train, test]}) > 1)',
  kind: 'score-calibration',
  changedIn: '1.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#removal-of-prior-version-deprecations-changes',
  message: "until pandas 1.0, concat sorted the columns of frames whose columns differed (a train frame with the target and a test frame without it); now it keeps their order: pin the old rule so column order, .values and the models' feature order are the notebook's",
  fixtures: [{
    before: "import pandas as pd\ntrain = pd.DataFrame({'Survived': [1], 'Sex': ['m'], 'Age': [22.0]})\ntest = pd.DataFrame({'Sex': ['f'], 'Age': [30.0]})\nfull = pd.concat([train, test], ignore_index=True)\nsame = pd.concat([test, test])\nprint(list(full.columns), list(same.columns))",
    after: "import pandas as pd\ntrain = pd.DataFrame({'Survived': [1], 'Sex': ['m'], 'Age': [22.0]})\ntest = pd.DataFrame({'Sex': ['f'], 'Age': [30.0]})\nfull = pd.concat([train, test], ignore_index=True, sort=len({tuple(f.columns) for f in [train, test]}) > 1)\nsame = pd.concat([test, test], sort=len({tuple(f.columns) for f in [test, test]}) > 1)\nprint(list(full.columns), list(same.columns))",
    expect: "['Age', 'Sex', 'Survived'] ['Sex', 'Age']",
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.23.4' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '1.0')) return;
    for (const { call } of ctx.callsTo(['pandas.concat'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('sort') || args.positional.length !== 1) continue;
      const axis = kwValue(args.keywords.get('axis'));
      if (axis && axis.text !== '0' && stringValue(axis) !== 'index') continue;
      const join = kwValue(args.keywords.get('join'));
      if (join && stringValue(join) !== 'outer') continue;
      const list = args.positional[0];
      if (list.type !== 'list' && list.type !== 'tuple') continue;
      const objs = frames(list);
      if (objs.length < 2 || !objs.every((o) => isPure(o) && ctx.nb.isDataFrameExpr(o, ctx.index))) continue;
      const listText = `[${objs.map((o) => o.text).join(', ')}]`;
      yield {
        node: call,
        edits: [addArgument(args, `sort=len({tuple(f.columns) for f in ${listText}}) > 1`)],
        message: `concat sorted the columns of frames whose columns differed until pandas 1.0: the pin keeps that rule (${ctx.nb.info.era.why('pandas', '1.0')})`,
      };
    }
  },
});

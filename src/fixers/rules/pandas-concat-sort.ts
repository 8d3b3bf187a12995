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
import { addArgument, callArgs, isPure, kwValue, methodCall, stringValue } from './tree.js';
import type { CellContext } from './context.js';

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
  }, {
    // Side by side (axis=1): the union of the indexes was sorted; the missing-value table of train and test.
    before: "import pandas as pd, numpy as np\ntrain = pd.DataFrame({'Survived': [1, 0], 'Fare': [7.0, np.nan], 'Age': [np.nan, 3.0]})\ntest = pd.DataFrame({'Fare': [np.nan], 'Age': [1.0]})\nnas = pd.concat([train.isnull().sum(), test.isnull().sum()], axis=1, keys=['train', 'test'])\nprint(list(nas.index))",
    after: "import pandas as pd, numpy as np\ntrain = pd.DataFrame({'Survived': [1, 0], 'Fare': [7.0, np.nan], 'Age': [np.nan, 3.0]})\ntest = pd.DataFrame({'Fare': [np.nan], 'Age': [1.0]})\nnas = pd.concat([train.isnull().sum(), test.isnull().sum()], axis=1, keys=['train', 'test'], sort=len({tuple(f.index) for f in [train.isnull().sum(), test.isnull().sum()]}) > 1)\nprint(list(nas.index))",
    expect: "['Age', 'Fare', 'Survived']",
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.23.4' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '1.0')) return;
    for (const { call } of ctx.callsTo(['pandas.concat'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('sort') || args.positional.length !== 1) continue;
      const axisNode = kwValue(args.keywords.get('axis'));
      const axis = !axisNode || axisNode.text === '0' || stringValue(axisNode) === 'index' ? 0 : axisNode.text === '1' || stringValue(axisNode) === 'columns' ? 1 : undefined;
      if (axis === undefined) continue;
      const join = kwValue(args.keywords.get('join'));
      if (join && stringValue(join) !== 'outer') continue;
      const list = args.positional[0];
      if (list.type !== 'list' && list.type !== 'tuple') continue;
      const objs = frames(list);
      // axis=0 sorts the union of the frames' columns; axis=1 (Series or frames side by side, the
      // missing-value table of train and test) the union of their indexes.
      const known = axis === 0 ? (o: SyntaxNode) => isPure(o) && ctx.nb.isDataFrameExpr(o, ctx.index) : (o: SyntaxNode) => pandasResult(ctx, o);
      if (objs.length < 2 || !objs.every(known)) continue;
      const listText = `[${objs.map((o) => o.text).join(', ')}]`;
      const labels = axis === 0 ? 'columns' : 'index';
      yield {
        node: call,
        edits: [addArgument(args, `sort=len({tuple(f.${labels}) for f in ${listText}}) > 1`)],
        message: `concat sorted the ${labels} of objects whose ${labels} differed until pandas 1.0: the pin keeps that rule (${ctx.nb.info.era.why('pandas', '1.0')})`,
      };
    }
  },
});

/** Methods that read a frame and return a pandas object, with no side effect: safe to evaluate again for the test. */
const READ_ONLY = new Set(['isnull', 'isna', 'notnull', 'notna', 'sum', 'count', 'mean', 'median', 'std', 'var', 'min', 'max', 'nunique', 'describe', 'copy']);

/** A pure DataFrame expression, or one followed by read-only method calls with pure arguments (`train.isnull().sum()`). */
function pandasResult(ctx: CellContext, o: SyntaxNode): boolean {
  if (isPure(o)) return ctx.nb.isDataFrameExpr(o, ctx.index);
  const m = o.type === 'call' ? methodCall(o) : undefined;
  const args = o.type === 'call' ? callArgs(o) : undefined;
  if (!m || !args || args.splat || !READ_ONLY.has(m.name) || !args.all.every((a) => isPure(kwValue(a) ?? a))) return false;
  return pandasResult(ctx, m.recv);
}

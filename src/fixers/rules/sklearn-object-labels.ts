/**
 * scikit-learn 0.17 made classifiers check their target (`check_classification_targets`, PR #5084):
 * an object-dtype array of numbers is "Unknown label type: 'unknown'". Before, a classifier took
 * any hashable labels, and notebooks fed it a column sliced out of a mixed frame's `.values`
 * (`train_data[0::, -1]` next to a date string column) whose labels were whole numbers stored as
 * objects. The faithful repair gives the same labels a numeric dtype: `y.astype(int)` (a label
 * that is not a whole number makes that fail, and generate-and-verify drops the candidate).
 *
 * Recognised from the runtime error only: the dtype of a sliced array is data, not syntax.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, paren, replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';
import type { SyntaxNode } from '../python/parser.js';

/** Methods whose second positional argument is the target. */
const FIT_METHODS = ['fit', 'partial_fit', 'fit_predict', 'fit_transform', 'score'];
/** Functions whose third positional argument is the target (estimator, X, y). */
const TARGET_THIRD = ['cross_val_score', 'cross_val_predict', 'cross_validate', 'learning_curve', 'validation_curve', 'permutation_test_score'];

const UNKNOWN_LABELS = /Unknown label type: '?unknown'?/;

export const sklearnObjectLabels: Rule = rule({
  id: 'sklearn-object-dtype-labels',
  library: 'scikit-learn',
  title: "classifier targets of object dtype ('Unknown label type: unknown', since 0.17)",
  old: 'clf.fit(X, data[:, -1])  # object array of ints',
  new: 'clf.fit(X, data[:, -1].astype(int))',
  removedIn: '0.17',
  trigger: 'error',
  errors: [err('ValueError', UNKNOWN_LABELS)],
  link: 'https://scikit-learn.org/stable/whats_new/v0.17.html',
  message: "since scikit-learn 0.17 classifiers reject a target of object dtype (numbers stored as objects, e.g. sliced from a mixed frame's .values): give the labels a numeric dtype",
  triggers: [...FIT_METHODS, ...TARGET_THIRD],
  fixtures: [{
    before: "import pandas as pd\nfrom sklearn.tree import DecisionTreeClassifier\ndata = pd.DataFrame({'d': ['a', 'b', 'c', 'd'], 'x': [0, 1, 2, 3], 'y': [1, 1, 2, 2]}).values\nclf = DecisionTreeClassifier(random_state=0).fit(data[:, 1:2], data[:, -1])\nprint(clf.classes_ + 1)",
    after: "import pandas as pd\nfrom sklearn.tree import DecisionTreeClassifier\ndata = pd.DataFrame({'d': ['a', 'b', 'c', 'd'], 'x': [0, 1, 2, 3], 'y': [1, 1, 2, 2]}).values\nclf = DecisionTreeClassifier(random_state=0).fit(data[:, 1:2], data[:, -1].astype(int))\nprint(clf.classes_ + 1)",
    expect: '[2 3]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "Unknown label type: unknown. Maybe you are trying to fit a classifier, which expects discrete classes on a regression target with continuous values." } },
  }],
  *find(ctx) {
    const at = atRuntimeError(ctx, UNKNOWN_LABELS);
    if (!at) return;
    const { onLine } = at;
    const targets: Array<{ call: SyntaxNode; y: SyntaxNode }> = [];
    for (const { call } of ctx.methodCalls(FIT_METHODS)) {
      const args = callArgs(call);
      const y = args?.keywords.get('y')?.childForFieldName('value') ?? args?.positional[1];
      if (args && y && !args.listSplat) targets.push({ call, y });
    }
    for (const { call } of ctx.callsNamed(TARGET_THIRD)) {
      const args = callArgs(call);
      const y = args?.keywords.get('y')?.childForFieldName('value') ?? args?.positional[2];
      if (args && y && !args.listSplat) targets.push({ call, y });
    }
    for (const { call, y } of targets) {
      if (!onLine(call) || /\.astype\(/.test(y.text) || y.type === 'list' || y.type === 'none') continue;
      yield { node: call, edits: [replaceNode(y, `${paren(y)}.astype(int)`)] };
    }
  },
});

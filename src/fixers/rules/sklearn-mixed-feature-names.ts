/**
 * scikit-learn 1.0 began validating feature names: a DataFrame's column labels are read as feature
 * names, and since 1.2 columns whose labels mix types (strings next to integers) raise TypeError
 * ("Feature names are only supported if all input features have string names"). Old notebooks make
 * such frames all the time: `pd.concat([df[['Age']], pd.get_dummies(df['Pclass'])], axis=1)` has
 * columns 'Age', 1, 2, 3. Before 1.0 an estimator took the frame's values and ignored its labels,
 * so the faithful repair hands it the values at the failing call: `X.to_numpy()` (same numbers,
 * same order; the estimator then keeps no feature names, as before). The labels are not renamed:
 * later code may index those integer columns.
 *
 * Recognised from the runtime error only (column labels are data), on the traceback's line and at
 * every other estimator call given the same matrix as written (matrixRepairSites).
 */
import type { Rule } from './types.js';
import { CellContext } from './context.js';
import { err, rule } from './helpers.js';
import { callArgs, paren, replaceNode } from './tree.js';
import { atRuntimeError, isTracedCell, onFrameLines } from './traceback.js';
import type { SyntaxNode } from '../python/parser.js';

/** Estimator methods whose first positional argument (or `X=`) is the feature matrix. */
export const X_FIRST = ['fit', 'partial_fit', 'fit_predict', 'fit_transform', 'predict', 'predict_proba', 'predict_log_proba', 'decision_function', 'transform', 'inverse_transform', 'score', 'score_samples', 'kneighbors', 'staged_predict', 'staged_predict_proba', 'apply'];
/** Argument node types that are literals, never a frame. */
export const LITERAL_TYPES = ['list', 'none', 'integer', 'float', 'string', 'dictionary'];

/** Functions taking (estimator, X, ...). */
export const X_SECOND = ['cross_val_score', 'cross_val_predict', 'cross_validate', 'learning_curve', 'validation_curve', 'permutation_test_score', 'permutation_importance'];

/** The feature-matrix argument of every estimator method and cross-validation helper call in the cell. */
export function featureMatrixArgs(ctx: CellContext): Array<{ call: SyntaxNode; x: SyntaxNode }> {
  const inputs: Array<{ call: SyntaxNode; x: SyntaxNode }> = [];
  for (const [calls, position] of [[ctx.methodCalls(X_FIRST), 0], [ctx.callsNamed(X_SECOND), 1]] as const) {
    for (const { call } of calls) {
      const args = callArgs(call);
      const x = args?.keywords.get('X')?.childForFieldName('value') ?? args?.positional[position];
      if (args && x && !args.listSplat) inputs.push({ call, x });
    }
  }
  return inputs;
}

/** The feature matrices, as written, of the estimator calls on the traceback's lines (in the cells it names). */
function tracedMatrices(ctx: CellContext): ReadonlySet<string> {
  return ctx.nb.memo('traced-feature-matrices', () => {
    const rt = ctx.nb.info.runtime;
    const out = new Set<string>();
    if (!rt) return out;
    for (const cell of ctx.nb.cells) {
      if (cell.index !== rt.failingCell && !(rt.frames ?? []).some((f) => f.cell === cell.index)) continue;
      const onLine = onFrameLines(rt.frames ?? [], cell.index, cell.tree.rootNode);
      for (const { call, x } of featureMatrixArgs(new CellContext(ctx.nb, cell))) if (onLine(call)) out.add(x.text);
    }
    return out;
  });
}

/**
 * The estimator calls a feature-matrix repair edits: those on the traceback's line, and every other
 * call, in any cell, given the same feature matrix as written (a notebook fits and predicts on
 * `X_train` in cell after cell: each would fail the same way, one fix per run otherwise). `skip`
 * leaves out arguments that cannot be the failing matrix (literals, values already converted).
 */
export function* matrixRepairSites(ctx: CellContext, skip: (x: SyntaxNode) => boolean): Generator<{ call: SyntaxNode; x: SyntaxNode }> {
  const traced = tracedMatrices(ctx);
  const rt = ctx.nb.info.runtime;
  const onLine = isTracedCell(ctx) && rt ? onFrameLines(rt.frames ?? [], ctx.index, ctx.root) : () => false;
  for (const site of featureMatrixArgs(ctx)) {
    if (skip(site.x)) continue;
    if (onLine(site.call) || traced.has(site.x.text)) yield site;
  }
}

const MIXED_NAMES = /Feature names are only supported if all input features have string names/;

export const sklearnMixedFeatureNames: Rule = rule({
  id: 'sklearn-mixed-feature-names',
  library: 'scikit-learn',
  title: 'feature matrices whose column labels mix strings and integers (TypeError since 1.2)',
  old: "clf.fit(pd.concat([df[['Age']], pd.get_dummies(df['Pclass'])], axis=1), y)",
  new: "clf.fit(pd.concat([df[['Age']], pd.get_dummies(df['Pclass'])], axis=1).to_numpy(), y)",
  removedIn: '1.2',
  deprecatedIn: '1.0',
  trigger: 'error',
  // Cross-validation helpers catch the fits' TypeError and raise ValueError carrying its text.
  errors: [err('TypeError', MIXED_NAMES), err('ValueError', new RegExp(`fits failed[\\s\\S]*${MIXED_NAMES.source}`))],
  link: 'https://scikit-learn.org/stable/whats_new/v1.2.html#changes-impacting-all-modules',
  message: 'since scikit-learn 1.2 a DataFrame whose column labels mix strings and integers is rejected as input; before 1.0 estimators used only its values: pass the values at this call',
  triggers: [...X_FIRST, ...X_SECOND],
  errorScope: 'notebook',
  fixtures: [{
    before: "import pandas as pd\nfrom sklearn.linear_model import LogisticRegression\ndf = pd.DataFrame({'Age': [20, 30, 40, 50], 'Pclass': [1, 2, 3, 1]})\nX = pd.concat([df[['Age']], pd.get_dummies(df['Pclass'])], axis=1)\nclf = LogisticRegression().fit(X, [0, 1, 0, 1])\nprint(list(X.columns), clf.predict(X[:1].values))",
    after: "import pandas as pd\nfrom sklearn.linear_model import LogisticRegression\ndf = pd.DataFrame({'Age': [20, 30, 40, 50], 'Pclass': [1, 2, 3, 1]})\nX = pd.concat([df[['Age']], pd.get_dummies(df['Pclass'])], axis=1)\nclf = LogisticRegression().fit(X.to_numpy(), [0, 1, 0, 1])\nprint(list(X.columns), clf.predict(X[:1].values))",
    expect: "['Age', 1, 2, 3] [0]",
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: "Feature names are only supported if all input features have string names, but your input has ['int', 'str'] as feature name / column name types." } },
  }, {
    before: "import pandas as pd\nfrom sklearn.model_selection import cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nX = pd.DataFrame({'a': [0, 1, 0, 1, 0, 1], 0: [1, 1, 0, 0, 1, 0]})\nprint(cross_val_score(DecisionTreeClassifier(random_state=0), X, [0, 1, 0, 1, 0, 1], cv=2).mean().round(3))",
    after: "import pandas as pd\nfrom sklearn.model_selection import cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nX = pd.DataFrame({'a': [0, 1, 0, 1, 0, 1], 0: [1, 1, 0, 0, 1, 0]})\nprint(cross_val_score(DecisionTreeClassifier(random_state=0), X.to_numpy(), [0, 1, 0, 1, 0, 1], cv=2).mean().round(3))",
    expect: '0.667',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "\nAll the 2 fits failed.\nIt is very likely that your model is misconfigured.\n--------\n2 fits failed with the following error:\nTypeError: Feature names are only supported if all input features have string names, but your input has ['int', 'str'] as feature name / column name types." } },
  }],
  *find(ctx) {
    if (!atRuntimeError(ctx, MIXED_NAMES)) return;
    // Literals and values already converted cannot be the mixed-label frame.
    const skip = (x: SyntaxNode) => /\.(to_numpy|values)\b|np\.(asarray|array)\(/.test(x.text) || LITERAL_TYPES.includes(x.type);
    for (const { call, x } of matrixRepairSites(ctx, skip)) yield { node: call, edits: [replaceNode(x, `${paren(x)}.to_numpy()`)] };
  },
});

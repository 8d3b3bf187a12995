/**
 * scikit-learn 1.1 deprecated, and 1.3 removed, the `loss_` attribute of the gradient-boosting
 * estimators: the fitted loss object, which notebooks called to score each stage, as scikit-learn's
 * own "Gradient Boosting regression" example did (`clf.loss_(y_test, y_pred)` over
 * `staged_predict`). For a regressor that object computed the plain metric: least squares
 * `np.mean((y - pred) ** 2)` and least absolute deviation `np.abs(y - pred).mean()` (weighted by a
 * third argument), which `mean_squared_error` / `mean_absolute_error` compute exactly (the example
 * itself was changed to `mean_squared_error`). The private `_loss` that replaced it is the half
 * squared error, so it is not the repair.
 *
 * Recognised from the runtime error (the message names the regressor). Which loss the regressor
 * used is read from the notebook: every `loss=` given to a GradientBoostingRegressor and every
 * 'loss' entry of a parameter dict must name the same one (none: the default, least squares);
 * A mix is left alone.
 *
 * Huber and quantile losses have no metric in sklearn.metrics, but the fitted estimator's private
 * `_loss` (sklearn._loss, since 1.3) computes exactly what the old object did: huber with the
 * delta the last stage set from the training residuals (`set_huber_delta`, as the old
 * `negative_gradient` set `gamma`), half the square inside it and the linear part outside;
 * quantile the pinball loss; both averaged over the samples. Only the squared error differs (half
 * the old value), which is why least squares takes the metric. `_loss` wants C-contiguous float64
 * arrays (typed memoryviews), so the arguments are converted.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';
import { calleeName, callArgs, candidateValues, replaceNode, stringValue } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

const NO_LOSS = /'GradientBoostingRegressor' object has no attribute 'loss_'/;

/** `_loss` stands for the estimator's own loss object (see above). */
const METRIC: Record<string, string> = { ls: 'mean_squared_error', squared_error: 'mean_squared_error', lad: 'mean_absolute_error', absolute_error: 'mean_absolute_error', huber: '_loss', quantile: '_loss' };

/** The metric every GradientBoostingRegressor of the notebook's losses computes, or undefined when they differ or one has no plain metric. */
function notebookMetric(ctx: CellContext): string | undefined {
  const losses = new Set<string>();
  for (const cell of ctx.nb.cells) {
    for (const call of cell.idx.byType.get('call')) {
      if (calleeName(call) !== 'GradientBoostingRegressor') continue;
      const kw = callArgs(call)?.keywords.get('loss');
      const value = kw?.childForFieldName('value');
      if (value) losses.add(stringValue(value) ?? '?');
    }
    for (const pair of cell.idx.byType.get('pair')) {
      if (stringValue(pair.childForFieldName('key')) !== 'loss') continue;
      const value = pair.childForFieldName('value');
      for (const v of value ? candidateValues(value) : []) losses.add(stringValue(v) ?? '?');
    }
  }
  const metrics = new Set([...losses].map((l) => METRIC[l] ?? '?'));
  if (metrics.size === 0) return 'mean_squared_error';
  return metrics.size === 1 && !metrics.has('?') ? [...metrics][0] : undefined;
}

const arr = (np: string, x: string): string => `${np}.ascontiguousarray(${x}, dtype=${np}.float64)`;

export const sklearnGradientBoostingLoss: Rule = rule({
  id: 'sklearn-gradient-boosting-loss-attribute',
  library: 'scikit-learn',
  title: "GradientBoostingRegressor's loss_ (clf.loss_(y_test, y_pred) per stage)",
  old: 'clf.loss_(y_test, y_pred)',
  new: 'mean_squared_error(y_test, y_pred)',
  removedIn: '1.3',
  trigger: 'error',
  errors: [err('AttributeError', NO_LOSS)],
  link: 'https://scikit-learn.org/stable/whats_new/v1.1.html#sklearn-ensemble',
  message: "the loss_ attribute of gradient boosting was deprecated in scikit-learn 1.1 and removed in 1.3; for a least-squares (or least-absolute-deviation) regressor it computed mean_squared_error (mean_absolute_error), which sklearn.metrics computes the same; for huber and quantile losses the estimator's private _loss computes what loss_ did",
  fixtures: [{
    before: "import numpy as np\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(20.0).reshape(-1, 1)\ny = X.ravel() ** 1.5\nest = GradientBoostingRegressor(n_estimators=5, random_state=0).fit(X, y)\nscores = [est.loss_(y, p) for p in est.staged_predict(X)]\nprint(round(scores[-1], 3))",
    after: "from sklearn.metrics import mean_squared_error\nimport numpy as np\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(20.0).reshape(-1, 1)\ny = X.ravel() ** 1.5\nest = GradientBoostingRegressor(n_estimators=5, random_state=0).fit(X, y)\nscores = [mean_squared_error(y, p) for p in est.staged_predict(X)]\nprint(round(scores[-1], 3))",
    expect: '240.069',
    beforeError: 'AttributeError',
    context: { runtime: { ename: 'AttributeError', evalue: "'GradientBoostingRegressor' object has no attribute 'loss_'" } },
  }, {
    before: "import numpy as np\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(20.0).reshape(-1, 1)\ny = X.ravel() ** 1.5\nest = GradientBoostingRegressor(loss='absolute_error', n_estimators=5, random_state=0).fit(X, y)\nscore = np.zeros(5)\nfor i, p in enumerate(est.staged_predict(X)):\n    score[i] = est.loss_(y, p)\nprint(round(score[-1], 3))",
    after: "from sklearn.metrics import mean_absolute_error\nimport numpy as np\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(20.0).reshape(-1, 1)\ny = X.ravel() ** 1.5\nest = GradientBoostingRegressor(loss='absolute_error', n_estimators=5, random_state=0).fit(X, y)\nscore = np.zeros(5)\nfor i, p in enumerate(est.staged_predict(X)):\n    score[i] = mean_absolute_error(y, p)\nprint(round(score[-1], 3))",
    expect: '13.791',
    beforeError: 'AttributeError',
    context: { runtime: { ename: 'AttributeError', evalue: "'GradientBoostingRegressor' object has no attribute 'loss_'" } },
  }, {
    // Huber: the stage-wise test deviance of scikit-learn's old regression example, on a pandas
    // target of integers (the typed loss wants float64). 1010.493 is also what the old
    // HuberLossFunction formula gives here, with gamma the weighted 90th percentile of the
    // absolute residuals before the last stage (computed beside this fixture in the environment).
    before: "import numpy as np\nimport pandas as pd\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(40.0).reshape(-1, 1)\ny = pd.Series((X.ravel() ** 1.5).astype(int))\nest = GradientBoostingRegressor(loss='huber', n_estimators=5, random_state=0).fit(X, y)\ntest_score = np.zeros(5)\nfor i, y_pred in enumerate(est.staged_predict(X)):\n    test_score[i] = est.loss_(y, y_pred)\nprint(round(test_score[-1], 3))",
    after: "import numpy as np\nimport pandas as pd\nfrom sklearn.ensemble import GradientBoostingRegressor\nX = np.arange(40.0).reshape(-1, 1)\ny = pd.Series((X.ravel() ** 1.5).astype(int))\nest = GradientBoostingRegressor(loss='huber', n_estimators=5, random_state=0).fit(X, y)\ntest_score = np.zeros(5)\nfor i, y_pred in enumerate(est.staged_predict(X)):\n    test_score[i] = est._loss(np.ascontiguousarray(y, dtype=np.float64), np.ascontiguousarray(y_pred, dtype=np.float64))\nprint(round(test_score[-1], 3))",
    expect: '1010.493',
    beforeError: 'AttributeError',
    context: { runtime: { ename: 'AttributeError', evalue: "'GradientBoostingRegressor' object has no attribute 'loss_'" } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, NO_LOSS);
    if (!at || !isTracedCell(ctx)) return;
    const metric = notebookMetric(ctx);
    if (!metric) return;
    const own = metric === '_loss';
    const np = own ? ctx.moduleRef('numpy', 'np') : undefined;
    if (own && !np) return;
    const imported = own ? !np!.edit : ctx.nb.isBound(metric);
    let first = true;
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'loss_') continue;
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length < 2 || args.positional.length > 3 || args.keywords.size) continue;
      const [y, pred, weight] = args.positional as [SyntaxNode, SyntaxNode, SyntaxNode | undefined];
      const sw = weight ? `, sample_weight=${own ? arr(np!.name, weight.text) : weight.text}` : '';
      const text = own
        ? `${fn.childForFieldName('object')!.text}._loss(${arr(np!.name, y.text)}, ${arr(np!.name, pred.text)}${sw})`
        : `${metric}(${y.text}, ${pred.text}${sw})`;
      const edits: TextEdit[] = [replaceNode(call, text)];
      if (first && !imported) edits.push(own ? np!.edit! : ctx.importEdit(`from sklearn.metrics import ${metric}`));
      first = false;
      yield { node: call, edits };
    }
  },
});

/**
 * scikit-learn 1.2 turned the feature-name check into an error: an estimator fitted on a DataFrame
 * refuses, at predict/transform/score, a DataFrame whose column names differ ("The feature names
 * should match those that were passed during fit", a FutureWarning since 1.0). Older versions
 * ignored names and used the columns by position, which is what the notebook's results were
 * computed with. The faithful repair passes the data by position: `np.asarray(X)`.
 *
 * Recognised from the runtime error only: statically nothing says which columns a model saw.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, replaceNode } from './tree.js';
import { onFrameLines } from './traceback.js';

const METHODS = ['predict', 'predict_proba', 'predict_log_proba', 'decision_function', 'transform', 'score', 'staged_predict', 'staged_predict_proba'];

export const sklearnFeatureNamesByPosition: Rule = rule({
  id: 'sklearn-feature-names-by-position',
  library: 'scikit-learn',
  title: 'feature names must match those seen at fit (error since 1.2)',
  old: 'model.predict(X_other_columns)',
  new: 'model.predict(np.asarray(X_other_columns))',
  removedIn: '1.2',
  deprecatedIn: '1.0',
  trigger: 'error',
  errors: [err('ValueError', /feature names should match those that were passed during fit|Feature names (unseen at fit time|must be in the same order)/)],
  link: 'https://scikit-learn.org/stable/whats_new/v1.2.html#changes-impacting-all-modules',
  message: 'since scikit-learn 1.2 an estimator fitted on a DataFrame rejects columns with other names; the notebook ran when columns were matched by position: pass the values',
  triggers: METHODS,
  fixtures: [{
    before: "import pandas as pd\nfrom sklearn.linear_model import LinearRegression\nm = LinearRegression().fit(pd.DataFrame({'a': [0.0, 1, 2], 'b': [1.0, 0, 1]}), [0.0, 1, 2])\nprint(m.predict(pd.DataFrame({'x': [3.0], 'y': [0.0]})).round(3))",
    after: "import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LinearRegression\nm = LinearRegression().fit(pd.DataFrame({'a': [0.0, 1, 2], 'b': [1.0, 0, 1]}), [0.0, 1, 2])\nprint(m.predict(np.asarray(pd.DataFrame({'x': [3.0], 'y': [0.0]}))).round(3))",
    expect: '[3.]',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    const onLine = onFrameLines(ctx.nb.info.runtime?.frames ?? [], ctx.index, ctx.root);
    const calls = [...ctx.methodCalls(METHODS)].filter(({ call }) => onLine(call));
    if (!calls.length) return;
    const np = ctx.moduleRef('numpy', 'np');
    if (!np) return;
    let first = true;
    for (const { call } of calls) {
      const args = callArgs(call);
      const x = args?.positional[0];
      if (!args || !x || args.listSplat) continue;
      if (/^(np|numpy)\.(asarray|array)\(/.test(x.text) || /\.(values|to_numpy\(\))$/.test(x.text)) continue;
      const edits = [replaceNode(x, `${np.name}.asarray(${x.text})`)];
      if (first && np.edit) edits.push(np.edit);
      first = false;
      yield { node: call, edits };
    }
  },
});

/**
 * scikit-learn 1.2 validates every estimator parameter against declared constraints
 * (`_parameter_constraints`, InvalidParameterError): "The 'max_iter' parameter of LassoCV must be an
 * int in the range [1, inf). Got 10000000.0 instead." Old notebooks wrote counts as floats —
 * `max_iter=1e7`, `n_estimators=1e3`, `max_depth=5.0`, grids of `np.linspace(...)` depths — and older
 * releases used them as the integers they are. Where the constraint is int-only (not "or a float",
 * which gives floats another meaning) and the value is a whole number, the repair writes it as an int.
 *
 * Recognised from the runtime error (the message names the parameter and the value), at the failing
 * line's calls, and in the failing cell's parameter grids (`{'max_depth': [3.0, 5.0]}`). The message
 * also names the class: every call of that class with the parameter a whole-number float, in any
 * cell, fails the same way when it is fitted (an estimator is often built in one cell and fitted in
 * another, and notebooks build several alike), so those are repaired at once (errorScope 'notebook').
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';
import { isKeywordOf, replaceNode } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';
import { paramEntriesFor } from './param-dicts.js';

const INT_ONLY = /The '(\w+)' parameter of (\w+) must be an int in the range [[(][^\]\)]*[\])](?: or None)?\. Got (-?[\d.]+(?:e[+-]?\d+)?) instead/;

/** A numeric literal (`1e7`, `10.0`, `-3.`) with a whole value, written as an int; else undefined. */
function asInt(node: SyntaxNode): string | undefined {
  if (node.type !== 'float' && node.type !== 'integer') return undefined;
  const v = Number(node.text.replace(/_/g, ''));
  return Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : undefined;
}

/** Edits turning the whole-number floats of `value` (a literal, or a list/tuple of them) into ints. */
function intEdits(value: SyntaxNode): TextEdit[] {
  if (value.type === 'float') {
    const i = asInt(value);
    return i === undefined ? [] : [replaceNode(value, i)];
  }
  if (value.type === 'list' || value.type === 'tuple') return value.namedChildren.filter((n): n is SyntaxNode => !!n && n.type === 'float').flatMap(intEdits);
  return [];
}

export const sklearnIntegralFloat: Rule = rule({
  id: 'sklearn-integral-float-parameter',
  library: 'scikit-learn',
  title: 'whole numbers written as floats for integer parameters (max_iter=1e7)',
  old: 'LassoCV(max_iter=1e7)',
  new: 'LassoCV(max_iter=10000000)',
  removedIn: '1.2',
  trigger: 'error',
  errorScope: 'notebook',
  errors: [err('InvalidParameterError', INT_ONLY), err('ValueError', INT_ONLY)],
  link: 'https://scikit-learn.org/stable/whats_new/v1.2.html#changes-impacting-all-modules',
  message: 'since scikit-learn 1.2 parameters are validated and this one must be an int; the value is a whole number written as a float, which older releases used as that int',
  fixtures: [{
    before: "import numpy as np\nfrom sklearn.linear_model import LogisticRegression\nX = np.arange(20.0).reshape(10, 2)\ny = np.arange(10) % 2\nprint(LogisticRegression(max_iter=1e3, C=1.0).fit(X, y).n_iter_.shape)",
    after: "import numpy as np\nfrom sklearn.linear_model import LogisticRegression\nX = np.arange(20.0).reshape(10, 2)\ny = np.arange(10) % 2\nprint(LogisticRegression(max_iter=1000, C=1.0).fit(X, y).n_iter_.shape)",
    expect: '(1,)',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'max_iter' parameter of LogisticRegression must be an int in the range [0, inf). Got 1000.0 instead." } },
  }, {
    before: "import numpy as np\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.model_selection import GridSearchCV\nX = np.arange(40.0).reshape(20, 2)\ny = np.arange(20) % 2\ngrid = {'max_depth': [2.0, 3.0], 'min_samples_leaf': [1]}\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=2, error_score='raise').fit(X, y)\nprint(g.best_params_['max_depth'])",
    after: "import numpy as np\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.model_selection import GridSearchCV\nX = np.arange(40.0).reshape(20, 2)\ny = np.arange(20) % 2\ngrid = {'max_depth': [2, 3], 'min_samples_leaf': [1]}\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), grid, cv=2, error_score='raise').fit(X, y)\nprint(g.best_params_['max_depth'])",
    expect: '2',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'max_depth' parameter of DecisionTreeClassifier must be an int in the range [1, inf) or None. Got 2.0 instead." } },
  }, {
    // Python names the `.fit` line of a statement over several lines; the keyword sits above it.
    before: "import numpy as np\nfrom sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import RobustScaler\nfrom sklearn.linear_model import LassoCV\nX = np.arange(40.0).reshape(20, 2)\ny = X[:, 0] * 2.0 + 1.0\nm = make_pipeline(RobustScaler(),\n                  LassoCV(max_iter=1e5,\n                          alphas=[0.001, 0.01])).fit(X, y)\nprint(m[-1].alpha_)",
    after: "import numpy as np\nfrom sklearn.pipeline import make_pipeline\nfrom sklearn.preprocessing import RobustScaler\nfrom sklearn.linear_model import LassoCV\nX = np.arange(40.0).reshape(20, 2)\ny = X[:, 0] * 2.0 + 1.0\nm = make_pipeline(RobustScaler(),\n                  LassoCV(max_iter=100000,\n                          alphas=[0.001, 0.01])).fit(X, y)\nprint(m[-1].alpha_)",
    expect: '0.001',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'max_iter' parameter of LassoCV must be an int in the range [1, inf). Got 100000.0 instead.", lines: [9] } },
  }, {
    // Built in one statement, fitted in another: the traceback names the fit; the message names the class.
    before: "import numpy as np\nfrom sklearn.linear_model import ElasticNetCV\nX = np.arange(40.0).reshape(20, 2)\ny = X[:, 0] * 2.0 + 1.0\nenet = ElasticNetCV(max_iter=1e4, l1_ratio=[0.5, 1.0], cv=3)\nmodel = enet.fit(X, y)\nprint(model.l1_ratio_)",
    after: "import numpy as np\nfrom sklearn.linear_model import ElasticNetCV\nX = np.arange(40.0).reshape(20, 2)\ny = X[:, 0] * 2.0 + 1.0\nenet = ElasticNetCV(max_iter=10000, l1_ratio=[0.5, 1.0], cv=3)\nmodel = enet.fit(X, y)\nprint(model.l1_ratio_)",
    expect: '1.0',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'max_iter' parameter of ElasticNetCV must be an int in the range [1, inf). Got 10000.0 instead.", lines: [6] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, INT_ONLY);
    if (!at) return;
    const [, param, cls, got] = at.match;
    if (!Number.isInteger(Number(got))) return;
    const { onLine } = at;
    const traced = isTracedCell(ctx);
    // The keyword in a call on the failing line, or in any call of the class the message names.
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== param) continue;
      // (onLine holds for every node of a cell the traceback does not name: only traced cells use it.)
      if (!(traced && onLine(kw)) && !isKeywordOf(kw, cls)) continue;
      const edits = intEdits(kw.childForFieldName('value')!);
      if (edits.length) yield { node: kw, edits };
    }
    // Grids only where the traceback is: another cell's grid may be another estimator's, where a float means something else.
    if (!traced) return;
    // A grid in this cell: {'max_depth': [3.0, 5.0]} or {'clf__max_depth': ...}.
    for (const entry of paramEntriesFor(ctx, param)) {
      const edits = intEdits(entry.value);
      if (edits.length) yield { node: entry.node, edits };
    }
  },
});


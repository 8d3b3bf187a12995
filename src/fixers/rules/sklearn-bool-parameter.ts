/**
 * scikit-learn 1.2 validates every estimator parameter (`_parameter_constraints`): a flag must be a
 * bool. Older releases only tested its truth (`if self.dual:`), so notebooks passed `dual=None`,
 * `fit_intercept=0`, `with_mean=0.0`, `'warm_start': [1]` in a grid, `bootstrap='True'`, and got
 * False, False, False, True, True. The repair writes the bool the old code read: None and zero ->
 * False, other numbers -> True, a string -> True unless empty (`'False'` was True as well).
 *
 * Recognised from the runtime error, which names the parameter, the estimator and the value (also
 * when a grid search wraps it: "All the N fits failed ... Got None instead."): the keyword of that
 * name with that value, and the entries keyed by it in parameter dicts, in any cell (the estimator is
 * usually built in another cell than the one whose fit raises).
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { candidateValues, replaceNode, stringValue } from './tree.js';
import { atRuntimeError } from './traceback.js';

const NOT_BOOL = /The '(\w+)' parameter of \w+ must be an instance of 'bool'.*?\. Got (None|-?\d+(?:\.\d*)?|'[^'\n]*') instead/;

/**
 * The truth the old `if self.flag:` read: None and zero are False, any other number True; a string
 * is True unless empty (`bootstrap='False'` was True too: the old code never compared it).
 */
function truth(value: string): string {
  if (value.startsWith("'")) return value === "''" ? 'False' : 'True';
  return value === 'None' || Number(value) === 0 ? 'False' : 'True';
}

/** The literal `value` as the message prints it (None, 0, 1, 0.0: `with_mean=0.0` is the same number written `0.`). */
function literalIs(node: SyntaxNode | null | undefined, value: string): boolean {
  if (!node) return false;
  if (value === 'None') return node.type === 'none';
  if (value.startsWith("'")) return node.type === 'string' && stringValue(node) === value.slice(1, -1);
  return (node.type === 'integer' || node.type === 'float') && Number(node.text) === Number(value);
}

export const sklearnBoolParameter: Rule = rule({
  id: 'sklearn-bool-parameter-truthy',
  library: 'scikit-learn',
  title: "None, a number or a string for a boolean estimator parameter (dual=None, fit_intercept=0, bootstrap='True')",
  old: "LogisticRegression(dual=None); {'fit_intercept': [0, 1]}",
  new: "LogisticRegression(dual=False); {'fit_intercept': [False, True]}",
  removedIn: '1.2',
  trigger: 'error',
  errors: [err('InvalidParameterError', NOT_BOOL), err('ValueError', NOT_BOOL)],
  // The estimator is usually built in another cell than the one that fits it; every such keyword would fail alike.
  errorScope: 'notebook',
  link: 'https://scikit-learn.org/stable/whats_new/v1.2.html#changes-impacting-all-modules',
  message: 'scikit-learn 1.2 validates parameters: a flag must be a bool; older releases read the truth of None / 0 / 1, which the repair writes as False / False / True',
  fixtures: [{
    before: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nprint(LogisticRegression(dual=None, solver='liblinear').fit(X, y).coef_[0, 0].round(3))",
    after: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nprint(LogisticRegression(dual=False, solver='liblinear').fit(X, y).coef_[0, 0].round(3))",
    expect: '0.41',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'dual' parameter of LogisticRegression must be an instance of 'bool' or an instance of 'numpy.bool'. Got None instead." } },
  }, {
    before: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nparams = {'C': [1.0], 'dual': [None], 'solver': ['liblinear']}\ng = GridSearchCV(LogisticRegression(), params, cv=3).fit(X, y)\nprint(g.best_estimator_.coef_[0, 0].round(3))",
    after: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nparams = {'C': [1.0], 'dual': [False], 'solver': ['liblinear']}\ng = GridSearchCV(LogisticRegression(), params, cv=3).fit(X, y)\nprint(g.best_estimator_.coef_[0, 0].round(3))",
    expect: '0.41',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "\nAll the 3 fits failed.\nsklearn.utils._param_validation.InvalidParameterError: The 'dual' parameter of LogisticRegression must be an instance of 'bool' or an instance of 'numpy.bool'. Got None instead.\n" } },
  }, {
    before: "from sklearn.preprocessing import StandardScaler\nprint(StandardScaler(with_mean=0.0).fit_transform([[1.0], [3.0]]).ravel().tolist())",
    after: "from sklearn.preprocessing import StandardScaler\nprint(StandardScaler(with_mean=False).fit_transform([[1.0], [3.0]]).ravel().tolist())",
    expect: '[1.0, 3.0]',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'with_mean' parameter of StandardScaler must be an instance of 'bool' or an instance of 'numpy.bool'. Got 0.0 instead." } },
  }, {
    before: "from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(n_estimators=3, bootstrap='True', random_state=0).fit([[0], [1], [2], [3]], [0, 1, 0, 1])\nprint(m.bootstrap, len(m.estimators_))",
    after: "from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(n_estimators=3, bootstrap=True, random_state=0).fit([[0], [1], [2], [3]], [0, 1, 0, 1])\nprint(m.bootstrap, len(m.estimators_))",
    expect: 'True 3',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'bootstrap' parameter of RandomForestClassifier must be an instance of 'bool' or an instance of 'numpy.bool'. Got 'True' instead." } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, NOT_BOOL);
    if (!at) return;
    const [, param, value] = at.match as unknown as [string, string, string];
    const fix = truth(value);
    for (const kw of ctx.nodes('keyword_argument')) {
      const v = kw.childForFieldName('value');
      if (kw.childForFieldName('name')?.text === param && literalIs(v, value)) yield { node: kw, edits: [replaceNode(v!, fix)] };
    }
    for (const pair of ctx.nodes('pair')) {
      if (stringValue(pair.childForFieldName('key')) !== param) continue;
      const v = pair.childForFieldName('value');
      for (const item of v ? candidateValues(v) : []) if (literalIs(item, value)) yield { node: item, edits: [replaceNode(item, fix)] };
    }
  },
});

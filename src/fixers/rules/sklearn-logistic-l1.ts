/**
 * scikit-learn 0.22 changed LogisticRegression's default solver from 'liblinear' to 'lbfgs'
 * (whats_new v0.22, sklearn.linear_model). liblinear fits an L1 penalty; lbfgs does not: a
 * `LogisticRegression(penalty='l1')` written before 0.22 now raises "Solver lbfgs supports only
 * 'l2' or None penalties, got l1 penalty", and a grid search over `{'penalty': ['l1', 'l2']}` turns
 * the l1 candidates into NaN scores (error_score=nan) and silently picks another model. The
 * faithful repair names the solver the author got by default: `solver='liblinear'`.
 *
 * Static, because the l1 penalty is written in the source: in the call itself, or in a parameter
 * grid of the same cell as an estimator that leaves the solver to its default (a grid that sets
 * the solver itself is the author's choice and is left alone).
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import { flowsInto, isParamKey, paramEntries } from './param-dicts.js';
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, kwValue } from './tree.js';
import { sklearnCalls, stringLiterals } from './sklearn.js';

const values = (node: SyntaxNode | null | undefined) => stringLiterals(node).map((l) => l.value);

/** Parameter dicts of this cell (any spelling) that grid a penalty including 'l1' and do not set the solver themselves. */
function l1Grids(ctx: CellContext): boolean {
  const entries = paramEntries(ctx);
  for (const e of entries) {
    if (!isParamKey(e.key, 'penalty') || !values(e.value).includes('l1')) continue;
    const setsSolver = entries.some((o) => o.node.parent === e.node.parent && isParamKey(o.key, 'solver'));
    if (!setsSolver) return true;
  }
  return false;
}

const L1_ON_LBFGS = /Solver lbfgs supports only '?l2'? or (None|'none') penalties, got l1 penalty/;

export const sklearnLogisticL1: Rule = rule({
  id: 'sklearn-logistic-l1-solver',
  triggers: ['LogisticRegression'],
  library: 'scikit-learn',
  title: "LogisticRegression(penalty='l1') on the default solver (liblinear -> lbfgs in 0.22)",
  old: "LogisticRegression(penalty='l1')",
  new: "LogisticRegression(penalty='l1', solver='liblinear')",
  removedIn: '0.22',
  errors: [err('ValueError', L1_ON_LBFGS)],
  // The estimator is often built in one cell and searched over an l1 grid in another (flowsInto).
  errorScope: 'notebook',
  link: 'https://scikit-learn.org/stable/whats_new/v0.22.html#sklearn-linear-model',
  message: "LogisticRegression's default solver changed from liblinear to lbfgs in scikit-learn 0.22, and lbfgs has no L1 penalty: name the solver the notebook ran with, solver='liblinear'",
  fixtures: [{
    before: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nm = LogisticRegression(C=1.0, penalty='l1').fit(X, y)\nprint(int((m.coef_ == 0).sum()), round(m.score(X, y), 2))",
    after: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nm = LogisticRegression(C=1.0, penalty='l1', solver='liblinear').fit(X, y)\nprint(int((m.coef_ == 0).sum()), round(m.score(X, y), 2))",
    expect: '2 0.96',
    beforeError: 'ValueError',
  }, {
    // The grid's l1 candidates fail inside the search (NaN scores, no error): the same solver restores them.
    before: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(LogisticRegression(), {'penalty': ['l1', 'l2'], 'C': [0.1, 1.0]}, cv=3, error_score='raise').fit(X, y)\nprint(g.best_params_)",
    after: "from sklearn.linear_model import LogisticRegression\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(LogisticRegression(solver='liblinear'), {'penalty': ['l1', 'l2'], 'C': [0.1, 1.0]}, cv=3, error_score='raise').fit(X, y)\nprint(g.best_params_)",
    expect: "{'C': 1.0, 'penalty': 'l2'}",
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    let grids: boolean | undefined;
    // The run's error (raised, or swallowed by a search) says an l1 penalty met lbfgs in that cell:
    // the estimators that reach it are the ones to give back their old solver.
    const rt = ctx.nb.info.runtime;
    const failing = rt && L1_ON_LBFGS.test(rt.evalue) ? rt.failingCell : undefined;
    for (const { call, args } of sklearnCalls(ctx, ['LogisticRegression'])) {
      if (args.splat || args.keywords.has('solver')) continue;
      const penalty = args.keywords.get('penalty');
      const l1 = penalty ? values(kwValue(penalty)).includes('l1') : (grids ??= l1Grids(ctx)) || (failing !== undefined && flowsInto(ctx, call, failing));
      if (l1) yield { node: call, edits: [addArgument(args, "solver='liblinear'")] };
    }
  },
});

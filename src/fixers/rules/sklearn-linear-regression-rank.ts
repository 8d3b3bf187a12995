/**
 * LinearRegression on collinear columns. A frame one-hot encoded with every category kept
 * (`pd.get_dummies(df)`, the House Prices habit) plus the intercept is rank-deficient: after
 * centering, each group of indicator columns sums to zero up to rounding. scikit-learn (up to 1.5)
 * solved it with `scipy.linalg.lstsq(X, y)`, whose default cutoff (machine epsilon times the largest
 * singular value) keeps a rounding-sized singular value when the columns are of similar scale, and
 * inverts it: coefficients of 1e13 and scores of -4e13. Whether that singular value falls under the
 * cutoff depends on the LAPACK build; the authors' (Anaconda's MKL) dropped it, this environment's
 * OpenBLAS does not, so the same code printed an RMSE of 0.15 then and 4e6 here. scikit-learn 1.6
 * (#30040) made the fit robust by setting the cutoff numpy recommends, max(n, p) * eps; this repair
 * gives the environment's scikit-learn that cutoff, once, after the import.
 *
 * Never applied from the era alone (the era had the old cutoff; the author's BLAS made the
 * difference): a candidate for a drift, kept only when the run then agrees with the stored outputs,
 * and offered only for a drift in a cell fed by a LinearRegression call (see the agent's rule fixer).
 */
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { shimAfterImport, type ShimSpec } from './import-shim.js';

/** What the candidate's statements bind, so a notebook already carrying them is not patched twice. */
const MARK = '_sk_lr_base_';

/** The statements inserted after the import (private names: nothing of the notebook's is rebound). */
export const LSTSQ_CUTOFF = [
  '# scikit-learn 1.6 (#30040): LinearRegression cuts singular values below max(n, p) * eps (collinear one-hot columns)',
  `import numpy as _np_, scipy.linalg as _sla_, sklearn.linear_model._base as ${MARK}`,
  `${MARK}.linalg = type(_sla_)(_sla_.__name__); vars(${MARK}.linalg).update(vars(_sla_))`,
  `${MARK}.linalg.lstsq = lambda a, b, cond=None, _sla=_sla_, _np=_np_, **kw: _sla.lstsq(a, b, cond=max(a.shape) * _np.finfo(a.dtype).eps if cond is None else cond, **kw)`,
].join('\n');

const RANK_FIXTURE = (shim: string) => [
  'import numpy as np, pandas as pd',
  'from sklearn.linear_model import LinearRegression',
  `${shim}i = np.arange(60)`,
  "X = pd.DataFrame({'a': np.sin(i), 'b': np.cos(i)})",
  'X[\'c\'] = X.a + X.b + 1e-14 * np.sin(3 * i + 1)',
  'm = LinearRegression().fit(X, np.cos(2 * i))',
  'print(m.rank_, np.abs(m.coef_).max() < 1)',
].join('\n');

/** The name whose calls this repair acts on (the agent offers it only for drifts those calls feed). */
export const LINEAR_REGRESSION = 'LinearRegression';

const SHIM: ShimSpec = {
  mark: MARK,
  text: LSTSQ_CUTOFF,
  // The class itself, or its module where the notebook calls the class through it.
  qualifies: (b) => b.qname === `sklearn.linear_model.${LINEAR_REGRESSION}` || b.qname === 'sklearn.linear_model' || b.qname === 'sklearn',
};

export const sklearnLinearRegressionRank: Rule = rule({
  id: 'sklearn-linear-regression-rank-cutoff',
  triggers: [LINEAR_REGRESSION, 'linear_model', 'sklearn'],
  library: 'scikit-learn',
  title: "LinearRegression's rank cutoff on collinear columns (scikit-learn 1.6)",
  old: 'from sklearn.linear_model import LinearRegression',
  new: 'from sklearn.linear_model import LinearRegression\n# + the lstsq cutoff max(n, p) * eps of scikit-learn 1.6',
  kind: 'score-calibration',
  shim: true,
  // Not changedIn: the environment's scikit-learn (1.4) predates 1.6; this brings 1.6's fix forward,
  // it does not restore an old default (a changedIn above the environment's version would gate it off).
  fixedIn: '1.6',
  link: 'https://scikit-learn.org/stable/whats_new/v1.6.html#sklearn-linear-model',
  message: "LinearRegression on rank-deficient columns (one-hot groups kept whole, plus the intercept) inverted a rounding-sized singular value on this environment's BLAS where the author's dropped it; scikit-learn 1.6 (#30040) cuts singular values below max(n, p) * eps, which gives the notebook's LinearRegression the author's fit",
  fixtures: [{
    // A designed near-collinear column, not one-hot groups: whether a *rounding-sized* singular value
    // survives depends on the BLAS kernel and even on memory alignment (it flipped between runs of one
    // kernel). Here the smallest singular value is 3.2e-15 of the largest: 14x above the old cutoff (eps),
    // 4x below 1.6's (60 * eps), far from rounding either way.
    before: RANK_FIXTURE(''),
    after: RANK_FIXTURE(`${LSTSQ_CUTOFF}\n`),
    expect: '2 True',
    beforeOutcome: 'differs',
    context: { era: { unknownAsOld: true } },
  }],
  *find(ctx): Generator<RuleMatch> {
    // A verified candidate only: the era cannot say the author's fit dropped the direction.
    if (!ctx.nb.info.era.hint.unknownAsOld) return;
    if (!ctx.nb.memo('linreg-calls', () => ctx.nb.cells.some((c) => c.source.includes(`${LINEAR_REGRESSION}(`)))) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield m;
  },
});

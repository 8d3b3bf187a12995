/**
 * `normalize=True` in scikit-learn's penalised linear models (Ridge, Lasso, ElasticNet, their CV
 * variants, Lars, ...) until 1.2: before the fit each column of X was centred and divided by its L2
 * norm, and after it `coef_` was divided by those norms and `intercept_` recomputed, so predictions,
 * `coef_` and `alpha_` are in the original units (0.24's `_preprocess_data`). It was ignored with
 * `fit_intercept=False`. 1.2 removed the parameter; the migration it suggests (StandardScaler in a
 * pipeline, alpha scaled by the sample count) changes the model object and needs the data's size.
 *
 * The repair keeps the notebook's call as written and gives the class its parameter back: a shim on
 * the line before the notebook's first scikit-learn import replaces, in `sklearn.linear_model`,
 * each class the notebook calls with `normalize` by a subclass with the same name that accepts it
 * (a real parameter: get_params, clone and repr see it) and does the old scaling around the fit.
 * The subclass lives in `__main__`, so pickling (joblib workers) carries it by value or finds it by
 * name. The CV models chose alpha with the scaling of each training fold then; here one scaling of
 * the full data serves every fold (RidgeCV's default leave-one-out is exact).
 */
import type { SyntaxNode } from '../python/parser.js';
import { CellContext } from './context.js';
import { importOf, type ShimSpec } from './import-shim.js';

export const NORMALIZE_MARK = '_sk_normalize_';

/**
 * The models whose normalize= defaulted to True until scikit-learn 1.2 (1.0's `_deprecate_normalize(...,
 * default=True)`: "The default of 'normalize' will be set to False in version 1.2"); every other
 * linear model defaulted to False. The shim gives each class back the default it had.
 */
export const NORMALIZE_DEFAULT_TRUE: readonly string[] = ['Lars', 'LassoLars', 'LarsCV', 'LassoLarsCV', 'LassoLarsIC', 'OrthogonalMatchingPursuit', 'OrthogonalMatchingPursuitCV'];

export function normalizeShim(classes: readonly string[], mark = NORMALIZE_MARK): string {
  return [
    '# scikit-learn before 1.2: normalize=True centred each column and divided it by its L2 norm before the fit, then scaled coef_ back',
    `import sklearn.linear_model as ${mark}`,
    'def _sk_old_normalize_(cls, default=False):',
    '    import inspect, numpy as np',
    '    sig = inspect.signature(cls.__init__)',
    "    if 'normalize' in sig.parameters: return cls",
    '    def __init__(self, *args, normalize=default, **kw):',
    '        cls.__init__(self, *args, **kw)',
    '        self.normalize = normalize',
    "    __init__.__signature__ = sig.replace(parameters=[*sig.parameters.values(), inspect.Parameter('normalize', inspect.Parameter.KEYWORD_ONLY, default=default)])",
    // The CV models hand get_params() on to their path functions: normalize is hidden during the fit.
    '    def get_params(self, deep=True):',
    '        p = cls.get_params(self, deep)',
    "        if getattr(self, '_sk_fitting_', False): p.pop('normalize', None)",
    '        return p',
    '    def fit(self, X, y, *args, **kw):',
    '        self._sk_fitting_ = True',
    '        try:',
    "            if not self.normalize or not getattr(self, 'fit_intercept', True) or hasattr(X, 'tocsr'): return cls.fit(self, X, y, *args, **kw)",
    '            Xa = np.asarray(X, dtype=float); m = Xa.mean(axis=0); s = np.sqrt(((Xa - m) ** 2).sum(axis=0)); s[s == 0] = 1',
    "            cls.fit(self, (X - m) / s if hasattr(X, 'columns') else (Xa - m) / s, y, *args, **kw)",
    '            self.coef_ = self.coef_ / s',
    '            self.intercept_ = self.intercept_ - np.dot(self.coef_, m)',
    '            return self',
    '        finally: self._sk_fitting_ = False',
    "    return type(cls.__name__, (cls,), {'__init__': __init__, 'fit': fit, 'get_params': get_params, '__module__': '__main__', '__qualname__': cls.__name__, '__doc__': cls.__doc__})",
    `for _n in (${classes.map((c) => `'${c}'`).join(', ')},): setattr(${mark}, _n, _sk_old_normalize_(getattr(${mark}, _n), _n in (${NORMALIZE_DEFAULT_TRUE.map((c) => `'${c}'`).join(', ')})))`,
  ].join('\n');
}

/** The penalised models the notebook calls with a `normalize=` that is not False, in first-call order. */
export function normalizedClasses(ctx: CellContext, calls: (c: CellContext) => Iterable<{ name: string; kw: SyntaxNode | undefined; noIntercept: boolean }>): string[] {
  return ctx.nb.memo('sk-normalized-classes', () => {
    const out: string[] = [];
    for (const cell of ctx.nb.cells) {
      for (const { name, kw, noIntercept } of calls(new CellContext(ctx.nb, cell))) {
        if (kw && kw.type !== 'false' && !noIntercept && !out.includes(name)) out.push(name);
      }
    }
    return out;
  });
}

export function normalizeShimSpec(classes: readonly string[]): ShimSpec {
  return { mark: NORMALIZE_MARK, text: normalizeShim(classes), qualifies: importOf('sklearn'), before: true };
}

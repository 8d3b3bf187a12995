/**
 * Until scikit-learn 0.22, GridSearchCV and RandomizedSearchCV averaged each candidate's fold scores
 * weighted by the size of each test fold (`iid=True`, the default; 0.20 and 0.21 only warned that
 * it would change). 0.22 made the plain mean the default and 0.24 removed the parameter. Wherever the
 * folds differ in size (891 Titanic rows in 5 or 10 folds, 1460 house-price rows in 3), every
 * `mean_test_score`, `std_test_score`, `best_score_` and the ranking built on them moved a little,
 * and an argmax between near-equal candidates (the best depth, the best C) can move with them.
 *
 * The repair acts on the class: BaseSearchCV's result table gets the test means, standard deviations
 * and ranks recomputed from the split scores with the test-fold sizes as weights, exactly as 0.21's
 * `_format_results` did (train scores were never weighted). `best_index_`, `best_score_` and
 * `best_params_` are read from that table, so they follow. Inserted once, after the notebook's first
 * scikit-learn import; applied where the era predates 0.22 (the default was iid=True) or where a
 * search passes `iid=True` (the keyword itself is gone: sklearn-removed-parameters drops it), and not
 * where every search passes `iid=False`.
 */
import type { Rule } from './types.js';
import { sklearnPre022ShimRule } from './sklearn-pre022-shim.js';

const MARK = '_sk_search_';

export const SEARCH_IID_SHIM = [
  '# scikit-learn 0.22 stopped weighting a search\'s fold scores by test-fold size (iid=True until then; removed in 0.24)',
  `import sklearn.model_selection._search as ${MARK}`,
  `${MARK}.BaseSearchCV._sk_unweighted_ = getattr(${MARK}.BaseSearchCV, '_sk_unweighted_', ${MARK}.BaseSearchCV._format_results)`,
  'def _sk_iid_results_(self, candidate_params, n_splits, out, more_results=None):',
  '    import numpy as np',
  '    from scipy.stats import rankdata',
  '    results = self._sk_unweighted_(candidate_params, n_splits, out, more_results)',
  "    w = np.asarray([o.get('n_test_samples', 0) for o in out[:n_splits]], dtype=float)",
  '    if len(w) != n_splits or not w.all() or (w == w[0]).all(): return results',
  "    for key in [k for k in results if k.startswith('mean_test_')]:",
  "        name = key[len('mean_test_'):]",
  "        a = np.column_stack([results['split%d_test_%s' % (i, name)] for i in range(n_splits)])",
  '        m = np.average(a, axis=1, weights=w)',
  '        results[key] = m',
  "        results['std_test_' + name] = np.sqrt(np.average((a - m[:, None]) ** 2, axis=1, weights=w))",
  "        results['rank_test_' + name] = np.ones_like(m, dtype=np.int32) if np.isnan(m).all() else rankdata(-np.nan_to_num(m, nan=np.nanmin(m) - 1), method='min').astype(np.int32)",
  '    return results',
  `${MARK}.BaseSearchCV._format_results = _sk_iid_results_`,
].join('\n');

/** The searches whose fold means the weighting changed. */
export const IID_SEARCHES: readonly string[] = ['GridSearchCV', 'RandomizedSearchCV'];

const SEARCH_CALL = /\b(?:GridSearchCV|RandomizedSearchCV)\s*\(/g;
const IID_TRUE = /\biid\s*=\s*True\b|['"]iid['"]\s*:\s*True\b/;
const IID_FALSE = /\biid\s*=\s*False\b|['"]iid['"]\s*:\s*False\b/g;

const FIXTURE = [
  'import numpy as np',
  'from sklearn.model_selection import GridSearchCV, KFold',
  'from sklearn.tree import DecisionTreeClassifier',
  'X = (np.arange(20) % 7).reshape(-1, 1)',
  'y = np.arange(20) % 3 == 0',
  "g = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 2, 3]}, cv=KFold(3)).fit(X, y)",
  "print(round(g.best_score_, 4), np.round(g.cv_results_['std_test_score'], 4).tolist())",
].join('\n');

export const sklearnSearchIid: Rule = sklearnPre022ShimRule({
  id: 'sklearn-pin-search-iid',
  title: "a search's fold scores weighted by test-fold size (iid=True, default until 0.22)",
  old: 'GridSearchCV(clf, grid, cv=5)',
  new: 'GridSearchCV(clf, grid, cv=5)  # with the test means weighted by fold size',
  mark: MARK,
  shim: SEARCH_IID_SHIM,
  message: "GridSearchCV / RandomizedSearchCV weighted each fold's test score by the fold's size until scikit-learn 0.22 (iid=True; removed in 0.24): mean_test_score, best_score_ and the ranking move where folds differ in size; the notebook's run used the weighted means",
  // 20 rows in 3 folds (7, 7, 6): the weighted mean is the share of all 20 predictions that are right.
  fixture: { text: FIXTURE, afterImport: 'GridSearchCV, KFold\n', expect: '0.6 [0.0436, 0.0436, 0.0436]', era: '0.20.3' },
  why(ctx) {
    const iid = ctx.nb.memo('search-iid', (): 'true' | 'default' | undefined => {
      const text = ctx.nb.cells.map((c) => c.source).join('\n');
      const searches = text.match(SEARCH_CALL)?.length ?? 0;
      if (!searches || (text.match(IID_FALSE)?.length ?? 0) >= searches) return undefined;
      return IID_TRUE.test(text) ? 'true' : 'default';
    });
    return iid === 'true' ? 'a search passes iid=True'
      : iid === 'default' && ctx.nb.info.era.predates('scikit-learn', '0.22') ? ctx.nb.info.era.why('scikit-learn', '0.22') : undefined;
  },
});

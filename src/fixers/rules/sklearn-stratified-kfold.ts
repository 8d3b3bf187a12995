/**
 * scikit-learn 0.22 reimplemented StratifiedKFold (#14704, "avoid variation in test size"): each class
 * is now dealt to the folds round-robin over the sorted labels; until 0.21 each class was split by
 * its own KFold (over max(count, n_splits) placeholders, trimmed) and the per-class test sets merged
 * fold by fold. The folds differ, so every cross-validated score of a classifier moves: the mean a
 * little, the standard deviation (the "Accuracy: 0.81 (+/- 0.04)" idiom) and any argmax over the
 * scores (the best k, the best depth) more. StratifiedKFold is also what an integer `cv` means for a
 * classifier with a binary or multiclass target (check_cv), so cross_val_score(clf, X, y, cv=10),
 * GridSearchCV(clf, grid, cv=5), learning_curve and the rest use it without naming it.
 *
 * The repair therefore acts on the class, not on one call: StratifiedKFold's fold assignment gets
 * the pre-0.22 algorithm (the same KFold calls, with the same random state handed to each class in
 * turn, as 0.18–0.21 did), once, after the notebook's first scikit-learn import; targets the old
 * code rejected (continuous, multilabel) and impossible splits keep the current implementation and
 * its errors. Era-certain where the notebook predates 0.22; otherwise a drift candidate, kept only
 * when the run then agrees with the stored outputs, offered for drifts the cross-validation calls feed.
 */
import type { Rule } from './types.js';
import { sklearnPre022ShimRule } from './sklearn-pre022-shim.js';

const MARK = '_sk_split_';

export const PRE_022_FOLDS = [
  "# scikit-learn 0.22 (#14704) reassigned StratifiedKFold's folds: the notebook's run split each class with KFold and merged them",
  `import sklearn.model_selection._split as ${MARK}`,
  `${MARK}.StratifiedKFold._sk_new_folds_ = getattr(${MARK}.StratifiedKFold, '_sk_new_folds_', ${MARK}.StratifiedKFold._make_test_folds)`,
  'def _sk_folds_pre022_(self, X, y=None):',
  '    import numpy as np, sklearn.model_selection._split as split',
  '    y = np.asarray(y)',
  "    if split.type_of_target(y) not in ('binary', 'multiclass'): return self._sk_new_folds_(X, y)",
  '    y = split.column_or_1d(y); classes, counts = np.unique(y, return_counts=True)',
  '    if np.all(self.n_splits > counts): return self._sk_new_folds_(X, y)',
  '    rng = split.check_random_state(self.random_state)',
  '    per_class = [split.KFold(self.n_splits, shuffle=self.shuffle, random_state=rng if self.shuffle else None).split(np.zeros(max(c, self.n_splits))) for c in counts]',
  '    folds = np.zeros(len(y), dtype=int)',
  '    for i, splits in enumerate(zip(*per_class)):',
  '        for c, (_, test) in zip(classes, splits):',
  '            f = folds[y == c]; f[test[test < len(f)]] = i; folds[y == c] = f',
  '    return folds',
  `${MARK}.StratifiedKFold._make_test_folds = _sk_folds_pre022_`,
].join('\n');

/** The calls that split with StratifiedKFold, by name or through an integer (or default) cv. */
export const STRATIFIED_SPLITTERS: readonly string[] = [
  'StratifiedKFold', 'cross_val_score', 'cross_val_predict', 'cross_validate', 'GridSearchCV', 'RandomizedSearchCV',
  'learning_curve', 'validation_curve', 'RFECV', 'permutation_test_score', 'CalibratedClassifierCV',
];

const USES = new RegExp(`\\b(${STRATIFIED_SPLITTERS.join('|')})\\(`);

const FIXTURE = [
  'import numpy as np',
  'from sklearn.model_selection import cross_val_score, StratifiedKFold',
  'from sklearn.tree import DecisionTreeClassifier',
  'y = [0] * 7 + [1] * 5',
  'folds = [t.tolist() for _, t in StratifiedKFold(n_splits=3).split(y, y)]',
  'X = np.arange(40).reshape(-1, 1) % 7',
  'y = np.arange(40) % 3 == 0',
  's = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=StratifiedKFold(4, shuffle=True, random_state=1))',
  'print(folds, np.round(s, 2).tolist())',
].join('\n');

export const sklearnStratifiedKFoldPre022: Rule = sklearnPre022ShimRule({
  id: 'sklearn-pin-stratified-kfold-folds',
  title: 'StratifiedKFold fold assignment (0.22 reimplementation)',
  old: 'cross_val_score(clf, X, y, cv=10)',
  new: "cross_val_score(clf, X, y, cv=10)  # with StratifiedKFold's pre-0.22 folds",
  mark: MARK,
  shim: PRE_022_FOLDS,
  message: "StratifiedKFold (also what an integer cv means for a classifier) assigns different folds since scikit-learn 0.22 (#14704): cross-validated scores, their spread and any best parameter over them move; the notebook's run used the per-class KFold assignment",
  // Unshuffled folds, and shuffled ones (the one random state handed to each class's KFold in turn, as 0.21 did).
  fixture: { text: FIXTURE, afterImport: 'StratifiedKFold\n', expect: '[[0, 1, 2, 7, 8], [3, 4, 9, 10], [5, 6, 11]] [0.45, 0.64, 0.67, 0.67]', era: '0.21.3' },
  why(ctx) {
    if (!ctx.nb.info.era.predates('scikit-learn', '0.22')) return undefined;
    if (!ctx.nb.memo('skf-splits', () => ctx.nb.cells.some((c) => USES.test(c.source)))) return undefined;
    return ctx.nb.info.era.why('scikit-learn', '0.22');
  },
});

/**
 * A ColumnTransformer given a DataFrame whose column labels repeat (`df[num_feats + cat_feats]` with
 * a feature in both lists) selected columns by name with `list(X.columns).index(name)` until
 * scikit-learn 0.23: each name meant its first column. 0.23 (PR #16431, a speed-up) switched to
 * `X.columns.get_loc(name)`, which answers a repeated label with a mask; later releases turned that
 * into "ValueError: Selected columns, [...], are not unique in dataframe".
 *
 * The repair restores the old lookup where it made a difference (string keys on a frame with
 * repeated labels; everything else goes to today's function): one shim after the notebook's first
 * scikit-learn import, since the lookup is the module's and every ColumnTransformer uses it. The
 * transformers then receive what they did before (both versions select by label, `X.loc[:, names]`,
 * every copy of a repeated label) and so does `remainder` (the positions no name took, second
 * copies included). One more difference is undone: since 1.0 `transform` on a frame turns every
 * selection into labels, which for the remainder's positions on repeated labels selects more
 * columns than it was fitted on; with repeated labels the selections stay as written, as in 0.22.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { importOf, shimAfterImport, type ShimSpec } from './import-shim.js';
import { atRuntimeError } from './traceback.js';

const MARK = '_sk_ct_';

export const COLUMN_LABELS_FIRST_SHIM = [
  '# scikit-learn before 0.23 took the first column of a repeated label (list.index) when a ColumnTransformer selected columns by name',
  `import sklearn.compose._column_transformer as ${MARK}`,
  `def _sk_first_label_(X, key, _today=${MARK}._get_column_indices):`,
  "    cols = getattr(X, 'columns', None)",
  '    keys = [key] if isinstance(key, str) else list(key) if isinstance(key, (list, tuple)) or hasattr(key, "tolist") else None',
  '    if cols is None or cols.is_unique or not keys or not all(isinstance(k, str) for k in keys): return _today(X, key)',
  '    names = list(cols)',
  '    return [names.index(k) for k in keys]',
  `${MARK}._get_column_indices = _sk_first_label_`,
  `${MARK}.ColumnTransformer._sk_iter_today_ = getattr(${MARK}.ColumnTransformer, '_sk_iter_today_', ${MARK}.ColumnTransformer._iter)`,
  'def _sk_iter_by_position_(self, *args, **kw):',
  "    names = getattr(self, 'feature_names_in_', None)",
  "    if kw.get('column_as_labels') and names is not None and len(set(names)) < len(names): kw['column_as_labels'] = False",
  '    return self._sk_iter_today_(*args, **kw)',
  `${MARK}.ColumnTransformer._iter = _sk_iter_by_position_`,
].join('\n');

const NOT_UNIQUE = /Selected columns, .* are not unique in dataframe/;

const SHIM: ShimSpec = { mark: MARK, text: COLUMN_LABELS_FIRST_SHIM, qualifies: importOf('sklearn') };

const FIXTURE = [
  'import pandas as pd',
  'from sklearn.compose import make_column_transformer',
  'from sklearn.preprocessing import StandardScaler',
  "df = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [10.0, 20.0, 40.0]})",
  "X = df[['a', 'b', 'a']]",
  "ct = make_column_transformer((StandardScaler(), ['a']), remainder='passthrough')",
  'print(ct.fit_transform(X).round(2).tolist(), ct.transform(X[:1]).round(2)[0].tolist())',
].join('\n');

export const sklearnColumnLabelsFirst: Rule = rule({
  id: 'sklearn-column-labels-first',
  triggers: ['sklearn'],
  library: 'scikit-learn',
  title: 'ColumnTransformer columns by name on a frame with repeated labels (first column until 0.23)',
  old: "make_column_transformer((StandardScaler(), num_feats), remainder='passthrough').fit(df[num_feats + cat_feats])",
  new: '# a shim after the first sklearn import restores the name -> first column lookup',
  removedIn: '0.23',
  trigger: 'error',
  errors: [err('ValueError', NOT_UNIQUE)],
  errorScope: 'notebook',
  shim: true,
  link: 'https://github.com/scikit-learn/scikit-learn/pull/16431',
  message: "until scikit-learn 0.23 a ColumnTransformer took each column name's first column (list.index) in a frame whose labels repeat; now the lookup rejects a repeated label: the old lookup is restored after the first scikit-learn import (the transformers receive the same columns as before)",
  fixtures: [{
    // The scaler gets both copies of 'a' (label selection), the remainder the column 'b' only: old
    // positions [0] for 'a', so the remainder is [1, 2], i.e. 'b' and the second 'a' (unscaled).
    before: FIXTURE,
    after: FIXTURE.replace('make_column_transformer\n', `make_column_transformer\n${COLUMN_LABELS_FIRST_SHIM}\n`),
    expect: '[[-1.22, -1.22, 10.0, 1.0], [0.0, 0.0, 20.0, 2.0], [1.22, 1.22, 40.0, 3.0]] [-1.22, -1.22, 10.0, 1.0]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "Selected columns, ['a'], are not unique in dataframe" } },
  }],
  *find(ctx) {
    if (!atRuntimeError(ctx, NOT_UNIQUE)) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield m;
  },
});

/**
 * scikit-learn removals and renames from doc/whats_new (v0.18 … v1.4, "API changes" entries) that no
 * hand-written rule in sklearn.ts covers. Each entry was checked in the fixed environment (1.4.2).
 */
import type { TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const WN = (v: string, anchor: string) => `https://scikit-learn.org/stable/whats_new/v${v}.html#${anchor}`;
const invalidParam = (p: string) => err('InvalidParameterError', new RegExp(`The '${p}' parameter of \\w+ must be`));
const TREES = ['DecisionTreeClassifier', 'DecisionTreeRegressor', 'ExtraTreeClassifier', 'ExtraTreeRegressor'].map((n) => ({ qname: `sklearn.tree.${n}` }));
const ENSEMBLES = ['RandomForestClassifier', 'RandomForestRegressor', 'ExtraTreesClassifier', 'ExtraTreesRegressor', 'GradientBoostingClassifier', 'GradientBoostingRegressor', 'RandomTreesEmbedding']
  .map((n) => ({ qname: `sklearn.ensemble.${n}` }));
const CLASS_WEIGHT = [
  'linear_model.LogisticRegression', 'linear_model.LogisticRegressionCV', 'linear_model.SGDClassifier', 'linear_model.Perceptron',
  'linear_model.PassiveAggressiveClassifier', 'linear_model.RidgeClassifier', 'linear_model.RidgeClassifierCV', 'svm.SVC', 'svm.NuSVC',
  'svm.LinearSVC', 'ensemble.RandomForestClassifier', 'ensemble.ExtraTreesClassifier', 'tree.DecisionTreeClassifier', 'tree.ExtraTreeClassifier',
].map((n) => ({ qname: `sklearn.${n}` }));

export const sklearnTable: TableEntry[] = [
  {
    kind: 'rename-kwarg', id: 'sklearn-agglomerative-affinity', library: 'scikit-learn', removedIn: '1.4', deprecatedIn: '1.2',
    callees: [{ qname: 'sklearn.cluster.AgglomerativeClustering' }, { qname: 'sklearn.cluster.FeatureAgglomeration' }],
    from: 'affinity', to: 'metric',
    link: WN('1.2', 'sklearn-cluster'),
    message: 'AgglomerativeClustering/FeatureAgglomeration: affinity= was renamed metric= (deprecated 1.2, removed 1.4)',
    fixtures: [{
      before: "from sklearn.cluster import AgglomerativeClustering\nm = AgglomerativeClustering(n_clusters=2, affinity='manhattan', linkage='average')\nprint(sorted(m.fit_predict([[0], [1], [5], [6]]).tolist()))",
      after: "from sklearn.cluster import AgglomerativeClustering\nm = AgglomerativeClustering(n_clusters=2, metric='manhattan', linkage='average')\nprint(sorted(m.fit_predict([[0], [1], [5], [6]]).tolist()))",
      expect: '[0, 0, 1, 1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'sklearn-mixture-gmm', library: 'scikit-learn', removedIn: '0.20', deprecatedIn: '0.18',
    from: 'sklearn.mixture.GMM', to: 'sklearn.mixture.GaussianMixture',
    link: WN('0.18', 'api-changes-summary'),
    message: "sklearn.mixture.GMM was removed in 0.20: use GaussianMixture (its covariance_type default is 'full', GMM's was 'diag')",
    fixtures: [{
      before: 'from sklearn.mixture import GMM\nimport numpy as np\ng = GMM(n_components=2, random_state=0).fit(np.array([[0.0], [0.1], [5.0], [5.1]]))\nprint(len(set(g.predict([[0.0], [5.0]]).tolist())))',
      after: 'from sklearn.mixture import GaussianMixture as GMM\nimport numpy as np\ng = GMM(n_components=2, random_state=0).fit(np.array([[0.0], [0.1], [5.0], [5.1]]))\nprint(len(set(g.predict([[0.0], [5.0]]).tolist())))',
      expect: '2', beforeError: 'ImportError',
    }],
  },
  {
    kind: 'rename-function', id: 'sklearn-calinski-harabaz-score', library: 'scikit-learn', removedIn: '0.23', deprecatedIn: '0.20',
    from: 'sklearn.metrics.calinski_harabaz_score', to: 'sklearn.metrics.calinski_harabasz_score',
    link: WN('0.20', 'sklearn-metrics'),
    message: 'metrics.calinski_harabaz_score (misspelled) was removed in 0.23: use calinski_harabasz_score',
    fixtures: [{
      before: 'from sklearn import metrics\nprint(round(metrics.calinski_harabaz_score([[0], [1], [5], [6]], [0, 0, 1, 1]), 1))',
      after: 'from sklearn import metrics\nprint(round(metrics.calinski_harabasz_score([[0], [1], [5], [6]], [0, 0, 1, 1]), 1))',
      expect: '50.0', beforeError: 'AttributeError',
    }, {
      before: 'from sklearn.metrics import calinski_harabaz_score\nprint(round(calinski_harabaz_score([[0], [1], [5], [6]], [0, 0, 1, 1]), 1))',
      after: 'from sklearn.metrics import calinski_harabasz_score as calinski_harabaz_score\nprint(round(calinski_harabaz_score([[0], [1], [5], [6]], [0, 0, 1, 1]), 1))',
      expect: '50.0', beforeError: 'ImportError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'sklearn-nmf-alpha', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    callees: [{ qname: 'sklearn.decomposition.NMF' }], from: 'alpha', to: 'alpha_W',
    link: WN('1.0', 'sklearn-decomposition'),
    message: "NMF(alpha=) was removed in 1.2: use alpha_W= (alpha_H defaults to 'same'); the penalty is now scaled by the data size",
    fixtures: [{
      before: "from sklearn.decomposition import NMF\nW = NMF(n_components=1, alpha=0.0, init='random', random_state=0, max_iter=500).fit_transform([[1, 2], [3, 4]])\nprint(W.shape)",
      after: "from sklearn.decomposition import NMF\nW = NMF(n_components=1, alpha_W=0.0, init='random', random_state=0, max_iter=500).fit_transform([[1, 2], [3, 4]])\nprint(W.shape)",
      expect: '(2, 1)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-penalty-none', library: 'scikit-learn', removedIn: '1.4', deprecatedIn: '1.2',
    callees: [{ qname: 'sklearn.linear_model.LogisticRegression' }],
    kwarg: 'penalty', values: { "'none'": 'None' }, inDicts: true,
    errors: [invalidParam('penalty')],
    link: WN('1.2', 'sklearn-linear-model'),
    message: "penalty='none' was removed in 1.4: use penalty=None",
    fixtures: [{
      before: "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression(penalty='none').fit([[0], [1], [2], [3]], [0, 0, 1, 1])\nprint(m.penalty)",
      after: "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression(penalty=None).fit([[0], [1], [2], [3]], [0, 0, 1, 1])\nprint(m.penalty)",
      expect: 'None', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-min-impurity-split', library: 'scikit-learn', removedIn: '1.0', deprecatedIn: '0.19',
    callees: [...TREES, ...ENSEMBLES], kwarg: 'min_impurity_split', onlyValues: ['None', '1e-07', '1e-7'],
    why: 'None disables it; 1e-7, the old default printed in model reprs, only stopped splitting pure nodes',
    link: WN('1.0', 'sklearn-tree'),
    message: 'min_impurity_split was removed in scikit-learn 1.0 (use min_impurity_decrease)',
    fixtures: [{
      before: "from sklearn.tree import DecisionTreeClassifier\nm = DecisionTreeClassifier(criterion='gini', min_impurity_split=None, random_state=0).fit([[0], [1], [2]], [0, 1, 1])\nprint(m.predict([[2]])[0])",
      after: "from sklearn.tree import DecisionTreeClassifier\nm = DecisionTreeClassifier(criterion='gini', random_state=0).fit([[0], [1], [2]], [0, 1, 1])\nprint(m.predict([[2]])[0])",
      expect: '1', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-tsne-square-distances', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    callees: [{ qname: 'sklearn.manifold.TSNE' }], kwarg: 'square_distances', onlyValues: ['True'],
    why: 'True is what TSNE always does since 1.3',
    link: WN('1.1', 'sklearn-manifold'),
    message: 'TSNE(square_distances=) was removed in scikit-learn 1.3',
    fixtures: [{
      before: 'from sklearn.manifold import TSNE\nt = TSNE(n_components=2, square_distances=True, perplexity=2)\nprint(t.perplexity)',
      after: 'from sklearn.manifold import TSNE\nt = TSNE(n_components=2, perplexity=2)\nprint(t.perplexity)',
      expect: '2', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-simple-imputer-verbose', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    callees: [{ qname: 'sklearn.impute.SimpleImputer' }], kwarg: 'verbose', always: true,
    why: 'SimpleImputer never used it',
    link: WN('1.1', 'sklearn-impute'),
    message: 'SimpleImputer(verbose=) was removed in scikit-learn 1.3',
    fixtures: [{
      before: "from sklearn.impute import SimpleImputer\nimport numpy as np\nprint(SimpleImputer(strategy='mean', verbose=0).fit_transform([[1.0], [np.nan], [3.0]]).ravel().tolist())",
      after: "from sklearn.impute import SimpleImputer\nimport numpy as np\nprint(SimpleImputer(strategy='mean').fit_transform([[1.0], [np.nan], [3.0]]).ravel().tolist())",
      expect: '[1.0, 2.0, 3.0]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'sklearn-neighbors-distance-metric', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.0',
    from: 'sklearn.neighbors.DistanceMetric', to: 'sklearn.metrics.DistanceMetric',
    link: WN('1.0', 'sklearn-neighbors'),
    message: 'sklearn.neighbors.DistanceMetric moved to sklearn.metrics.DistanceMetric (removed from neighbors in 1.3)',
    fixtures: [{
      before: "from sklearn.neighbors import DistanceMetric\nd = DistanceMetric.get_metric('manhattan')\nprint(d.pairwise([[0, 0], [1, 2]])[0, 1])",
      after: "from sklearn.metrics import DistanceMetric\nd = DistanceMetric.get_metric('manhattan')\nprint(d.pairwise([[0, 0], [1, 2]])[0, 1])",
      expect: '3.0', beforeError: 'ImportError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-ransac-loss', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    callees: [{ qname: 'sklearn.linear_model.RANSACRegressor' }], kwarg: 'loss',
    values: { "'absolute_loss'": "'absolute_error'", "'squared_loss'": "'squared_error'" },
    errors: [invalidParam('loss')],
    link: WN('1.0', 'sklearn-linear-model'),
    message: "RANSACRegressor loss 'absolute_loss'/'squared_loss' were renamed 'absolute_error'/'squared_error' (removed 1.2)",
    fixtures: [{
      before: "from sklearn.linear_model import RANSACRegressor\nm = RANSACRegressor(loss='absolute_loss', random_state=0).fit([[0], [1], [2], [3]], [0, 1, 2, 3])\nprint(m.loss)",
      after: "from sklearn.linear_model import RANSACRegressor\nm = RANSACRegressor(loss='absolute_error', random_state=0).fit([[0], [1], [2], [3]], [0, 1, 2, 3])\nprint(m.loss)",
      expect: 'absolute_error', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-class-weight-auto', library: 'scikit-learn', removedIn: '0.19', deprecatedIn: '0.17',
    callees: CLASS_WEIGHT, kwarg: 'class_weight', values: { "'auto'": "'balanced'" }, inDicts: true,
    errors: [invalidParam('class_weight')],
    link: WN('0.17', 'api-changes-summary'),
    message: "class_weight='auto' was removed in 0.19: use 'balanced' (weights n_samples / (n_classes * count); 'auto' normalised them differently)",
    fixtures: [{
      before: "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression(class_weight='auto').fit([[0], [1], [2], [3]], [0, 0, 0, 1])\nprint(m.class_weight)",
      after: "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression(class_weight='balanced').fit([[0], [1], [2], [3]], [0, 0, 0, 1])\nprint(m.class_weight)",
      expect: 'balanced', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-auc-reorder', library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
    callees: [{ qname: 'sklearn.metrics.auc' }], kwarg: 'reorder', onlyValues: ['False'],
    why: 'False was the default: x is used in the given order',
    link: WN('0.20', 'sklearn-metrics'),
    message: 'metrics.auc(reorder=) was removed in scikit-learn 0.22',
    fixtures: [{
      before: 'from sklearn.metrics import auc\nprint(auc([0, 0.5, 1], [0, 0.5, 1], reorder=False))',
      after: 'from sklearn.metrics import auc\nprint(auc([0, 0.5, 1], [0, 0.5, 1]))',
      expect: '0.5', beforeError: 'TypeError',
    }],
  },
];

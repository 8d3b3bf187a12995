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
const SCORING = ['model_selection.cross_val_score', 'model_selection.cross_validate', 'model_selection.GridSearchCV', 'model_selection.RandomizedSearchCV',
  'model_selection.learning_curve', 'model_selection.validation_curve', 'model_selection.permutation_test_score', 'feature_selection.RFECV'].map((n) => ({ qname: `sklearn.${n}` }));
const noAttr = (cls: string, a: string) => err('AttributeError', new RegExp(`'(${cls})' object has no attribute '${a}'`));
const rt = (cls: string, a: string) => ({ runtime: { ename: 'AttributeError', evalue: `'${cls}' object has no attribute '${a}'` } });

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

  ...(['GraphLasso', 'GraphLassoCV', 'graph_lasso'] as const).map((old): TableEntry => {
    const to = old.replace('GraphLasso', 'GraphicalLasso').replace('graph_lasso', 'graphical_lasso');
    const fn = old === 'graph_lasso';
    const use = fn ? `${old}(np.cov(X.T), alpha=0.1)[0].shape` : `${old}().fit(X).covariance_.shape`;
    const useNew = use.replace(old, to);
    return {
      kind: fn ? 'rename-function' : 'move-symbol', id: { GraphLasso: 'sklearn-graph-lasso-class', GraphLassoCV: 'sklearn-graph-lasso-cv', graph_lasso: 'sklearn-graph-lasso-function' }[old], library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
      from: `sklearn.covariance.${old}`, to: `sklearn.covariance.${to}`,
      link: WN('0.20', 'sklearn-covariance'),
      message: `covariance.${old} was renamed ${to} in 0.20 and removed in 0.22`,
      fixtures: [{
        before: `from sklearn import covariance\nimport numpy as np\nX = np.random.RandomState(0).rand(30, 3)\nprint(covariance.${use})`,
        after: `from sklearn import covariance\nimport numpy as np\nX = np.random.RandomState(0).rand(30, 3)\nprint(covariance.${useNew})`,
        expect: '(3, 3)', beforeError: 'AttributeError',
      }, {
        before: `from sklearn.covariance import ${old}\nimport numpy as np\nX = np.random.RandomState(0).rand(30, 3)\nprint(${use})`,
        after: `from sklearn.covariance import ${to} as ${old}\nimport numpy as np\nX = np.random.RandomState(0).rand(30, 3)\nprint(${use})`,
        expect: '(3, 3)', beforeError: 'ImportError',
      }],
    };
  }),
  {
    kind: 'drop-kwarg', id: 'sklearn-oneclasssvm-random-state', library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
    callees: [{ qname: 'sklearn.svm.OneClassSVM' }], kwarg: 'random_state', always: true,
    why: 'libsvm\'s one-class solver is not random, so the seed never had an effect',
    link: WN('0.20', 'sklearn-svm'),
    message: 'OneClassSVM(random_state=) was removed in scikit-learn 0.22',
    fixtures: [{
      before: "from sklearn.svm import OneClassSVM\nm = OneClassSVM(nu=0.5, gamma='scale', random_state=42).fit([[0.0], [0.1], [0.2], [5.0]])\nprint(m.predict([[0.1], [9.0]]).tolist())",
      after: "from sklearn.svm import OneClassSVM\nm = OneClassSVM(nu=0.5, gamma='scale').fit([[0.0], [0.1], [0.2], [5.0]])\nprint(m.predict([[0.1], [9.0]]).tolist())",
      expect: '[1, -1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-agglomerative-pooling-func', library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
    callees: [{ qname: 'sklearn.cluster.AgglomerativeClustering' }], kwarg: 'pooling_func', always: true,
    why: 'AgglomerativeClustering never used it (only FeatureAgglomeration pools features)',
    link: WN('0.20', 'sklearn-cluster'),
    message: 'AgglomerativeClustering(pooling_func=) was removed in scikit-learn 0.22',
    fixtures: [{
      before: "from sklearn.cluster import AgglomerativeClustering\nimport numpy as np\nm = AgglomerativeClustering(n_clusters=2, pooling_func=np.mean)\nprint(sorted(m.fit_predict([[0], [1], [5], [6]]).tolist()))",
      after: "from sklearn.cluster import AgglomerativeClustering\nimport numpy as np\nm = AgglomerativeClustering(n_clusters=2)\nprint(sorted(m.fit_predict([[0], [1], [5], [6]]).tolist()))",
      expect: '[0, 0, 1, 1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-labelpropagation-alpha', library: 'scikit-learn', removedIn: '0.21', deprecatedIn: '0.19',
    callees: [{ qname: 'sklearn.semi_supervised.LabelPropagation' }], kwarg: 'alpha', always: true,
    why: 'LabelPropagation has ignored alpha since 0.19 (only LabelSpreading uses it)',
    link: WN('0.19', 'api-changes-summary'),
    message: 'LabelPropagation(alpha=) was removed in scikit-learn 0.21',
    fixtures: [{
      before: "from sklearn.semi_supervised import LabelPropagation\nm = LabelPropagation(alpha=0.8).fit([[0.0], [0.1], [5.0], [5.1]], [0, -1, 1, -1])\nprint(m.transduction_.tolist())",
      after: "from sklearn.semi_supervised import LabelPropagation\nm = LabelPropagation().fit([[0.0], [0.1], [5.0], [5.1]], [0, -1, 1, -1])\nprint(m.transduction_.tolist())",
      expect: '[0, 0, 1, 1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-calibration-curve-normalize', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    callees: [{ qname: 'sklearn.calibration.calibration_curve' }], kwarg: 'normalize', onlyValues: ['False'],
    why: 'False was the default: the probabilities are used as given',
    link: WN('1.1', 'sklearn-calibration'),
    message: 'calibration_curve(normalize=) was removed in scikit-learn 1.3',
    fixtures: [{
      before: 'from sklearn.calibration import calibration_curve\nt, p = calibration_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], normalize=False, n_bins=2)\nprint(t.tolist(), p.round(2).tolist())',
      after: 'from sklearn.calibration import calibration_curve\nt, p = calibration_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], n_bins=2)\nprint(t.tolist(), p.round(2).tolist())',
      expect: '[0.0, 1.0] [0.15, 0.85]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-hashing-non-negative', library: 'scikit-learn', removedIn: '0.21', deprecatedIn: '0.19',
    callees: [{ qname: 'sklearn.feature_extraction.text.HashingVectorizer' }, { qname: 'sklearn.feature_extraction.FeatureHasher' }],
    kwarg: 'non_negative', onlyValues: ['False'],
    why: 'False was the default (non_negative=True took absolute values; alternate_sign=False is close but not identical)',
    link: WN('0.19', 'api-changes-summary'),
    message: 'HashingVectorizer/FeatureHasher(non_negative=) was removed in scikit-learn 0.21',
    fixtures: [{
      before: "from sklearn.feature_extraction.text import HashingVectorizer\nprint(HashingVectorizer(n_features=8, non_negative=False).transform(['red fox red']).nnz)",
      after: "from sklearn.feature_extraction.text import HashingVectorizer\nprint(HashingVectorizer(n_features=8).transform(['red fox red']).nnz)",
      expect: '2', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-sparsepca-normalize-components', library: 'scikit-learn', removedIn: '0.24', deprecatedIn: '0.22',
    callees: [{ qname: 'sklearn.decomposition.SparsePCA' }, { qname: 'sklearn.decomposition.MiniBatchSparsePCA' }],
    kwarg: 'normalize_components', onlyValues: ['True'],
    why: 'True (centre the data with the training mean) is what SparsePCA always does since 0.22',
    link: WN('0.22', 'sklearn-decomposition'),
    message: 'SparsePCA(normalize_components=) was removed in scikit-learn 0.24',
    fixtures: [{
      before: 'from sklearn.decomposition import SparsePCA\nimport numpy as np\nm = SparsePCA(n_components=2, normalize_components=True, random_state=0).fit(np.random.RandomState(0).rand(10, 4))\nprint(m.components_.shape)',
      after: 'from sklearn.decomposition import SparsePCA\nimport numpy as np\nm = SparsePCA(n_components=2, random_state=0).fit(np.random.RandomState(0).rand(10, 4))\nprint(m.components_.shape)',
      expect: '(2, 4)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-plot-tree-rotate', library: 'scikit-learn', removedIn: '1.0', deprecatedIn: '0.23',
    callees: [{ qname: 'sklearn.tree.plot_tree' }], kwarg: 'rotate', always: true,
    why: 'plot_tree never used it',
    link: WN('0.23', 'sklearn-tree'),
    message: 'plot_tree(rotate=) was removed in scikit-learn 1.0',
    fixtures: [{
      before: "import matplotlib\nmatplotlib.use('Agg')\nfrom sklearn.tree import DecisionTreeClassifier, plot_tree\nm = DecisionTreeClassifier(random_state=0).fit([[0], [1]], [0, 1])\nprint(len(plot_tree(m, rotate=True)))",
      after: "import matplotlib\nmatplotlib.use('Agg')\nfrom sklearn.tree import DecisionTreeClassifier, plot_tree\nm = DecisionTreeClassifier(random_state=0).fit([[0], [1]], [0, 1])\nprint(len(plot_tree(m)))",
      expect: '3', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-pairwise-argmin-batch-size', library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
    callees: [{ qname: 'sklearn.metrics.pairwise_distances_argmin_min' }, { qname: 'sklearn.metrics.pairwise_distances_argmin' }],
    kwarg: 'batch_size', always: true,
    why: 'it had no effect since 0.20 (chunking follows the working_memory setting)',
    link: WN('0.20', 'sklearn-metrics'),
    message: 'pairwise_distances_argmin(_min)(batch_size=) was removed in scikit-learn 0.22',
    fixtures: [{
      before: 'from sklearn.metrics import pairwise_distances_argmin\nprint(pairwise_distances_argmin([[0], [5]], [[1], [4]], batch_size=500).tolist())',
      after: 'from sklearn.metrics import pairwise_distances_argmin\nprint(pairwise_distances_argmin([[0], [5]], [[1], [4]]).tolist())',
      expect: '[0, 1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'sklearn-qda-store-covariances', library: 'scikit-learn', removedIn: '0.21', deprecatedIn: '0.19',
    callees: [{ qname: 'sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis' }], from: 'store_covariances', to: 'store_covariance',
    link: WN('0.19', 'api-changes-summary'),
    message: 'QuadraticDiscriminantAnalysis(store_covariances=) was renamed store_covariance (removed 0.21)',
    fixtures: [{
      before: 'from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\nm = QuadraticDiscriminantAnalysis(store_covariances=True)\nprint(m.store_covariance)',
      after: 'from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\nm = QuadraticDiscriminantAnalysis(store_covariance=True)\nprint(m.store_covariance)',
      expect: 'True', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'sklearn-trustworthiness-precomputed', library: 'scikit-learn', removedIn: '0.22', deprecatedIn: '0.20',
    callees: [{ qname: 'sklearn.manifold.trustworthiness' }], from: 'precomputed', to: 'metric',
    values: { True: "'precomputed'", False: "'euclidean'" },
    link: WN('0.20', 'sklearn-manifold'),
    message: "trustworthiness(precomputed=) was removed in scikit-learn 0.22: use metric='precomputed' (False meant metric='euclidean')",
    fixtures: [{
      before: 'from sklearn.manifold import trustworthiness\nimport numpy as np\nX = np.random.RandomState(0).rand(6, 3)\nprint(trustworthiness(X, X, n_neighbors=2, precomputed=False))',
      after: "from sklearn.manifold import trustworthiness\nimport numpy as np\nX = np.random.RandomState(0).rand(6, 3)\nprint(trustworthiness(X, X, n_neighbors=2, metric='euclidean'))",
      expect: '1.0', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-scoring-brier', library: 'scikit-learn', removedIn: '0.24', deprecatedIn: '0.22',
    callees: SCORING, kwarg: 'scoring', values: { "'brier_score_loss'": "'neg_brier_score'" },
    errors: [invalidParam('scoring'), err('ValueError', /is not a valid scoring value/)],
    link: WN('0.22', 'sklearn-metrics'),
    message: "scoring='brier_score_loss' was removed in 0.24: use 'neg_brier_score' (the old scorer already returned negated values, so the numbers are unchanged)",
    fixtures: [{
      before: "from sklearn.model_selection import cross_val_score\nfrom sklearn.naive_bayes import GaussianNB\nX = [[0.0], [0.1], [0.2], [0.3], [1.0], [1.1], [1.2], [1.3]]\ny = [0, 0, 0, 0, 1, 1, 1, 1]\nprint(cross_val_score(GaussianNB(), X, y, cv=2, scoring='brier_score_loss').round(3).tolist())",
      after: "from sklearn.model_selection import cross_val_score\nfrom sklearn.naive_bayes import GaussianNB\nX = [[0.0], [0.1], [0.2], [0.3], [1.0], [1.1], [1.2], [1.3]]\ny = [0, 0, 0, 0, 1, 1, 1, 1]\nprint(cross_val_score(GaussianNB(), X, y, cv=2, scoring='neg_brier_score').round(3).tolist())",
      expect: '[-0.0, -0.0]', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-fastica-whiten-true', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    callees: [{ qname: 'sklearn.decomposition.FastICA' }, { qname: 'sklearn.decomposition.fastica' }], kwarg: 'whiten', values: { True: "'arbitrary-variance'" },
    errors: [invalidParam('whiten')],
    link: WN('1.1', 'sklearn-decomposition'),
    message: "FastICA(whiten=True) was removed in 1.3: it behaved like whiten='arbitrary-variance' (the new default 'unit-variance' rescales the sources)",
    fixtures: [{
      before: "from sklearn.decomposition import FastICA\nimport numpy as np\nX = np.random.RandomState(0).rand(20, 2)\nprint(FastICA(n_components=2, whiten=True, random_state=0).fit_transform(X).shape)",
      after: "from sklearn.decomposition import FastICA\nimport numpy as np\nX = np.random.RandomState(0).rand(20, 2)\nprint(FastICA(n_components=2, whiten='arbitrary-variance', random_state=0).fit_transform(X).shape)",
      expect: '(20, 2)', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-gaussiannb-sigma', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    receiver: 'estimator', from: 'sigma_', to: 'var_', attribute: true, errors: [noAttr('GaussianNB', 'sigma_')],
    link: WN('1.0', 'sklearn-naive-bayes'),
    message: 'GaussianNB.sigma_ was renamed var_ (deprecated 1.0, removed 1.2)',
    fixtures: [{
      before: 'from sklearn.naive_bayes import GaussianNB\nm = GaussianNB().fit([[0.0], [2.0], [4.0], [6.0]], [0, 0, 1, 1])\nprint(m.sigma_.round(3).tolist())',
      after: 'from sklearn.naive_bayes import GaussianNB\nm = GaussianNB().fit([[0.0], [2.0], [4.0], [6.0]], [0, 0, 1, 1])\nprint(m.var_.round(3).tolist())',
      expect: '[[1.0], [1.0]]', beforeError: 'AttributeError', context: rt('GaussianNB', 'sigma_'),
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-n-features-attribute', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    receiver: 'estimator', from: 'n_features_', to: 'n_features_in_', attribute: true,
    errors: [noAttr('DecisionTree\\w+|ExtraTrees?\\w+|RandomForest\\w+|GradientBoosting\\w+|RandomTreesEmbedding|PCA', 'n_features_')],
    link: WN('1.0', 'sklearn-tree'),
    message: 'n_features_ of trees, forests and gradient boosting (removed 1.2) and of PCA (removed 1.4) is n_features_in_',
    fixtures: [{
      before: 'from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(n_estimators=2, random_state=0).fit([[0, 1, 2], [1, 2, 3]], [0, 1])\nprint(m.n_features_)',
      after: 'from sklearn.ensemble import RandomForestClassifier\nm = RandomForestClassifier(n_estimators=2, random_state=0).fit([[0, 1, 2], [1, 2, 3]], [0, 1])\nprint(m.n_features_in_)',
      expect: '3', beforeError: 'AttributeError', context: rt('RandomForestClassifier', 'n_features_'),
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-base-estimator-attribute', library: 'scikit-learn', removedIn: '1.4', deprecatedIn: '1.2',
    receiver: 'estimator', from: 'base_estimator_', to: 'estimator_', attribute: true,
    errors: [noAttr('Bagging\\w+|AdaBoost\\w+|RandomForest\\w+|ExtraTrees\\w+|RandomTreesEmbedding|IsolationForest', 'base_estimator_')],
    link: WN('1.2', 'sklearn-ensemble'),
    message: 'the fitted attribute base_estimator_ of ensembles was renamed estimator_ (deprecated 1.2, removed 1.4)',
    fixtures: [{
      before: 'from sklearn.ensemble import AdaBoostClassifier\nm = AdaBoostClassifier(n_estimators=2, algorithm="SAMME").fit([[0], [1]], [0, 1])\nprint(type(m.base_estimator_).__name__)',
      after: 'from sklearn.ensemble import AdaBoostClassifier\nm = AdaBoostClassifier(n_estimators=2, algorithm="SAMME").fit([[0], [1]], [0, 1])\nprint(type(m.estimator_).__name__)',
      expect: 'DecisionTreeClassifier', beforeError: 'AttributeError', context: rt('AdaBoostClassifier', 'base_estimator_'),
    }],
  },
  ...([['lambdas_', 'eigenvalues_', '(3,)'], ['alphas_', 'eigenvectors_', '(4, 3)']] as const).map(([from, to, shape]): TableEntry => ({
    kind: 'rename-method', id: `sklearn-kernelpca-${from.replace(/_$/, '')}`, library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    receiver: 'estimator', from, to, attribute: true, errors: [noAttr('KernelPCA', from)],
    link: WN('1.0', 'sklearn-decomposition'),
    message: `KernelPCA.${from} was renamed ${to} (deprecated 1.0, removed 1.2)`,
    fixtures: [{
      before: `from sklearn.decomposition import KernelPCA\nimport numpy as np\nk = KernelPCA(n_components=3).fit(np.random.RandomState(0).rand(4, 3))\nprint(k.${from}.shape)`,
      after: `from sklearn.decomposition import KernelPCA\nimport numpy as np\nk = KernelPCA(n_components=3).fit(np.random.RandomState(0).rand(4, 3))\nprint(k.${to}.shape)`,
      expect: shape, beforeError: 'AttributeError', context: rt('KernelPCA', from),
    }],
  })),
  {
    kind: 'rename-method', id: 'sklearn-polynomial-n-input-features', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    receiver: 'estimator', from: 'n_input_features_', to: 'n_features_in_', attribute: true, errors: [noAttr('PolynomialFeatures', 'n_input_features_')],
    link: WN('1.0', 'sklearn-preprocessing'),
    message: 'PolynomialFeatures.n_input_features_ was renamed n_features_in_ (deprecated 1.0, removed 1.2)',
    fixtures: [{
      before: 'from sklearn.preprocessing import PolynomialFeatures\np = PolynomialFeatures(degree=2).fit([[0, 1], [1, 2]])\nprint(p.n_input_features_, p.n_output_features_)',
      after: 'from sklearn.preprocessing import PolynomialFeatures\np = PolynomialFeatures(degree=2).fit([[0, 1], [1, 2]])\nprint(p.n_features_in_, p.n_output_features_)',
      expect: '2 6', beforeError: 'AttributeError', context: rt('PolynomialFeatures', 'n_input_features_'),
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-qda-covariances-attribute', library: 'scikit-learn', removedIn: '0.21', deprecatedIn: '0.19',
    receiver: 'estimator', from: 'covariances_', to: 'covariance_', attribute: true, errors: [noAttr('QuadraticDiscriminantAnalysis', 'covariances_')],
    link: WN('0.19', 'api-changes-summary'),
    message: 'QuadraticDiscriminantAnalysis.covariances_ was renamed covariance_ (removed 0.21)',
    fixtures: [{
      before: 'from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\nX = [[0, 1], [1, 0], [2, 2], [3, 1], [0, 0], [3, 3]]\nm = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, [0, 0, 0, 1, 1, 1])\nprint(len(m.covariances_))',
      after: 'from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\nX = [[0, 1], [1, 0], [2, 2], [3, 1], [0, 0], [3, 3]]\nm = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, [0, 0, 0, 1, 1, 1])\nprint(len(m.covariance_))',
      expect: '2', beforeError: 'AttributeError', context: rt('QuadraticDiscriminantAnalysis', 'covariances_'),
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-standardscaler-std', library: 'scikit-learn', removedIn: '0.19', deprecatedIn: '0.17',
    receiver: 'estimator', from: 'std_', to: 'scale_', attribute: true, errors: [noAttr('StandardScaler', 'std_')],
    link: WN('0.17', 'api-changes-summary'),
    message: 'StandardScaler.std_ was renamed scale_ in 0.17 and removed in 0.19',
    fixtures: [{
      before: 'from sklearn.preprocessing import StandardScaler\ns = StandardScaler().fit([[0.0], [2.0]])\nprint(s.std_.tolist())',
      after: 'from sklearn.preprocessing import StandardScaler\ns = StandardScaler().fit([[0.0], [2.0]])\nprint(s.scale_.tolist())',
      expect: '[1.0]', beforeError: 'AttributeError', context: rt('StandardScaler', 'std_'),
    }],
  },
  {
    kind: 'rename-method', id: 'sklearn-agglomerative-n-components', library: 'scikit-learn', removedIn: '0.23', deprecatedIn: '0.21',
    receiver: 'estimator', from: 'n_components_', to: 'n_connected_components_', attribute: true,
    errors: [noAttr('AgglomerativeClustering|FeatureAgglomeration', 'n_components_')],
    link: WN('0.21', 'sklearn-cluster'),
    message: 'AgglomerativeClustering/FeatureAgglomeration.n_components_ was renamed n_connected_components_ (deprecated 0.21, removed 0.23)',
    fixtures: [{
      before: 'from sklearn.cluster import AgglomerativeClustering\nm = AgglomerativeClustering(n_clusters=2).fit([[0], [1], [5], [6]])\nprint(m.n_components_)',
      after: 'from sklearn.cluster import AgglomerativeClustering\nm = AgglomerativeClustering(n_clusters=2).fit([[0], [1], [5], [6]])\nprint(m.n_connected_components_)',
      expect: '1', beforeError: 'AttributeError', context: rt('AgglomerativeClustering', 'n_components_'),
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-hist-gradient-boosting-tol-none', library: 'scikit-learn', removedIn: '1.0',
    callees: [{ qname: 'sklearn.ensemble.HistGradientBoostingClassifier' }, { qname: 'sklearn.ensemble.HistGradientBoostingRegressor' }],
    kwarg: 'tol', values: { None: '0.0' }, errors: [invalidParam('tol')],
    link: WN('1.0', 'sklearn-ensemble'),
    message: 'HistGradientBoosting(tol=None) was removed in scikit-learn 1.0: tol=0 behaves the same (early stopping on any non-improvement)',
    fixtures: [{
      before: "from sklearn.ensemble import HistGradientBoostingClassifier\nm = HistGradientBoostingClassifier(tol=None, max_iter=3).fit([[0], [1]] * 5, [0, 1] * 5)\nprint(m.tol, m.n_iter_)",
      after: "from sklearn.ensemble import HistGradientBoostingClassifier\nm = HistGradientBoostingClassifier(tol=0.0, max_iter=3).fit([[0], [1]] * 5, [0, 1] * 5)\nprint(m.tol, m.n_iter_)",
      expect: '0.0 3', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'replace-value', id: 'sklearn-sfs-n-features-none', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    callees: [{ qname: 'sklearn.feature_selection.SequentialFeatureSelector' }],
    kwarg: 'n_features_to_select', values: { None: "'auto'" }, errors: [invalidParam('n_features_to_select')],
    link: WN('1.1', 'sklearn-feature-selection'),
    message: "SequentialFeatureSelector(n_features_to_select=None) was removed in 1.3: 'auto' with the default tol=None selects half of the features, as None did",
    fixtures: [{
      before: 'from sklearn.feature_selection import SequentialFeatureSelector\nfrom sklearn.linear_model import LinearRegression\ns = SequentialFeatureSelector(LinearRegression(), n_features_to_select=None, cv=2).fit([[0, 1], [1, 0], [2, 2], [3, 1]], [0, 1, 2, 3])\nprint(s.n_features_to_select_, s.get_support().tolist())',
      after: "from sklearn.feature_selection import SequentialFeatureSelector\nfrom sklearn.linear_model import LinearRegression\ns = SequentialFeatureSelector(LinearRegression(), n_features_to_select='auto', cv=2).fit([[0, 1], [1, 0], [2, 2], [3, 1]], [0, 1, 2, 3])\nprint(s.n_features_to_select_, s.get_support().tolist())",
      expect: '1 [True, False]', beforeError: 'InvalidParameterError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-manhattan-sum-over-features', library: 'scikit-learn', removedIn: '1.4', deprecatedIn: '1.2',
    callees: [{ qname: 'sklearn.metrics.pairwise.manhattan_distances' }], kwarg: 'sum_over_features', onlyValues: ['True'],
    why: 'True was the default: the distances are summed over the features',
    link: WN('1.2', 'sklearn-metrics'),
    message: 'manhattan_distances(sum_over_features=) was removed in scikit-learn 1.4',
    fixtures: [{
      before: 'from sklearn.metrics.pairwise import manhattan_distances\nprint(manhattan_distances([[0, 0]], [[1, 2]], sum_over_features=True).tolist())',
      after: 'from sklearn.metrics.pairwise import manhattan_distances\nprint(manhattan_distances([[0, 0]], [[1, 2]]).tolist())',
      expect: '[[3.0]]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'sklearn-nmf-regularization', library: 'scikit-learn', removedIn: '1.2', deprecatedIn: '1.0',
    callees: [{ qname: 'sklearn.decomposition.NMF' }, { qname: 'sklearn.decomposition.non_negative_factorization' }],
    kwarg: 'regularization', onlyValues: ["'both'"],
    why: "'both' was the default; alpha_H='same' (the default) regularises both factors with alpha_W",
    link: WN('1.0', 'sklearn-decomposition'),
    message: "NMF(regularization=) was removed in scikit-learn 1.2 (alpha_W/alpha_H say which factor is regularised)",
    fixtures: [{
      before: "from sklearn.decomposition import NMF\nW = NMF(n_components=1, regularization='both', init='random', random_state=0, max_iter=500).fit_transform([[1, 2], [3, 4]])\nprint(W.shape)",
      after: "from sklearn.decomposition import NMF\nW = NMF(n_components=1, init='random', random_state=0, max_iter=500).fit_transform([[1, 2], [3, 4]])\nprint(W.shape)",
      expect: '(2, 1)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'sklearn-metrics-scorers', library: 'scikit-learn', removedIn: '1.3', deprecatedIn: '1.1',
    from: 'sklearn.metrics.SCORERS', to: 'sklearn.metrics._scorer._SCORERS',
    link: WN('1.1', 'sklearn-metrics'),
    message: 'metrics.SCORERS was removed in 1.3: the same dict of scorers is sklearn.metrics._scorer._SCORERS (get_scorer_names() lists the names, get_scorer(name) returns one)',
    fixtures: [{
      before: "from sklearn.metrics import SCORERS\nprint('accuracy' in sorted(SCORERS.keys()), SCORERS['accuracy']._score_func.__name__)",
      after: "from sklearn.metrics._scorer import _SCORERS as SCORERS\nprint('accuracy' in sorted(SCORERS.keys()), SCORERS['accuracy']._score_func.__name__)",
      expect: 'True accuracy_score', beforeError: 'ImportError',
    }, {
      before: "import sklearn.metrics\nprint('roc_auc' in sklearn.metrics.SCORERS.keys())",
      after: "import sklearn.metrics\nprint('roc_auc' in sklearn.metrics._scorer._SCORERS.keys())",
      expect: 'True', beforeError: 'AttributeError',
    }],
  },
];

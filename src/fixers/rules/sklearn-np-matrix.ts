/**
 * scikit-learn 1.0 deprecated np.matrix input and 1.2 rejects it ("np.matrix is not supported. Please
 * convert to a numpy array with np.asarray"). Notebooks of the era made such matrices all the time:
 * `X = tfidf.fit_transform(docs).todense()` handed to a dense-only estimator. Before 1.2 the
 * validation itself converted it with np.asarray (same numbers, a 2-D ndarray), so the faithful
 * repair converts it at the failing call; the variable stays a matrix for the notebook's own code.
 *
 * Recognised from the runtime error only (whether a value is a matrix is data), on the traceback's line.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { replaceNode } from './tree.js';
import { featureMatrixArgs, X_FIRST, X_SECOND } from './sklearn-mixed-feature-names.js';
import { atRuntimeError } from './traceback.js';
import type { SyntaxNode } from '../python/parser.js';

const NP_MATRIX = /np\.matrix is not supported/;

/** Already an array (or a literal that cannot be a matrix). */
const converted = (n: SyntaxNode) => /^(np|numpy)\.(asarray|array)\(|\.(A|toarray\(\))$/.test(n.text) || ['list', 'none', 'integer', 'float', 'string', 'dictionary'].includes(n.type);

export const sklearnNpMatrix: Rule = rule({
  id: 'sklearn-np-matrix-input',
  library: 'scikit-learn',
  title: 'np.matrix input (e.g. a sparse matrix .todense()) to estimators (TypeError since 1.2)',
  old: 'clf.fit(tfidf.fit_transform(docs).todense(), y)',
  new: 'clf.fit(np.asarray(tfidf.fit_transform(docs).todense()), y)',
  removedIn: '1.2',
  deprecatedIn: '1.0',
  trigger: 'error',
  // Cross-validation helpers catch the fits' TypeError and raise ValueError carrying its text.
  errors: [err('TypeError', NP_MATRIX), err('ValueError', new RegExp(`fits failed[\\s\\S]*${NP_MATRIX.source}`))],
  link: 'https://scikit-learn.org/stable/whats_new/v1.0.html#changes-impacting-all-modules',
  message: 'since scikit-learn 1.2 np.matrix input (what .todense() returns) is rejected; before, the input validation converted it with np.asarray: convert it at this call',
  triggers: [...X_FIRST, ...X_SECOND],
  fixtures: [{
    before: "from sklearn.feature_extraction.text import CountVectorizer\nfrom sklearn.naive_bayes import GaussianNB\nX = CountVectorizer().fit_transform(['red fox', 'blue fox', 'red hen', 'blue hen']).todense()\nclf = GaussianNB().fit(X, [0, 1, 0, 1])\nprint(type(X).__name__, clf.class_count_.tolist())",
    after: "import numpy as np\nfrom sklearn.feature_extraction.text import CountVectorizer\nfrom sklearn.naive_bayes import GaussianNB\nX = CountVectorizer().fit_transform(['red fox', 'blue fox', 'red hen', 'blue hen']).todense()\nclf = GaussianNB().fit(np.asarray(X), [0, 1, 0, 1])\nprint(type(X).__name__, clf.class_count_.tolist())",
    expect: 'matrix [2.0, 2.0]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: 'np.matrix is not supported. Please convert to a numpy array with np.asarray. For more information see: https://numpy.org/doc/stable/reference/generated/numpy.matrix.html' } },
  }, {
    before: "import numpy as np\nfrom sklearn.model_selection import cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nX = np.matrix([[0, 1], [1, 1], [0, 0], [1, 0]] * 2)\nprint(cross_val_score(DecisionTreeClassifier(random_state=0), X, [0, 1, 0, 1] * 2, cv=2).tolist())",
    after: "import numpy as np\nfrom sklearn.model_selection import cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nX = np.matrix([[0, 1], [1, 1], [0, 0], [1, 0]] * 2)\nprint(cross_val_score(DecisionTreeClassifier(random_state=0), np.asarray(X), [0, 1, 0, 1] * 2, cv=2).tolist())",
    expect: '[1.0, 1.0]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: '\nAll the 2 fits failed.\nIt is very likely that your model is misconfigured.\n--------\n2 fits failed with the following error:\nTypeError: np.matrix is not supported. Please convert to a numpy array with np.asarray. For more information see: https://numpy.org/doc/stable/reference/generated/numpy.matrix.html' } },
  }],
  *find(ctx) {
    const at = atRuntimeError(ctx, NP_MATRIX);
    if (!at) return;
    // The feature matrix only: a matrix target is rare, and the repair must reach a fixed point.
    for (const { call, x: target } of featureMatrixArgs(ctx)) {
      if (!at.onLine(call) || converted(target)) continue;
      const ref = ctx.moduleRef('numpy', 'np');
      if (!ref) { yield { node: call }; continue; }
      const edits = [replaceNode(target, `${ref.name}.asarray(${target.text})`)];
      if (ref.edit) edits.push(ref.edit);
      yield { node: call, edits };
    }
  },
});

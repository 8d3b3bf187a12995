/**
 * scikit-learn 0.21 changed `return_train_score` of GridSearchCV, RandomizedSearchCV and
 * cross_validate from True (0.19-0.20: 'warn', which still computed them) to False (whats_new v0.21,
 * sklearn.model_selection). A notebook that reads the training scores (`cv_results_['mean_train_score']`,
 * `scores['train_score']`) now gets `KeyError: 'mean_train_score'`. The faithful repair asks for
 * them as the old default did: `return_train_score=True` (the test scores do not change).
 *
 * Static: the keys are written in the source. The searches are often built in one cell and read
 * in another, so any training-score key in the notebook arms the rule for every search in it.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, stringValue } from './tree.js';
import { sklearnCalls } from './sklearn.js';

const SEARCHES = ['GridSearchCV', 'RandomizedSearchCV', 'cross_validate'];
/** cv_results_ keys of training scores (any scorer name), and cross_validate's `train_<scorer>`. */
const TRAIN_KEY = /^((mean|std|rank)_train_\w+|split\d+_train_\w+|train_\w+)$/;

/**
 * Could a string literal in this text have a value TRAIN_KEY accepts? Every such value contains
 * `train_`; a literal's value is its text's pieces unless it has an escape sequence (then the text
 * has a backslash). Checked before reading the notebook's subscript keys (most cells and most keys
 * fail it), which built every key node and read every string key's value.
 */
function mayHoldTrainKey(text: string): boolean {
  return text.includes('train_') || text.includes('\\');
}

export const sklearnTrainScores: Rule = rule({
  id: 'sklearn-return-train-score',
  triggers: SEARCHES,
  library: 'scikit-learn',
  title: 'training scores of searches and cross_validate (return_train_score True -> False in 0.21)',
  old: "GridSearchCV(est, grid).fit(X, y).cv_results_['mean_train_score']",
  new: "GridSearchCV(est, grid, return_train_score=True).fit(X, y).cv_results_['mean_train_score']",
  removedIn: '0.21',
  errors: [err('KeyError', /^'?((mean|std|rank)_train_\w+|split\d+_train_\w+|train_\w+)'?$/)],
  link: 'https://scikit-learn.org/stable/whats_new/v0.21.html#sklearn-model-selection',
  message: 'the searches and cross_validate stopped computing training scores by default in scikit-learn 0.21 (return_train_score=False): the notebook reads them, so ask for them as the old default did',
  fixtures: [{
    before: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3).fit(X, y)\nprint(g.cv_results_['mean_train_score'].round(3).tolist())",
    after: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3, return_train_score=True).fit(X, y)\nprint(g.cv_results_['mean_train_score'].round(3).tolist())",
    expect: '[0.67, 0.97]',
    beforeError: 'KeyError',
  }, {
    before: "from sklearn.model_selection import cross_validate\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nscores = cross_validate(DecisionTreeClassifier(max_depth=1, random_state=0), X, y, cv=3)\nprint(scores['train_score'].round(3).tolist())",
    after: "from sklearn.model_selection import cross_validate\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nscores = cross_validate(DecisionTreeClassifier(max_depth=1, random_state=0), X, y, cv=3, return_train_score=True)\nprint(scores['train_score'].round(3).tolist())",
    expect: '[0.67, 0.67, 0.67]',
    beforeError: 'KeyError',
  }],
  *find(ctx) {
    const readsTrainScores = ctx.nb.memo('reads-train-scores', () =>
      ctx.nb.cells.some((c) => mayHoldTrainKey(c.text) && (c.idx.byType.get('subscript') ?? []).some((s) =>
        s.childrenForFieldName('subscript').some((k) => !!k && mayHoldTrainKey(k.text) && TRAIN_KEY.test(stringValue(k) ?? '')))));
    if (!readsTrainScores) return;
    for (const { call, args } of sklearnCalls(ctx, SEARCHES)) {
      if (args.splat || args.keywords.has('return_train_score')) continue;
      yield { node: call, edits: [addArgument(args, 'return_train_score=True')] };
    }
  },
});

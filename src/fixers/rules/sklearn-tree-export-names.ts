/**
 * scikit-learn 1.2 validates function parameters too (`validate_params`): `export_graphviz` and
 * `plot_tree` now require `class_names` / `feature_names` to be array-like (or bool / None). Before,
 * they were only indexed — `class_names[np.argmax(value)]`, `feature_names[tree_.feature[i]]` — so a
 * string such as `class_names='Survived'` worked and labelled the nodes with its characters. The
 * repair passes `list(<the string>)`, whose items are those same characters: the drawing and the
 * dot source the notebook writes are what its author got.
 *
 * Recognised from the runtime error only (the message names the parameter, the function and the
 * string it got), at that keyword of the calls of that function in the cell the traceback names.
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { isKeywordOf, replaceNode } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

const STRING_NAMES = /The '(class_names|feature_names)' parameter of (export_graphviz|plot_tree) must be an array-like.*\. Got '[^']*' instead/;

export const sklearnTreeExportStringNames: Rule = rule({
  id: 'sklearn-tree-export-string-names',
  library: 'scikit-learn',
  title: "a string as export_graphviz / plot_tree class_names or feature_names (class_names='Survived')",
  old: "export_graphviz(tree, class_names='Survived')",
  new: "export_graphviz(tree, class_names=list('Survived'))",
  removedIn: '1.2',
  trigger: 'error',
  errors: [err('InvalidParameterError', STRING_NAMES)],
  link: 'https://scikit-learn.org/stable/whats_new/v1.2.html#changes-impacting-all-modules',
  message: "since scikit-learn 1.2 class_names / feature_names must be array-like; older releases indexed the string, so each node was labelled with one of its characters, which list(...) of the string gives again",
  fixtures: [{
    before: "import numpy as np\nfrom sklearn.tree import DecisionTreeClassifier, export_graphviz\nX = np.arange(20.0).reshape(10, 2)\ny = np.arange(10) % 2\nt = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)\ndot = export_graphviz(t, out_file=None,\n                      class_names='Survived')\nprint([l.split('class = ')[1][0] for l in dot.split('\\n') if 'class = ' in l])",
    after: "import numpy as np\nfrom sklearn.tree import DecisionTreeClassifier, export_graphviz\nX = np.arange(20.0).reshape(10, 2)\ny = np.arange(10) % 2\nt = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)\ndot = export_graphviz(t, out_file=None,\n                      class_names=list('Survived'))\nprint([l.split('class = ')[1][0] for l in dot.split('\\n') if 'class = ' in l])",
    expect: "['S', 'S', 'u']",
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'class_names' parameter of export_graphviz must be an array-like, an instance of 'bool' or an instance of 'numpy.bool' or None. Got 'Survived' instead.", lines: [6] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, STRING_NAMES);
    if (!at) return;
    const [, param, fn] = at.match;
    if (!isTracedCell(ctx)) return;
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== param || !isKeywordOf(kw, fn)) continue;
      const value = kw.childForFieldName('value')!;
      if (value.type === 'list' || value.type === 'call' && value.childForFieldName('function')?.text === 'list') continue;
      yield { node: kw, edits: [replaceNode(value, `list(${value.text})`)] };
    }
  },
});

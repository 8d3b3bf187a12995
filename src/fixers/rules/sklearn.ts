/** scikit-learn: module moves (0.20-0.24), renamed parameters and values (1.0-1.4), and default pins (0.22, 1.2, 1.4). */
import type { SyntaxNode } from '../python/parser.js';
import { dictFlowsInto, paramEntriesFor } from './param-dicts.js';
import { cellCache, type CellContext, type NotebookContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule, moveModules, moveImportedNames, renameMethodCalls } from './helpers.js';
import { normalizedClasses, normalizeShim, normalizeShimSpec } from './sklearn-normalize-shim.js';
import { shimAfterImport } from './import-shim.js';
import { addArgument, callArgs, isPure, kwValue, removeArgument, renameKeyword, replaceNode, sameNode, stringValue, quoteOf, type Args } from './tree.js';

const WN = (v: string, anchor = '') => `https://scikit-learn.org/stable/whats_new/v${v}.html${anchor}`;
const noModule = (m: string) => err('ModuleNotFoundError', new RegExp(`No module named '${m.replace(/\./g, '\\.')}'`));
const invalidParam = (p: string) => err('InvalidParameterError', new RegExp(`The '${p}' parameter of \\w+ must be`));
const unexpectedKw = (kw: string) => err('TypeError', new RegExp(`got an unexpected keyword argument '${kw}'`));

/** Calls to sklearn classes/functions named `names`, however they were imported (public, private or removed module paths). */
export function* sklearnCalls(ctx: CellContext, names: Iterable<string>): Generator<{ call: SyntaxNode; fn: SyntaxNode; name: string; args: Args }> {
  const list = Array.isArray(names) ? (names as string[]) : [...names];
  const calls = ctx.callsNamed(list);
  // Most cells call none of the names: the set is built only for those that do.
  if (!calls.length) return;
  const set = new Set(list);
  for (const { call, fn } of calls) {
    const q = ctx.qname(fn);
    if (!q || !q.startsWith('sklearn.')) continue;
    const name = q.split('.').pop()!;
    if (!set.has(name)) continue;
    const args = callArgs(call);
    if (args) yield { call, fn, name, args };
  }
}

/** The string literals a parameter value or grid entry spells: a literal, or those of a list/tuple of them. */
export function stringLiterals(node: SyntaxNode | null | undefined): Array<{ node: SyntaxNode; value: string }> {
  if (!node) return [];
  const out: Array<{ node: SyntaxNode; value: string }> = [];
  const visit = (n: SyntaxNode) => {
    const v = stringValue(n);
    if (v !== undefined) out.push({ node: n, value: v });
    else if (n.type === 'list' || n.type === 'tuple') for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(node);
  return out;
}

function stringLiteralIn(node: SyntaxNode | undefined, values: Record<string, string>): Array<{ node: SyntaxNode; to: string }> {
  return stringLiterals(node).filter(({ value }) => value in values).map(({ node: n, value }) => ({ node: n, to: values[value] }));
}

/** Rewrite string values of a parameter in estimator calls and in param-grid dicts (`{'criterion': ['mse']}`). */
function* renameParamValues(ctx: CellContext, classes: string[], param: string, values: Record<string, string>): Generator<RuleMatch> {
  for (const { args } of sklearnCalls(ctx, classes)) {
    for (const { node, to } of stringLiteralIn(kwValue(args.keywords.get(param)), values)) {
      yield { node, edits: [replaceNode(node, `${quoteOf(node)}${to}${quoteOf(node)}`)] };
    }
  }
  for (const entry of paramEntriesFor(ctx, param)) {
    for (const { node, to } of stringLiteralIn(entry.value, values)) {
      yield { node, edits: [replaceNode(node, `${quoteOf(node)}${to}${quoteOf(node)}`)] };
    }
  }
}

/**
 * sklearn.cross_validation, grid_search and learning_curve were one change: 0.18 gathered them into
 * sklearn.model_selection and 0.20 removed them. The repair is the same for each (the import's module
 * is renamed), so one rule shape serves all three; each keeps its own id and fixture.
 */
function modelSelectionMove({ id, module, example, ...fixture }: { id: string; module: string; example: string; before: string; after: string; expect: string }): Rule {
  const from = `sklearn.${module}`;
  return rule({
    id,
    triggers: [module],
    library: 'scikit-learn',
    title: from,
    old: `from ${from} import ${example}`,
    new: `from sklearn.model_selection import ${example}`,
    removedIn: '0.20',
    errors: [noModule(from)],
    link: WN('0.20', '#sklearn-model-selection'),
    message: `${from} was removed in scikit-learn 0.20; use sklearn.model_selection`,
    fixtures: [{ ...fixture, beforeError: 'ModuleNotFoundError' }],
    *find(ctx) {
      yield* moveModules(ctx, { [from]: 'sklearn.model_selection' });
    },
  });
}

const crossValidation = modelSelectionMove({
  id: 'sklearn-cross-validation-module', module: 'cross_validation', example: 'train_test_split',
  before: 'from sklearn.cross_validation import train_test_split, cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\na, b, c, d = train_test_split(X, y, test_size=0.5, random_state=0)\nprint(len(a), len(cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=3)))',
  after: 'from sklearn.model_selection import train_test_split, cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\na, b, c, d = train_test_split(X, y, test_size=0.5, random_state=0)\nprint(len(a), len(cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=3)))',
  expect: '75 3',
});

const gridSearch = modelSelectionMove({
  id: 'sklearn-grid-search-module', module: 'grid_search', example: 'GridSearchCV',
  before: "from sklearn.grid_search import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3).fit(X, y)\nprint(g.best_params_)",
  after: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3).fit(X, y)\nprint(g.best_params_)",
  expect: "{'max_depth': 3}",
});

const learningCurveModule = modelSelectionMove({
  id: 'sklearn-learning-curve-module', module: 'learning_curve', example: 'learning_curve',
  before: 'from sklearn.learning_curve import learning_curve\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nsizes, tr, te = learning_curve(GaussianNB(), X, y, cv=3, train_sizes=[0.5, 1.0])\nprint(list(sizes))',
  after: 'from sklearn.model_selection import learning_curve\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nsizes, tr, te = learning_curve(GaussianNB(), X, y, cv=3, train_sizes=[0.5, 1.0])\nprint(list(sizes))',
  expect: '[np.int64(50), np.int64(100)]',
});

/** A use of a cross-validation iterator that iterates it: `for a in cv`, `enumerate(cv)`, `list(cv)`. */
function iteratedUse(u: SyntaxNode): boolean {
  const up = u.parent;
  if ((up?.type === 'for_statement' || up?.type === 'for_in_clause') && sameNode(up.childForFieldName('right'), u)) return true;
  if (up?.type === 'argument_list' && up.namedChildren.filter((c) => c && c.type !== 'comment').length === 1) {
    const fn = up.parent?.childForFieldName('function');
    if (fn?.type === 'identifier' && ['enumerate', 'list', 'tuple'].includes(fn.text)) return true;
  }
  return false;
}

/** Side-effect free and cheap to evaluate again: names, attributes, len(name), name.shape[0]. */
function isPureish(n: SyntaxNode): boolean {
  if (isPure(n)) return true;
  if (n.type === 'call' && n.childForFieldName('function')?.text === 'len') {
    const a = callArgs(n);
    return !!a && a.all.length === 1 && isPureish(a.all[0]);
  }
  return false;
}

/** Old cross-validation iterators: constructor took the data size (or labels) and were iterable. */
const OLD_CV: Record<string, { countKw: string; data: 'n' | 'y'; positional: string[] }> = {
  KFold: { countKw: 'n_folds', data: 'n', positional: ['n', 'n_folds', 'shuffle', 'random_state'] },
  StratifiedKFold: { countKw: 'n_folds', data: 'y', positional: ['y', 'n_folds', 'shuffle', 'random_state'] },
  ShuffleSplit: { countKw: 'n_iter', data: 'n', positional: ['n', 'n_iter', 'test_size', 'train_size', 'random_state'] },
  StratifiedShuffleSplit: { countKw: 'n_iter', data: 'y', positional: ['y', 'n_iter', 'test_size', 'train_size', 'random_state'] },
};

function oldCvCall(ctx: CellContext, call: SyntaxNode): { name: string; args: Args; data: SyntaxNode; count?: SyntaxNode } | undefined {
  const fn = call.childForFieldName('function');
  const q = ctx.qname(fn);
  if (!q || !q.startsWith('sklearn.')) return undefined;
  const name = q.split('.').pop()!;
  const spec = OLD_CV[name];
  const args = callArgs(call);
  if (!spec || !args || args.splat) return undefined;
  // The pre-0.18 API: imported from cross_validation, n_folds/n_iter, more than one positional argument
  // (the new constructors take n_splits only), or a data size / labels where n_splits would be.
  const first = args.positional[0];
  const sizeLike = !!first && first.type !== 'integer' && first.type !== 'identifier' ? true : !!first && first.type === 'identifier' && spec.data === 'y';
  const old = q.startsWith('sklearn.cross_validation.') || args.keywords.has(spec.countKw) || args.keywords.has('n') || args.keywords.has('y') ||
    args.positional.length >= 2 || (sizeLike && first.type !== 'unary_operator');
  if (!old) return undefined;
  if (args.positional.length > spec.positional.length) return undefined;
  const data = args.positional[0] ?? kwValue(args.keywords.get(spec.data));
  if (!data) return undefined;
  const count = args.positional[1] ?? kwValue(args.keywords.get(spec.countKw));
  return { name, args, data, count };
}

function newCvConstructor(ctx: CellContext, call: SyntaxNode, info: NonNullable<ReturnType<typeof oldCvCall>>): TextEdit {
  const { args, count } = info;
  const parts: string[] = [];
  const spec = OLD_CV[info.name];
  // The old defaults (3 folds, 10 shuffles) differ from the new n_splits default (5 folds since 0.22).
  parts.push(`n_splits=${count ? count.text : spec.countKw === 'n_folds' ? '3' : '10'}`);
  args.positional.slice(2).forEach((a, i) => parts.push(`${spec.positional[i + 2]}=${a.text}`));
  for (const [k, kw] of args.keywords) {
    if (k === spec.countKw || k === spec.data) continue;
    parts.push(kw.text);
  }
  const list = args.list;
  return { start: list.startIndex, end: list.endIndex, text: `(${parts.join(', ')})` };
}

/**
 * Text every OLD_CV name contains (StratifiedKFold holds KFold, StratifiedShuffleSplit ShuffleSplit):
 * a cell without it assigns no old iterator, and its assignments are not read at all.
 */
const OLD_CV_TEXT = /KFold|ShuffleSplit/;

/** Names assigned an old-style iterator (`kf = KFold(...)`) anywhere in the notebook. */
function oldCvNames(nb: NotebookContext): Set<string> {
  return nb.memo('old-cv-names', () => {
    const names = new Set<string>();
    for (const c of nb.cells) {
      if (!OLD_CV_TEXT.test(c.text)) continue;
      for (const a of c.idx.byType.get('assignment') ?? []) {
        const right = a.childForFieldName('right');
        const fnText = right?.type === 'call' ? right.childForFieldName('function')?.text ?? '' : '';
        // An own key: `in` would also take Object.prototype's names (`x = s.toString()`).
        if (Object.hasOwn(OLD_CV, fnText.split('.').pop()!)) names.add(a.childForFieldName('left')?.text ?? '');
      }
    }
    return names;
  });
}

const oldCvIterators = rule({
  id: 'sklearn-old-cv-iterators',
  triggers: Object.keys(OLD_CV),
  // Loops over an old iterator assigned in another cell name it only by its variable.
  gate: { notebookTriggers: oldCvNames },
  library: 'scikit-learn',
  title: 'KFold(n, n_folds=k) style cross-validation iterators',
  old: 'kf = KFold(len(X), n_folds=5); for tr, te in kf: ...',
  new: 'kf = KFold(n_splits=5); for tr, te in kf.split(range(len(X))): ...',
  removedIn: '0.20',
  errors: [unexpectedKw('n_folds|n_iter'), err('TypeError', /'(KFold|StratifiedKFold|ShuffleSplit|StratifiedShuffleSplit)' object is not iterable/)],
  link: WN('0.18', '#model-selection-enhancements-and-api-changes'),
  message: 'the old cross-validation iterators (size or labels in the constructor, iterated directly) were removed in scikit-learn 0.20: construct with n_splits and iterate over .split(X, y)',
  fixtures: [
    {
      before: 'from sklearn.cross_validation import KFold\nimport numpy as np\nX = np.arange(10)\nkf = KFold(len(X), n_folds=5)\nfor tr, te in kf:\n    print(len(tr), end=" ")',
      after: 'from sklearn.model_selection import KFold\nimport numpy as np\nX = np.arange(10)\nkf = KFold(n_splits=5)\nfor tr, te in kf.split(range(len(X))):\n    print(len(tr), end=" ")',
      expect: '8 8 8 8 8',
      beforeError: 'ModuleNotFoundError',
    },
    {
      before: 'from sklearn.cross_validation import *\nfrom sklearn.dummy import DummyClassifier\nimport numpy as np\nX = np.arange(12)\ny = np.array([0, 1] * 6)\nkf = KFold(len(X), n_folds=3)\nfor tr, te in kf:\n    print(len(tr), end=" ")\nprint(len(cross_val_score(DummyClassifier(), X.reshape(-1, 1), y, cv=StratifiedKFold(y, n_folds=2))))',
      after: 'from sklearn.model_selection import *\nfrom sklearn.dummy import DummyClassifier\nimport numpy as np\nX = np.arange(12)\ny = np.array([0, 1] * 6)\nkf = KFold(n_splits=3)\nfor tr, te in kf.split(range(len(X))):\n    print(len(tr), end=" ")\nprint(len(cross_val_score(DummyClassifier(), X.reshape(-1, 1), y, cv=StratifiedKFold(n_splits=2))))',
      expect: '8 8 8 2',
      beforeError: 'ModuleNotFoundError',
    },
    {
      before: 'from sklearn.model_selection import StratifiedKFold, cross_val_score\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nprint(len(cross_val_score(GaussianNB(), X, y, cv=StratifiedKFold(y, n_folds=3))))',
      after: 'from sklearn.model_selection import StratifiedKFold, cross_val_score\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nprint(len(cross_val_score(GaussianNB(), X, y, cv=StratifiedKFold(n_splits=3))))',
      expect: '3',
      beforeError: 'TypeError',
    },
    {
      before: 'from sklearn.cross_validation import ShuffleSplit\nimport numpy as np\nX = np.arange(8)\nprint([len(te) for tr, te in ShuffleSplit(len(X), 3, 0.25, random_state=0)])',
      after: 'from sklearn.model_selection import ShuffleSplit\nimport numpy as np\nX = np.arange(8)\nprint([len(te) for tr, te in ShuffleSplit(n_splits=3, test_size=0.25, random_state=0).split(range(len(X)))])',
      expect: '[2, 2, 2]',
      beforeError: 'ModuleNotFoundError',
    },
    {
      // A name bound twice to old-style iterators: each loop splits by the binding that reaches it.
      before: 'from sklearn.cross_validation import KFold\nkf = KFold(6, n_folds=3)\nprint([len(te) for tr, te in kf])\nkf = KFold(4, n_folds=2)\nprint([len(te) for tr, te in kf])',
      after: 'from sklearn.model_selection import KFold\nkf = KFold(n_splits=3)\nprint([len(te) for tr, te in kf.split(range(6))])\nkf = KFold(n_splits=2)\nprint([len(te) for tr, te in kf.split(range(4))])',
      expect: '[2, 2, 2]\n[2, 2]',
      beforeError: 'ModuleNotFoundError',
    },
    {
      before: 'from sklearn.model_selection import KFold\nkf = KFold(6, n_folds=3)\nprint(len(kf))',
      manual: 'from sklearn.model_selection import KFold\nkf = KFold(n_splits=3)\nprint(kf.get_n_splits())',
      expect: '3',
      beforeError: 'TypeError',
    },
  ],
  *find(ctx) {
    for (const { call } of ctx.callsNamed(Object.keys(OLD_CV))) {
      const info = oldCvCall(ctx, call);
      if (!info) continue;
      const spec = OLD_CV[info.name];
      if ([...info.args.keywords.keys()].some((k) => ![spec.countKw, spec.data, 'shuffle', 'random_state', 'test_size', 'train_size', 'n', 'y'].includes(k))) {
        yield { node: call, message: `${info.name}(${spec.data === 'n' ? 'n' : 'y'}, ${spec.countKw}=...) is the pre-0.18 API removed in 0.20: construct ${info.name}(n_splits=...) and iterate over .split(X, y); the extra arguments here need a manual port` };
        continue;
      }
      const dataExpr = spec.data === 'n' ? `range(${info.data.text})` : `${info.data.text}, ${info.data.text}`;
      const splitCall = `.split(${dataExpr})`;
      const ctor = newCvConstructor(ctx, call, info);
      const p = call.parent;
      // Inline use: cv=KFold(...) or `for tr, te in KFold(...)`.
      if (p?.type === 'keyword_argument' && p.childForFieldName('name')?.text === 'cv') { yield { node: call, edits: [ctor] }; continue; }
      if ((p?.type === 'for_statement' || p?.type === 'for_in_clause') && sameNode(p.childForFieldName('right'), call)) {
        if (!isPureish(info.data)) { yield { node: call }; continue; }
        yield { node: call, edits: [ctor, { start: call.endIndex, end: call.endIndex, text: splitCall }] };
        continue;
      }
      // Assigned to a name: every use must be `cv=name` or `for ... in name`.
      const assign = p?.type === 'assignment' && sameNode(p.childForFieldName('right'), call) ? p : undefined;
      const name = assign?.childForFieldName('left');
      if (!name || name.type !== 'identifier' || !isPureish(info.data)) {
        yield { node: call, message: `${info.name}(..., ${spec.countKw}=...) is the pre-0.18 API removed in 0.20: construct ${info.name}(n_splits=...) and iterate over .split(X, y)` };
        continue;
      }
      const uses = usesOf(ctx, name.text, name);
      const loops: SyntaxNode[] = [];
      let ok = true;
      for (const u of uses) {
        const up = u.node.parent;
        if (up?.type === 'keyword_argument' && up.childForFieldName('name')?.text === 'cv') continue;
        if (iteratedUse(u.node)) {
          if (u.cell === ctx.index) loops.push(u.node);
          continue;
        }
        ok = false;
      }
      if (!ok) {
        yield { node: call, message: `${info.name}(..., ${spec.countKw}=...) is the pre-0.18 API removed in 0.20: construct ${info.name}(n_splits=...) and iterate over ${name.text}.split(X, y); ${name.text} is also used in ways (len(), attributes) that need a manual port` };
        continue;
      }
      yield { node: call, edits: [ctor] };
      // Loops in this cell; loops in other cells are rewritten when those cells are matched (see below).
      for (const l of loops) yield { node: l, edits: [{ start: l.endIndex, end: l.endIndex, text: splitCall }] };
    }
    // Loops over an old-style iterator assigned in another cell.
    for (const right of [...oldCvNames(ctx.nb)].flatMap((n) => ctx.identifiers(n))) {
      if (!iteratedUse(right)) continue;
      const def = oldCvAssignment(ctx, right.text);
      if (!def || def.cell === ctx.index) continue;
      yield { node: right, edits: [{ start: right.endIndex, end: right.endIndex, text: def.split }] };
    }
  },
});

/**
 * The uses of `name` that the binding at `def` reaches, in notebook order: after it and before the
 * next rebinding of the name (a later `kf = KFold(...)` starts a value of its own).
 */
function usesOf(ctx: CellContext, name: string, def: SyntaxNode): Array<{ node: SyntaxNode; cell: number }> {
  const isBinding = (id: SyntaxNode) => id.parent?.type === 'assignment' && sameNode(id.parent.childForFieldName('left'), id);
  const all = [...ctx.nb.identifiers(name)].sort((a, b) => a.cell - b.cell || a.node.startIndex - b.node.startIndex);
  const at = all.findIndex((x) => sameNode(x.node, def));
  const out: Array<{ node: SyntaxNode; cell: number }> = [];
  for (const { node: id, cell } of at >= 0 ? all.slice(at + 1) : all) {
    const p = id.parent;
    if (p?.type === 'attribute' && sameNode(p.childForFieldName('attribute'), id)) continue;
    if (p?.type === 'keyword_argument' && sameNode(p.childForFieldName('name'), id)) continue;
    if (at >= 0 && isBinding(id)) break;
    out.push({ node: id, cell });
  }
  return out;
}

/** `name = KFold(n, n_folds=k)` (old API) somewhere in the notebook, and only used as cv= or in loops. */
function oldCvAssignment(ctx: CellContext, name: string): { cell: number; split: string } | undefined {
  return ctx.nb.memo(`old-cv:${name}`, () => computeOldCvAssignment(ctx, name));
}

function computeOldCvAssignment(ctx: CellContext, name: string): { cell: number; split: string } | undefined {
  for (const cell of ctx.nb.cells) {
    for (const a of cell.idx.byType.get('assignment') ?? []) {
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      if (left?.text !== name || right?.type !== 'call') continue;
      const info = oldCvCall(ctx, right);
      if (!info || !isPureish(info.data)) continue;
      const spec = OLD_CV[info.name];
      if ([...info.args.keywords.keys()].some((k) => ![spec.countKw, spec.data, 'shuffle', 'random_state', 'test_size', 'train_size', 'n', 'y'].includes(k))) continue;
      for (const u of usesOf(ctx, name, left)) {
        const up = u.node.parent;
        const loop = iteratedUse(u.node);
        const cv = up?.type === 'keyword_argument' && up.childForFieldName('name')?.text === 'cv';
        if (!loop && !cv) return undefined;
      }
      return { cell: cell.index, split: `.split(${spec.data === 'n' ? `range(${info.data.text})` : `${info.data.text}, ${info.data.text}`})` };
    }
  }
  return undefined;
}

/** The old grid_scores_ rows rebuilt from cv_results_: (parameters, mean_validation_score, cv_validation_scores). */
function gridScoresExpr(gs: string, np: string): string {
  return `[namedtuple('CVScoreTuple', 'parameters mean_validation_score cv_validation_scores')(p, m, ${np}.array(s)) ` +
    `for p, m, s in zip(${gs}.cv_results_['params'], ${gs}.cv_results_['mean_test_score'], ` +
    `zip(*[${gs}.cv_results_['split%d_test_score' % i] for i in range(${gs}.n_splits_)]))]`;
}

const gridScores = rule({
  id: 'sklearn-grid-scores',
  triggers: ['grid_scores_'],
  library: 'scikit-learn',
  title: 'GridSearchCV.grid_scores_',
  old: 'gs.grid_scores_',
  new: "[(params, mean, fold scores) rebuilt from gs.cv_results_]",
  removedIn: '0.20',
  errors: [err('AttributeError', /object has no attribute 'grid_scores_'/)],
  link: WN('0.20'),
  message: "grid_scores_ was removed in scikit-learn 0.20: the same (parameters, mean_validation_score, cv_validation_scores) rows are rebuilt from cv_results_",
  fixtures: [{
    before: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3).fit(X, y)\nfor params, mean, scores in g.grid_scores_:\n    print(params, round(mean, 3), len(scores))\nprint(max(g.grid_scores_, key=lambda r: r.mean_validation_score).parameters)",
    after: "from collections import namedtuple\nimport numpy as np\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ng = GridSearchCV(DecisionTreeClassifier(random_state=0), {'max_depth': [1, 3]}, cv=3).fit(X, y)\nfor params, mean, scores in " + gridScoresExpr('g', 'np') + ":\n    print(params, round(mean, 3), len(scores))\nprint(max(" + gridScoresExpr('g', 'np') + ", key=lambda r: r.mean_validation_score).parameters)",
    expect: "{'max_depth': 1} 0.66 3\n{'max_depth': 3} 0.96 3\n{'max_depth': 3}",
    beforeError: 'AttributeError',
  }, {
    before: 'import numpy as np\nfrom sklearn.feature_selection import RFECV\nfrom sklearn.linear_model import LogisticRegression\nrng = np.random.RandomState(0)\nX = rng.rand(40, 3)\ny = (X[:, 0] > 0.5).astype(int)\nsel = RFECV(LogisticRegression(), cv=2)\nsel.fit(X, y)\nprint(len(sel.grid_scores_))',
    after: "import numpy as np\nfrom sklearn.feature_selection import RFECV\nfrom sklearn.linear_model import LogisticRegression\nrng = np.random.RandomState(0)\nX = rng.rand(40, 3)\ny = (X[:, 0] > 0.5).astype(int)\nsel = RFECV(LogisticRegression(), cv=2)\nsel.fit(X, y)\nprint(len(sel.cv_results_['mean_test_score']))",
    expect: '3',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const a of ctx.attributesNamed(['grid_scores_'])) {
      // RFECV.grid_scores_ (removed in 1.2) was the mean score per number of features, not the search rows.
      if (assignedFromCall(ctx, a.obj.text, 'RFECV')) { yield { node: a.node, edits: [replaceNode(a.node, `${a.obj.text}.cv_results_['mean_test_score']`)] }; continue; }
      if (!isPure(a.obj)) { yield { node: a.node, message: "grid_scores_ was removed in scikit-learn 0.20: assign the search to a name, then rebuild the rows from its cv_results_ (params, mean_test_score, split<i>_test_score)" }; continue; }
      const np = ctx.moduleRef('numpy', 'np');
      const nt = ctx.nb.isBound('namedtuple') ? (ctx.nb.binding('namedtuple', ctx.index)?.qname === 'collections.namedtuple' ? { name: 'namedtuple' } : undefined) : { name: 'namedtuple', edit: ctx.importEdit('from collections import namedtuple') };
      if (!np || !nt) { yield { node: a.node }; continue; }
      const edits: TextEdit[] = [replaceNode(a.node, gridScoresExpr(a.obj.text, np.name))];
      if (nt.edit) edits.push(nt.edit);
      if (np.edit) edits.push(np.edit);
      yield { node: a.node, edits };
    }
  },
});

/** Is `name` assigned somewhere in the notebook from `Cls(...)` (or `Cls(...).fit(...)`)? */
function assignedFromCall(ctx: CellContext, name: string, cls: string): boolean {
  const re = new RegExp(`^(?:[\\w.]+\\.)?${cls}\\s*\\(`);
  return ctx.nb.cells.some((c) => (c.idx.byType.get('assignment') ?? []).some((a) => a.childForFieldName('left')?.text === name && re.test(a.childForFieldName('right')?.text ?? '')));
}

const imputer = rule({
  id: 'sklearn-imputer',
  triggers: ['Imputer', 'SimpleImputer'],
  library: 'scikit-learn',
  title: 'preprocessing.Imputer',
  old: "Imputer(missing_values='NaN', strategy='mean', axis=0)",
  new: "SimpleImputer(missing_values=np.nan, strategy='mean')",
  removedIn: '0.22',
  errors: [err('ImportError', /cannot import name 'Imputer'/), err('AttributeError', /has no attribute 'Imputer'/), err('NameError', /name 'Imputer' is not defined/), unexpectedKw('axis')],
  link: WN('0.22', '#sklearn-preprocessing'),
  message: "preprocessing.Imputer was removed in scikit-learn 0.22; use sklearn.impute.SimpleImputer (no axis=, missing_values=np.nan)",
  fixtures: [{
    before: "import numpy as np\nfrom sklearn.preprocessing import Imputer, StandardScaler\nimp = Imputer(missing_values='NaN', strategy='mean', axis=0)\nprint(imp.fit_transform([[1.0], [np.nan], [3.0]]).ravel())",
    after: "import numpy as np\nfrom sklearn.preprocessing import StandardScaler\nfrom sklearn.impute import SimpleImputer as Imputer\nimp = Imputer(missing_values=np.nan, strategy='mean')\nprint(imp.fit_transform([[1.0], [np.nan], [3.0]]).ravel())",
    expect: '[1. 2. 3.]',
    beforeError: 'ImportError',
  }, {
    before: "import numpy as np\nfrom sklearn.preprocessing import *\nimp = Imputer(missing_values='NaN', strategy='median', axis=0)\nprint(imp.fit_transform([[1.0], [np.nan], [3.0], [4.0]]).ravel(), StandardScaler().fit_transform([[0.0], [2.0]]).ravel())",
    after: "from sklearn.impute import SimpleImputer\nimport numpy as np\nfrom sklearn.preprocessing import *\nimp = SimpleImputer(missing_values=np.nan, strategy='median')\nprint(imp.fit_transform([[1.0], [np.nan], [3.0], [4.0]]).ravel(), StandardScaler().fit_transform([[0.0], [2.0]]).ravel())",
    expect: '[1. 3. 3. 4.] [-1.  1.]',
    beforeError: 'NameError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'sklearn.preprocessing', { Imputer: { module: 'sklearn.impute', name: 'SimpleImputer' } });
    for (const { node } of ctx.attributesTo(['sklearn.preprocessing.Imputer'])) {
      yield { node, edits: [replaceNode(node, 'SimpleImputer'), ctx.importEdit('from sklearn.impute import SimpleImputer')] };
    }
    for (const { call, fn } of ctx.callsNamed(['Imputer', 'SimpleImputer'])) {
      const q = ctx.qname(fn);
      if (q !== 'sklearn.preprocessing.Imputer' && q !== 'sklearn.impute.SimpleImputer') continue;
      const args = callArgs(call)!;
      const edits: TextEdit[] = [];
      // `from sklearn.preprocessing import *` brought Imputer in: name the new class and import it.
      if (fn.type === 'identifier' && fn.text === 'Imputer' && !ctx.nb.binding('Imputer', ctx.index)) {
        edits.push(replaceNode(fn, 'SimpleImputer'), ctx.importEdit('from sklearn.impute import SimpleImputer'));
      }
      const axis = args.keywords.get('axis');
      if (axis) {
        if (kwValue(axis)?.text !== '0') { yield { node: call, message: 'Imputer(axis=1) imputed along rows; SimpleImputer only imputes columns: transpose the data (imp.fit_transform(X.T).T) instead' }; continue; }
        edits.push(removeArgument(args, axis, ctx.source));
      }
      const mv = kwValue(args.keywords.get('missing_values')) ?? args.positional[0];
      if (mv && stringValue(mv)?.toLowerCase() === 'nan') {
        const ref = ctx.moduleRef('numpy', 'np');
        if (!ref) { yield { node: call }; continue; }
        edits.push(replaceNode(mv, `${ref.name}.nan`));
        if (ref.edit) edits.push(ref.edit);
      }
      if (args.positional.length > 1) { yield { node: call }; continue; }
      if (edits.length) yield { node: call, edits };
    }
  },
});

function externalsRule(id: string, lib: string, removedIn: string, fixture: { before: string; after: string; expect: string }): Rule {
  return rule({
    id,
    triggers: ['externals'],
    library: 'scikit-learn',
    title: `sklearn.externals.${lib}`,
    old: `from sklearn.externals import ${lib}`,
    new: `import ${lib}`,
    removedIn,
    errors: [err('ImportError', new RegExp(`cannot import name '${lib}' from 'sklearn\\.externals'`)), noModule(`sklearn.externals.${lib}`)],
    link: WN(removedIn),
    message: `sklearn.externals.${lib} was removed in scikit-learn ${removedIn}; import ${lib} directly (it is installed)`,
    fixtures: [{ ...fixture, beforeError: 'ImportError' }],
    *find(ctx) {
      for (const stmt of ctx.nodes('import_from_statement')) {
        const mod = stmt.childForFieldName('module_name')?.text.replace(/\s/g, '');
        if (mod === `sklearn.externals.${lib}`) { yield { node: stmt, edits: [replaceNode(stmt.childForFieldName('module_name')!, lib)] }; continue; }
        if (mod !== 'sklearn.externals') continue;
        const items = stmt.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
        const mine = items.filter((it) => (it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text) === lib);
        if (!mine.length) continue;
        const it = mine[0];
        const alias = it.type === 'aliased_import' ? it.childForFieldName('alias')!.text : lib;
        const line = alias === lib ? `import ${lib}` : `import ${lib} as ${alias}`;
        if (items.length === 1) yield { node: stmt, edits: [replaceNode(stmt, line)] };
        else yield { node: stmt };
      }
      yield* moveModules(ctx, { [`sklearn.externals.${lib}`]: lib });
    },
  });
}

const externalsJoblib = externalsRule('sklearn-externals-joblib', 'joblib', '0.23', {
  before: "from sklearn.externals import joblib\nimport os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'm.pkl')\njoblib.dump({'a': 1}, p)\nprint(joblib.load(p))",
  after: "import joblib\nimport os, tempfile\np = os.path.join(tempfile.mkdtemp(), 'm.pkl')\njoblib.dump({'a': 1}, p)\nprint(joblib.load(p))",
  expect: "{'a': 1}",
});

const externalsSix = externalsRule('sklearn-externals-six', 'six', '0.23', {
  before: 'from sklearn.externals import six\nprint(six.PY3)',
  after: 'import six\nprint(six.PY3)',
  expect: 'True',
});

/** The modules made private in 0.22, each importable from its public package (the module's parent). */
const PRIVATE_MODULES: Record<string, string> = Object.fromEntries([
  'sklearn.ensemble.forest', 'sklearn.ensemble.gradient_boosting', 'sklearn.ensemble.bagging',
  'sklearn.ensemble.weight_boosting', 'sklearn.ensemble.voting', 'sklearn.ensemble.iforest',
  'sklearn.ensemble.voting_classifier', 'sklearn.tree.tree', 'sklearn.tree.export', 'sklearn.metrics.scorer',
  'sklearn.metrics.classification', 'sklearn.metrics.regression', 'sklearn.metrics.ranking',
  'sklearn.linear_model.base', 'sklearn.linear_model.logistic', 'sklearn.linear_model.ridge',
  'sklearn.linear_model.coordinate_descent', 'sklearn.linear_model.stochastic_gradient', 'sklearn.svm.classes',
  'sklearn.neighbors.classification', 'sklearn.neighbors.regression', 'sklearn.neighbors.unsupervised',
  'sklearn.preprocessing.data', 'sklearn.preprocessing.label', 'sklearn.decomposition.pca',
  'sklearn.decomposition.truncated_svd', 'sklearn.cluster.k_means_',
  'sklearn.feature_selection.univariate_selection', 'sklearn.feature_selection.rfe', 'sklearn.manifold.t_sne',
  // More of the 0.22 list of modules made private (whats_new v0.22, "Deprecations").
  'sklearn.datasets.base', 'sklearn.datasets.samples_generator', 'sklearn.neighbors.kde',
  'sklearn.neural_network.multilayer_perceptron', 'sklearn.svm.base', 'sklearn.linear_model.least_angle',
  'sklearn.linear_model.bayes', 'sklearn.linear_model.huber', 'sklearn.linear_model.perceptron',
  'sklearn.decomposition.nmf', 'sklearn.decomposition.online_lda', 'sklearn.decomposition.kernel_pca',
  'sklearn.mixture.gaussian_mixture', 'sklearn.cluster.hierarchical', 'sklearn.cluster.dbscan_',
  'sklearn.manifold.isomap', 'sklearn.feature_selection.variance_threshold',
].map((m) => [m, m.slice(0, m.lastIndexOf('.'))]));

const privateModules = rule({
  id: 'sklearn-private-modules',
  triggers: ['sklearn'],
  library: 'scikit-learn',
  title: 'imports from private modules (ensemble.forest, tree.tree, metrics.scorer...)',
  old: 'from sklearn.ensemble.forest import RandomForestClassifier',
  new: 'from sklearn.ensemble import RandomForestClassifier',
  removedIn: '0.24',
  errors: [err('ModuleNotFoundError', new RegExp(`No module named '(${Object.keys(PRIVATE_MODULES).map((m) => m.replace(/\./g, '\\.')).join('|')})'`))],
  link: WN('0.22', '#deprecations'),
  message: 'these modules became private in scikit-learn 0.22 and were removed in 0.24; import from the public package',
  fixtures: [{
    before: 'from sklearn.ensemble.forest import RandomForestClassifier\nfrom sklearn.metrics.scorer import make_scorer\nprint(RandomForestClassifier.__name__, callable(make_scorer))',
    after: 'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.metrics import make_scorer\nprint(RandomForestClassifier.__name__, callable(make_scorer))',
    expect: 'RandomForestClassifier True',
    beforeError: 'ModuleNotFoundError',
  }, {
    before: 'from sklearn.datasets.samples_generator import make_blobs\nX, y = make_blobs(n_samples=6, random_state=0)\nprint(X.shape)',
    after: 'from sklearn.datasets import make_blobs\nX, y = make_blobs(n_samples=6, random_state=0)\nprint(X.shape)',
    expect: '(6, 2)',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, PRIVATE_MODULES);
  },
});

const jaccard = rule({
  id: 'sklearn-jaccard-similarity-score',
  triggers: ['jaccard_similarity_score'],
  library: 'scikit-learn',
  title: 'metrics.jaccard_similarity_score',
  old: 'from sklearn.metrics import jaccard_similarity_score',
  new: 'from sklearn.metrics import accuracy_score as jaccard_similarity_score',
  removedIn: '0.23',
  deprecatedIn: '0.21',
  errors: [err('ImportError', /cannot import name 'jaccard_similarity_score'/), err('AttributeError', /has no attribute 'jaccard_similarity_score'/)],
  link: WN('0.23', '#sklearn-metrics'),
  // For 1-D labels (binary or multiclass, the notebooks of the era) it computed the share of equal
  // labels, accuracy_score exactly (same normalize= and sample_weight=). For multilabel indicator
  // input it was jaccard_score(average='samples'): the numbers then differ, which the stored outputs show.
  message: "jaccard_similarity_score was removed in scikit-learn 0.23: for 1-D labels it equalled accuracy_score, which takes its place; for multilabel input it was jaccard_score(average='samples') (a printed score then disagrees); jaccard_score's default average='binary' gives different numbers",
  fixtures: [{
    before: 'from sklearn.metrics import jaccard_similarity_score, f1_score\nprint(jaccard_similarity_score([0, 1, 1, 0], [0, 1, 0, 0]), jaccard_similarity_score([0, 2, 1], [0, 2, 2], normalize=False))',
    after: 'from sklearn.metrics import f1_score\nfrom sklearn.metrics import accuracy_score as jaccard_similarity_score\nprint(jaccard_similarity_score([0, 1, 1, 0], [0, 1, 0, 0]), jaccard_similarity_score([0, 2, 1], [0, 2, 2], normalize=False))',
    expect: '0.75 2.0',
    beforeError: 'ImportError',
  }, {
    before: 'from sklearn import metrics\nprint(metrics.jaccard_similarity_score([1, 1, 0], [1, 0, 0]))',
    after: 'from sklearn import metrics\nprint(metrics.accuracy_score([1, 1, 0], [1, 0, 0]))',
    expect: '0.6666666666666666',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'sklearn.metrics', { jaccard_similarity_score: { module: 'sklearn.metrics', name: 'accuracy_score' } });
    for (const id of ctx.identifiers('jaccard_similarity_score')) {
      if (id.parent?.type === 'attribute' && ctx.qname(id.parent) === 'sklearn.metrics.jaccard_similarity_score') yield { node: id, edits: [replaceNode(id, 'accuracy_score')] };
    }
  },
});

const oneHotCategorical = rule({
  id: 'sklearn-onehot-categorical-features',
  triggers: ['categorical_features', 'n_values'],
  library: 'scikit-learn',
  title: 'OneHotEncoder(categorical_features=, n_values=)',
  old: 'OneHotEncoder(categorical_features=[0]).fit_transform(X)',
  new: "ColumnTransformer([('oh', OneHotEncoder(), [0])], remainder='passthrough')",
  removedIn: '0.22',
  errors: [unexpectedKw('categorical_features|n_values')],
  link: WN('0.22', '#sklearn-preprocessing'),
  message: "OneHotEncoder's categorical_features/n_values were removed in scikit-learn 0.22: the columns are selected with ColumnTransformer([('onehot', OneHotEncoder(), cols)], remainder='passthrough', sparse_threshold=1.0) (encoded columns first, then the others, sparse as before); n_values needs categories= by hand",
  fixtures: [{
    before: 'from sklearn.preprocessing import OneHotEncoder\nX = [[0], [1], [2]]\nprint(OneHotEncoder(n_values=4).fit_transform(X).shape)',
    manual: "from sklearn.preprocessing import OneHotEncoder\nX = [[0], [1], [2]]\nprint(OneHotEncoder(categories=[list(range(4))]).fit_transform(X).shape)",
    expect: '(3, 4)',
    beforeError: 'TypeError',
  }, {
    // The old encoder put the encoded columns first and the others after them, and returned a sparse
    // matrix (unless sparse=False): ColumnTransformer with remainder='passthrough' and sparse_threshold=1.0.
    before: "from sklearn.preprocessing import OneHotEncoder\nX = [[0, 10.0], [1, 20.0], [2, 30.0], [1, 0.0]]\nenc = OneHotEncoder(categorical_features=[0])\nprint(enc.fit_transform(X).toarray().tolist())\nprint(OneHotEncoder(categorical_features=[0], sparse=False).fit_transform(X)[0].tolist())",
    after: "from sklearn.compose import ColumnTransformer\nfrom sklearn.preprocessing import OneHotEncoder\nX = [[0, 10.0], [1, 20.0], [2, 30.0], [1, 0.0]]\nenc = ColumnTransformer([('onehot', OneHotEncoder(), [0])], remainder='passthrough', sparse_threshold=1.0)\nprint(enc.fit_transform(X).toarray().tolist())\nprint(ColumnTransformer([('onehot', OneHotEncoder(sparse_output=False), [0])], remainder='passthrough', sparse_threshold=1.0).fit_transform(X)[0].tolist())",
    expect: '[[1.0, 0.0, 0.0, 10.0], [0.0, 1.0, 0.0, 20.0], [0.0, 0.0, 1.0, 30.0], [0.0, 1.0, 0.0, 0.0]]\n[1.0, 0.0, 0.0, 10.0]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, args } of sklearnCalls(ctx, ['OneHotEncoder'])) {
      const cf = args.keywords.get('categorical_features');
      if (!cf && !args.keywords.has('n_values')) continue;
      const cols = kwValue(cf);
      if (!cf || !cols || args.keywords.has('n_values') || args.splat || args.positional.length) { yield { node: call }; continue; }
      const edits = [removeArgument(args, cf, ctx.source)];
      if (stringValue(cols) !== 'all') {
        edits.push(
          { start: call.startIndex, end: call.startIndex, text: "ColumnTransformer([('onehot', " },
          { start: call.endIndex, end: call.endIndex, text: `, ${cols.text})], remainder='passthrough', sparse_threshold=1.0)` },
          ctx.importEdit('from sklearn.compose import ColumnTransformer'),
        );
      }
      yield { node: call, edits };
    }
  },
});

const oneHotSparse = rule({
  id: 'sklearn-onehot-sparse',
  triggers: ['sparse'],
  library: 'scikit-learn',
  title: 'OneHotEncoder(sparse=)',
  old: 'OneHotEncoder(sparse=False)',
  new: 'OneHotEncoder(sparse_output=False)',
  removedIn: '1.4',
  errors: [unexpectedKw('sparse')],
  link: WN('1.2', '#sklearn-preprocessing'),
  message: 'OneHotEncoder(sparse=) was renamed sparse_output in scikit-learn 1.2 and removed in 1.4',
  fixtures: [{
    before: "from sklearn.preprocessing import OneHotEncoder\nprint(OneHotEncoder(sparse=False).fit_transform([['a'], ['b']]).tolist())",
    after: "from sklearn.preprocessing import OneHotEncoder\nprint(OneHotEncoder(sparse_output=False).fit_transform([['a'], ['b']]).tolist())",
    expect: '[[1.0, 0.0], [0.0, 1.0]]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { args } of sklearnCalls(ctx, ['OneHotEncoder'])) {
      const kw = args.keywords.get('sparse');
      if (kw && !args.keywords.has('sparse_output')) yield { node: kw, edits: [renameKeyword(kw, 'sparse_output')] };
    }
  },
});

const getFeatureNames = rule({
  id: 'sklearn-get-feature-names',
  triggers: ['get_feature_names'],
  library: 'scikit-learn',
  title: 'get_feature_names()',
  old: 'vec.get_feature_names()',
  new: 'vec.get_feature_names_out()',
  removedIn: '1.2',
  errors: [err('AttributeError', /object has no attribute 'get_feature_names'/)],
  link: WN('1.0', '#id2'),
  message: 'get_feature_names was removed in scikit-learn 1.2; use get_feature_names_out (returns an array)',
  fixtures: [{
    before: "from sklearn.feature_extraction.text import CountVectorizer\nv = CountVectorizer().fit(['red fox', 'blue fox'])\nprint(list(v.get_feature_names()))",
    after: "from sklearn.feature_extraction.text import CountVectorizer\nv = CountVectorizer().fit(['red fox', 'blue fox'])\nprint(list(v.get_feature_names_out()))",
    expect: "['blue', 'fox', 'red']",
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { get_feature_names: 'get_feature_names_out' }, ({ args }) => !!args && args.all.length <= 1);
  },
});

const loadBoston = rule({
  id: 'sklearn-load-boston',
  triggers: ['load_boston'],
  library: 'scikit-learn',
  title: 'datasets.load_boston',
  old: 'load_boston()',
  new: 'a local copy of the data (fetch_openml needs network access)',
  removedIn: '1.2',
  autoFixable: false,
  errors: [err('ImportError', /load_boston/)],
  link: WN('1.2', '#sklearn-datasets'),
  message: 'load_boston was removed in scikit-learn 1.2 and the data is no longer shipped; the sandbox has no network (fetch_openml(name="boston", version=1) needs it): supply the data as a file, or switch datasets (fetch_california_housing also downloads)',
  fixtures: [{
    before: 'from sklearn.datasets import load_boston\nprint(load_boston().data.shape)',
    manual: 'from sklearn.datasets import load_diabetes\nprint(load_diabetes().data.shape)',
    expect: '(442, 10)',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const id of ctx.identifiers('load_boston')) {
      const inImport = id.parent?.type === 'dotted_name' && id.parent.parent?.type === 'import_from_statement';
      const q = ctx.qname(id.parent?.type === 'attribute' ? id.parent : id);
      if (inImport || q === 'sklearn.datasets.load_boston') yield { node: id };
    }
  },
});

const PLOT_FNS: Record<string, string> = {
  plot_confusion_matrix: 'ConfusionMatrixDisplay', plot_roc_curve: 'RocCurveDisplay',
  plot_precision_recall_curve: 'PrecisionRecallDisplay', plot_det_curve: 'DetCurveDisplay',
};

const plotFunctions = rule({
  id: 'sklearn-plot-functions',
  triggers: Object.keys(PLOT_FNS),
  library: 'scikit-learn',
  title: 'metrics.plot_confusion_matrix / plot_roc_curve / plot_precision_recall_curve',
  old: 'plot_confusion_matrix(clf, X, y)',
  new: 'ConfusionMatrixDisplay.from_estimator(clf, X, y)',
  removedIn: '1.2',
  errors: [err('ImportError', /cannot import name '(plot_confusion_matrix|plot_roc_curve|plot_precision_recall_curve|plot_det_curve)'/), err('AttributeError', /has no attribute '(plot_confusion_matrix|plot_roc_curve|plot_precision_recall_curve|plot_det_curve)'/)],
  link: WN('1.2', '#sklearn-metrics'),
  message: 'the plot_* metric functions were removed in scikit-learn 1.2; use the Display classes\' from_estimator',
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nfrom sklearn.metrics import plot_confusion_matrix\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nd = plot_confusion_matrix(GaussianNB().fit(X, y), X, y)\nprint(d.confusion_matrix.trace())",
    after: "import matplotlib\nmatplotlib.use('Agg')\nfrom sklearn.metrics import ConfusionMatrixDisplay\nfrom sklearn.naive_bayes import GaussianNB\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\nd = ConfusionMatrixDisplay.from_estimator(GaussianNB().fit(X, y), X, y)\nprint(d.confusion_matrix.trace())",
    expect: '144',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const stmt of ctx.nodes('import_from_statement')) {
      if (stmt.childForFieldName('module_name')?.text !== 'sklearn.metrics') continue;
      for (const it of stmt.childrenForFieldName('name')) {
        if (it?.type === 'dotted_name' && it.text in PLOT_FNS) yield { node: it, edits: [replaceNode(it, PLOT_FNS[it.text])] };
      }
    }
    for (const { call, fn } of ctx.callsNamed(Object.keys(PLOT_FNS))) {
      const q = ctx.qname(fn);
      if (!q || !q.startsWith('sklearn.metrics.')) continue;
      const name = q.slice('sklearn.metrics.'.length);
      if (!(name in PLOT_FNS)) continue;
      if (fn.type === 'identifier') yield { node: call, edits: [replaceNode(fn, `${PLOT_FNS[name]}.from_estimator`)] };
      else yield { node: call, edits: [replaceNode(fn.childForFieldName('attribute')!, `${PLOT_FNS[name]}.from_estimator`)] };
    }
  },
});

const LINEAR_NORMALIZE = ['LinearRegression', 'Ridge', 'RidgeCV', 'RidgeClassifier', 'RidgeClassifierCV', 'Lasso', 'LassoCV', 'ElasticNet', 'ElasticNetCV', 'Lars', 'LarsCV', 'LassoLars', 'LassoLarsCV', 'LassoLarsIC', 'OrthogonalMatchingPursuit', 'BayesianRidge', 'ARDRegression', 'MultiTaskLasso', 'MultiTaskElasticNet'];

const NORMALIZE_RIDGE = [
  'from sklearn.linear_model import Ridge',
  'from sklearn.base import clone',
  'm = Ridge(alpha=1.0, normalize=True).fit([[0], [1], [2]], [1, 3, 5])',
  'print(m, round(m.coef_[0], 3), round(m.intercept_, 3), round(m.predict([[3]])[0], 3), clone(m))',
].join('\n');

const normalizeParam = rule({
  id: 'sklearn-normalize-parameter',
  triggers: ['normalize', 'sklearn'],
  library: 'scikit-learn',
  title: 'normalize= in linear models',
  old: 'Lasso(alpha=0.1, normalize=True)',
  new: '# the call stays; a shim before the first sklearn import gives Lasso its normalize= back',
  removedIn: '1.2',
  errors: [unexpectedKw('normalize')],
  link: WN('1.2', '#sklearn-linear-model'),
  message: "normalize= was removed from linear models in scikit-learn 1.2: normalize=False is the default and is dropped, as is normalize=True in LinearRegression (least squares is scale-equivariant: same coef_ and predictions) or with fit_intercept=False (where it was ignored); in penalised models the call stays as written and a shim before the first scikit-learn import gives the class its parameter back, scaling X as the old fit did (centre, divide each column by its L2 norm, scale coef_ back)",
  fixtures: [
    {
      before: 'from sklearn.linear_model import LinearRegression\nm = LinearRegression(normalize=False).fit([[0], [1], [2]], [1, 3, 5])\nprint(round(m.coef_[0], 3))',
      after: 'from sklearn.linear_model import LinearRegression\nm = LinearRegression().fit([[0], [1], [2]], [1, 3, 5])\nprint(round(m.coef_[0], 3))',
      expect: '2.0',
      beforeError: 'TypeError',
    },
    {
      before: 'from sklearn.linear_model import LinearRegression\nm = LinearRegression(normalize=True).fit([[0, 10], [1, 30], [2, 20], [3, 50]], [1, 3, 5, 8])\nprint(m.predict([[4, 40]]).round(6).tolist(), m.coef_.round(6).tolist(), round(m.intercept_, 6))',
      after: 'from sklearn.linear_model import LinearRegression\nm = LinearRegression().fit([[0, 10], [1, 30], [2, 20], [3, 50]], [1, 3, 5, 8])\nprint(m.predict([[4, 40]]).round(6).tolist(), m.coef_.round(6).tolist(), round(m.intercept_, 6))',
      expect: '[9.666667] [2.055556, 0.022222] 0.555556',
      beforeError: 'TypeError',
    },
    {
      before: 'from sklearn.linear_model import Ridge\nm = Ridge(alpha=1.0, normalize=True, fit_intercept=False).fit([[0], [1], [2]], [1, 3, 5])\nprint(round(m.coef_[0], 3))',
      after: 'from sklearn.linear_model import Ridge\nm = Ridge(alpha=1.0, fit_intercept=False).fit([[0], [1], [2]], [1, 3, 5])\nprint(round(m.coef_[0], 3))',
      expect: '2.167',
      beforeError: 'TypeError',
    },
    {
      // By hand: x centred [-1, 0, 1], its L2 norm sqrt(2); on the scaled column the ridge slope is
      // 2*sqrt(2) / (1 + alpha) = sqrt(2), so coef_ 1.0 and intercept_ 3 - 1 = 2.0 (2*sqrt(2)/3 = 0.943 and 1.33 unscaled).
      before: NORMALIZE_RIDGE,
      after: `${normalizeShim(['Ridge'])}\n${NORMALIZE_RIDGE}`,
      expect: 'Ridge(normalize=True) 1.0 2.0 5.0 Ridge(normalize=True)',
      beforeError: 'TypeError',
    },
  ],
  *find(ctx) {
    for (const { name, args, kw, noIntercept } of normalizeCalls(ctx)) {
      if (!kw) continue;
      // normalize=False is the default. Ordinary least squares is scale-equivariant: the old fit centred and
      // scaled X, solved, and rescaled coef_ back, so predictions, coef_ and intercept_ are those of the plain fit.
      // Any model ignored normalize when fit_intercept=False.
      if (kwValue(kw)?.type === 'false' || name === 'LinearRegression' || noIntercept) yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] };
    }
    // Penalised models keep the call as written: a shim before the first sklearn import gives the class its parameter back.
    const classes = normalizedClasses(ctx, (c) => [...normalizeCalls(c)].filter((x) => x.name !== 'LinearRegression').map((x) => ({ name: x.name, kw: kwValue(x.kw) ?? undefined, noIntercept: x.noIntercept })));
    if (classes.length) {
      const m = shimAfterImport(ctx, normalizeShimSpec(classes));
      if (m) yield { ...m, message: `normalize= was removed in scikit-learn 1.2; ${classes.join(', ')} get${classes.length > 1 ? '' : 's'} it back from a shim that scales X as the old fit did (centre, divide by each column's L2 norm, coef_ scaled back)` };
    }
  },
});

function* normalizeCalls(ctx: CellContext): Generator<{ name: string; args: Args; kw: SyntaxNode | undefined; noIntercept: boolean }> {
  for (const { name, args } of sklearnCalls(ctx, LINEAR_NORMALIZE)) {
    yield { name, args, kw: args.keywords.get('normalize'), noIntercept: kwValue(args.keywords.get('fit_intercept'))?.type === 'false' };
  }
}

const REGRESSORS_WITH_CRITERION = ['DecisionTreeRegressor', 'RandomForestRegressor', 'ExtraTreesRegressor', 'ExtraTreeRegressor', 'GradientBoostingRegressor', 'GradientBoostingClassifier'];

const CRITERION_RENAMES = { mse: 'squared_error', mae: 'absolute_error' };

const criterionNames = rule({
  id: 'sklearn-criterion-mse-mae',
  gate: { literals: Object.keys(CRITERION_RENAMES) },
  library: 'scikit-learn',
  title: "criterion='mse' / 'mae'",
  old: "RandomForestRegressor(criterion='mse')",
  new: "RandomForestRegressor(criterion='squared_error')",
  removedIn: '1.2',
  errors: [invalidParam('criterion')],
  link: WN('1.0', '#sklearn-tree'),
  message: "criterion 'mse'/'mae' were renamed 'squared_error'/'absolute_error' in scikit-learn 1.0 and removed in 1.2",
  fixtures: [{
    before: "from sklearn.tree import DecisionTreeRegressor\nm = DecisionTreeRegressor(criterion='mse', random_state=0).fit([[0], [1], [2]], [0.0, 1.0, 4.0])\nprint(m.predict([[2]])[0])",
    after: "from sklearn.tree import DecisionTreeRegressor\nm = DecisionTreeRegressor(criterion='squared_error', random_state=0).fit([[0], [1], [2]], [0.0, 1.0, 4.0])\nprint(m.predict([[2]])[0])",
    expect: '4.0',
    beforeError: 'InvalidParameterError',
  }],
  *find(ctx) {
    // Gradient boosting's 'mae' (deprecated 0.24, removed 1.1) has no successor: its criterion takes
    // only 'friedman_mse' and 'squared_error', so 'absolute_error' would fail too.
    const gb = ['GradientBoostingRegressor', 'GradientBoostingClassifier'];
    yield* renameParamValues(ctx, REGRESSORS_WITH_CRITERION.filter((n) => !gb.includes(n)), 'criterion', CRITERION_RENAMES);
    yield* renameParamValues(ctx, gb, 'criterion', { mse: 'squared_error' });
    for (const { args } of sklearnCalls(ctx, gb)) {
      for (const { node } of stringLiteralIn(kwValue(args.keywords.get('criterion')), { mae: 'mae' })) {
        yield { node, message: "gradient boosting's criterion='mae' was removed in scikit-learn 1.1 without a successor (only 'friedman_mse' and 'squared_error' remain); loss='absolute_error' is a different setting" };
      }
    }
  },
});

/** Per estimator: old loss name -> new one. */
const LOSS_RENAMES: Array<[string, Record<string, string>]> = [
  ['GradientBoostingRegressor', { ls: 'squared_error', lad: 'absolute_error' }],
  ['GradientBoostingClassifier', { deviance: 'log_loss' }],
  ['SGDClassifier', { log: 'log_loss', squared_loss: 'squared_error' }],
  ['SGDRegressor', { squared_loss: 'squared_error' }],
  ['LinearSVC', { l1: 'hinge', l2: 'squared_hinge' }],
  ['HistGradientBoostingRegressor', { least_squares: 'squared_error', least_absolute_deviation: 'absolute_error' }],
  ['HistGradientBoostingClassifier', { binary_crossentropy: 'log_loss', categorical_crossentropy: 'log_loss', auto: 'log_loss' }],
];

const lossNames = rule({
  id: 'sklearn-loss-names',
  gate: { literals: LOSS_RENAMES.flatMap(([, values]) => Object.keys(values)) },
  library: 'scikit-learn',
  title: "renamed loss values ('ls', 'lad', 'deviance', 'log', 'squared_loss'...)",
  old: "GradientBoostingRegressor(loss='ls'); SGDClassifier(loss='log')",
  new: "GradientBoostingRegressor(loss='squared_error'); SGDClassifier(loss='log_loss')",
  removedIn: '1.3',
  errors: [invalidParam('loss')],
  link: WN('1.1', '#sklearn-ensemble'),
  message: 'these loss names were renamed in scikit-learn 1.0/1.1 and removed in 1.2/1.3',
  fixtures: [{
    before: "from sklearn.ensemble import GradientBoostingRegressor, GradientBoostingClassifier\nr = GradientBoostingRegressor(loss='ls', n_estimators=5, random_state=0).fit([[0], [1]], [0.0, 1.0])\nc = GradientBoostingClassifier(loss='deviance', n_estimators=5).fit([[0], [1]], [0, 1])\nprint(r.loss, c.loss)",
    after: "from sklearn.ensemble import GradientBoostingRegressor, GradientBoostingClassifier\nr = GradientBoostingRegressor(loss='squared_error', n_estimators=5, random_state=0).fit([[0], [1]], [0.0, 1.0])\nc = GradientBoostingClassifier(loss='log_loss', n_estimators=5).fit([[0], [1]], [0, 1])\nprint(r.loss, c.loss)",
    expect: 'squared_error log_loss',
    beforeError: 'InvalidParameterError',
  }],
  *find(ctx) {
    for (const [estimator, values] of LOSS_RENAMES) yield* renameParamValues(ctx, [estimator], 'loss', values);
  },
});

const MAX_FEATURES_CLASSIFIERS = ['RandomForestClassifier', 'ExtraTreesClassifier', 'DecisionTreeClassifier', 'ExtraTreeClassifier', 'GradientBoostingClassifier'];
const MAX_FEATURES_REGRESSORS = ['RandomForestRegressor', 'ExtraTreesRegressor', 'DecisionTreeRegressor', 'ExtraTreeRegressor', 'GradientBoostingRegressor'];
const MAX_FEATURES_NAMES = [...MAX_FEATURES_CLASSIFIERS, ...MAX_FEATURES_REGRESSORS];

const maxFeaturesAuto = rule({
  id: 'sklearn-max-features-auto',
  gate: { literals: ['auto'] },
  library: 'scikit-learn',
  title: "max_features='auto'",
  old: "RandomForestClassifier(max_features='auto')",
  new: "RandomForestClassifier(max_features='sqrt') / RandomForestRegressor(max_features=1.0)",
  removedIn: '1.3',
  errors: [invalidParam('max_features')],
  // The rejected grid is often bound in an earlier cell than the search that fails on it (dictFlowsInto).
  errorScope: 'notebook',
  link: WN('1.1', '#sklearn-ensemble'),
  message: "max_features='auto' was removed in scikit-learn 1.3: it meant 'sqrt' for classifiers and all features (1.0) for regressors",
  fixtures: [{
    before: "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\nc = RandomForestClassifier(n_estimators=3, max_features='auto', random_state=0).fit([[0, 1], [1, 0]], [0, 1])\nr = RandomForestRegressor(n_estimators=3, max_features='auto').fit([[0, 1], [1, 0]], [0.0, 1.0])\nprint(c.max_features, r.max_features)",
    after: "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\nc = RandomForestClassifier(n_estimators=3, max_features='sqrt', random_state=0).fit([[0, 1], [1, 0]], [0, 1])\nr = RandomForestRegressor(n_estimators=3, max_features=1.0).fit([[0, 1], [1, 0]], [0.0, 1.0])\nprint(c.max_features, r.max_features)",
    expect: 'sqrt 1.0',
    beforeError: 'InvalidParameterError',
  }, {
    // A parameter dict the notebook passes on (**params): only classifiers among the tree estimators it names.
    before: "from sklearn.ensemble import RandomForestClassifier, ExtraTreesClassifier\nrf_params = {'n_estimators': 3, 'max_features': 'auto', 'random_state': 0}\nmodels = [clf(**rf_params).fit([[0, 1, 2, 3]] * 2, [0, 1]) for clf in (RandomForestClassifier, ExtraTreesClassifier)]\nprint([m.max_features for m in models])",
    after: "from sklearn.ensemble import RandomForestClassifier, ExtraTreesClassifier\nrf_params = {'n_estimators': 3, 'max_features': 'sqrt', 'random_state': 0}\nmodels = [clf(**rf_params).fit([[0, 1, 2, 3]] * 2, [0, 1]) for clf in (RandomForestClassifier, ExtraTreesClassifier)]\nprint([m.max_features for m in models])",
    expect: "['sqrt', 'sqrt']",
    beforeError: 'InvalidParameterError',
  }, {
    // Both kinds named: the error says which estimator got the failing cell's dict.
    before: "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\nparams = {'n_estimators': 3, 'max_features': 'auto'}\nm = RandomForestClassifier(**params).fit([[0, 1, 2, 3]] * 2, [0, 1])\nprint(m.max_features, RandomForestRegressor().max_features)",
    after: "from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\nparams = {'n_estimators': 3, 'max_features': 'sqrt'}\nm = RandomForestClassifier(**params).fit([[0, 1, 2, 3]] * 2, [0, 1])\nprint(m.max_features, RandomForestRegressor().max_features)",
    expect: 'sqrt 1.0',
    beforeError: 'InvalidParameterError',
    context: { runtime: { ename: 'InvalidParameterError', evalue: "The 'max_features' parameter of RandomForestClassifier must be an int in the range [1, inf), a float in the range (0.0, 1.0], a str among {'sqrt', 'log2'} or None. Got 'auto' instead." } },
    }, {
    // A grid whose values sit in a variable: no error at all, the search scores 'auto' NaN and picks another.
    before: "from sklearn.datasets import make_regression\nfrom sklearn.ensemble import RandomForestRegressor\nfrom sklearn.model_selection import GridSearchCV\nX, y = make_regression(n_samples=120, n_features=8, n_informative=1, noise=0.1, random_state=0)\nmax_features = ['auto', 'sqrt']\ngrid = {'max_features': max_features}\nsearch = GridSearchCV(RandomForestRegressor(n_estimators=5, random_state=0), grid, cv=3).fit(X, y)\nprint(search.best_params_)",
    after: "from sklearn.datasets import make_regression\nfrom sklearn.ensemble import RandomForestRegressor\nfrom sklearn.model_selection import GridSearchCV\nX, y = make_regression(n_samples=120, n_features=8, n_informative=1, noise=0.1, random_state=0)\nmax_features = [1.0, 'sqrt']\ngrid = {'max_features': max_features}\nsearch = GridSearchCV(RandomForestRegressor(n_estimators=5, random_state=0), grid, cv=3).fit(X, y)\nprint(search.best_params_)",
    expect: "{'max_features': 1.0}",
    beforeOutcome: 'differs',
  }, {
    // The dict() spelling of a grid.
    before: "from sklearn.datasets import make_classification\nfrom sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV\nX, y = make_classification(n_samples=90, n_features=9, random_state=0)\nfeatures = ['auto', 'log2']\nsearch = GridSearchCV(RandomForestClassifier(n_estimators=5, random_state=0), dict(max_features=features), cv=3).fit(X, y)\nprint(search.cv_results_['param_max_features'].tolist(), search.cv_results_['mean_test_score'].round(3).tolist())",
    after: "from sklearn.datasets import make_classification\nfrom sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import GridSearchCV\nX, y = make_classification(n_samples=90, n_features=9, random_state=0)\nfeatures = ['sqrt', 'log2']\nsearch = GridSearchCV(RandomForestClassifier(n_estimators=5, random_state=0), dict(max_features=features), cv=3).fit(X, y)\nprint(search.cv_results_['param_max_features'].tolist(), search.cv_results_['mean_test_score'].round(3).tolist())",
    expect: "['sqrt', 'log2'] [0.956, 0.956]",
    beforeOutcome: 'differs',
  }],
  *find(ctx) {
    for (const { args, name } of sklearnCalls(ctx, MAX_FEATURES_NAMES)) {
      const v = kwValue(args.keywords.get('max_features'));
      if (!v || stringValue(v) !== 'auto') continue;
      yield { node: v, edits: [replaceNode(v, MAX_FEATURES_CLASSIFIERS.includes(name) ? `${quoteOf(v)}sqrt${quoteOf(v)}` : '1.0')] };
    }
    // Parameter dicts (grids, `clf(**params)`): the meaning of 'auto' follows the estimator's kind, known
    // when the notebook names tree estimators of one kind only.
    const kind = ctx.nb.memo('max-features-kind', () => {
      const kinds = new Set<string>();
      for (const c of ctx.nb.cells) {
        if (!MAX_FEATURES_NAMES.some((n) => cellCache(c).mayHaveIdentifier(n))) continue;
        for (const id of c.idx.byType.get('identifier') ?? []) {
          if (MAX_FEATURES_CLASSIFIERS.includes(id.text)) kinds.add('classifier');
          else if (MAX_FEATURES_REGRESSORS.includes(id.text)) kinds.add('regressor');
        }
      }
      return kinds.size === 1 ? [...kinds][0] : undefined;
    });
    // Else the estimator the run's error names, for the dicts of the cell that failed.
    const rt = ctx.nb.info.runtime;
    const named = rt ? /The 'max_features' parameter of (\w+) must be/.exec(rt.evalue)?.[1] : undefined;
    const namedKind = named && MAX_FEATURES_CLASSIFIERS.includes(named) ? 'classifier' : named && MAX_FEATURES_REGRESSORS.includes(named) ? 'regressor' : undefined;
    for (const entry of paramEntriesFor(ctx, 'max_features')) {
      // The failing cell's own dicts, or a dict bound by name here and used there (a grid the search got).
      const cellKind = kind ?? (namedKind && rt && dictFlowsInto(ctx, entry, rt.failingCell) ? namedKind : undefined);
      for (const { node } of stringLiteralIn(entry.value, { auto: 'auto' })) {
        if (cellKind) yield { node, edits: [replaceNode(node, cellKind === 'classifier' ? `${quoteOf(node)}sqrt${quoteOf(node)}` : '1.0')] };
        else yield { node, message: "max_features='auto' in a parameter grid was removed in scikit-learn 1.3: use 'sqrt' for classifiers, 1.0 for regressors" };
      }
    }
  },
});

const baseEstimator = rule({
  id: 'sklearn-base-estimator',
  triggers: ['base_estimator'],
  library: 'scikit-learn',
  title: 'base_estimator=',
  old: 'BaggingClassifier(base_estimator=tree)',
  new: 'BaggingClassifier(estimator=tree)',
  removedIn: '1.4',
  errors: [unexpectedKw('base_estimator')],
  link: WN('1.2', '#sklearn-ensemble'),
  message: 'base_estimator was renamed estimator in scikit-learn 1.2 and removed in 1.4',
  fixtures: [{
    before: 'from sklearn.ensemble import AdaBoostClassifier\nfrom sklearn.tree import DecisionTreeClassifier\nm = AdaBoostClassifier(base_estimator=DecisionTreeClassifier(max_depth=1), n_estimators=5, algorithm="SAMME")\nprint(type(m.fit([[0], [1]], [0, 1]).estimator_).__name__)',
    after: 'from sklearn.ensemble import AdaBoostClassifier\nfrom sklearn.tree import DecisionTreeClassifier\nm = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=5, algorithm="SAMME")\nprint(type(m.fit([[0], [1]], [0, 1]).estimator_).__name__)',
    expect: 'DecisionTreeClassifier',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { args } of sklearnCalls(ctx, ['BaggingClassifier', 'BaggingRegressor', 'AdaBoostClassifier', 'AdaBoostRegressor', 'CalibratedClassifierCV', 'RANSACRegressor'])) {
      const kw = args.keywords.get('base_estimator');
      if (kw && !args.keywords.has('estimator')) yield { node: kw, edits: [renameKeyword(kw, 'estimator')] };
    }
  },
});

/** Parameter order of estimators before scikit-learn made them keyword-only (0.23 deprecation, 1.0 error), as of 0.20-0.22. */
const OLD_ORDER: Record<string, { names: string[]; keep: number }> = {
  SVC: { names: ['C', 'kernel', 'degree', 'gamma', 'coef0', 'shrinking', 'probability', 'tol', 'cache_size', 'class_weight', 'verbose', 'max_iter', 'decision_function_shape', 'random_state'], keep: 0 },
  SVR: { names: ['kernel', 'degree', 'gamma', 'coef0', 'tol', 'C', 'epsilon', 'shrinking', 'cache_size', 'verbose', 'max_iter'], keep: 0 },
  NuSVC: { names: ['nu', 'kernel', 'degree', 'gamma', 'coef0', 'shrinking', 'probability', 'tol'], keep: 0 },
  NuSVR: { names: ['nu', 'C', 'kernel', 'degree', 'gamma', 'coef0', 'shrinking', 'tol'], keep: 0 },
  LinearSVC: { names: ['penalty', 'loss', 'dual', 'tol', 'C', 'multi_class', 'fit_intercept', 'intercept_scaling', 'class_weight', 'verbose', 'random_state', 'max_iter'], keep: 2 },
  LinearSVR: { names: ['epsilon', 'tol', 'C', 'loss', 'fit_intercept', 'intercept_scaling', 'dual', 'verbose', 'random_state', 'max_iter'], keep: 0 },
  RandomForestClassifier: { names: ['n_estimators', 'criterion', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 1 },
  RandomForestRegressor: { names: ['n_estimators', 'criterion', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 1 },
  ExtraTreesClassifier: { names: ['n_estimators', 'criterion', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 1 },
  ExtraTreesRegressor: { names: ['n_estimators', 'criterion', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 1 },
  GradientBoostingClassifier: { names: ['loss', 'learning_rate', 'n_estimators', 'subsample', 'criterion', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_depth'], keep: 0 },
  GradientBoostingRegressor: { names: ['loss', 'learning_rate', 'n_estimators', 'subsample', 'criterion', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_depth'], keep: 0 },
  DecisionTreeClassifier: { names: ['criterion', 'splitter', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'random_state', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 0 },
  DecisionTreeRegressor: { names: ['criterion', 'splitter', 'max_depth', 'min_samples_split', 'min_samples_leaf', 'min_weight_fraction_leaf', 'max_features', 'random_state', 'max_leaf_nodes', 'min_impurity_decrease'], keep: 0 },
  AdaBoostClassifier: { names: ['estimator', 'n_estimators', 'learning_rate', 'algorithm', 'random_state'], keep: 1 },
  AdaBoostRegressor: { names: ['estimator', 'n_estimators', 'learning_rate', 'loss', 'random_state'], keep: 1 },
  BaggingClassifier: { names: ['estimator', 'n_estimators', 'max_samples', 'max_features', 'bootstrap', 'bootstrap_features', 'oob_score', 'warm_start', 'n_jobs', 'random_state', 'verbose'], keep: 2 },
  BaggingRegressor: { names: ['estimator', 'n_estimators', 'max_samples', 'max_features', 'bootstrap', 'bootstrap_features', 'oob_score', 'warm_start', 'n_jobs', 'random_state', 'verbose'], keep: 2 },
  LogisticRegression: { names: ['penalty', 'dual', 'tol', 'C', 'fit_intercept', 'intercept_scaling', 'class_weight', 'random_state', 'solver', 'max_iter', 'multi_class', 'verbose', 'warm_start', 'n_jobs'], keep: 1 },
  LinearRegression: { names: ['fit_intercept'], keep: 0 },
  Ridge: { names: ['alpha', 'fit_intercept'], keep: 1 },
  Lasso: { names: ['alpha', 'fit_intercept'], keep: 1 },
  ElasticNet: { names: ['alpha', 'l1_ratio', 'fit_intercept'], keep: 1 },
  SGDClassifier: { names: ['loss', 'penalty', 'alpha', 'l1_ratio', 'fit_intercept', 'max_iter', 'tol', 'shuffle'], keep: 1 },
  SGDRegressor: { names: ['loss', 'penalty', 'alpha', 'l1_ratio', 'fit_intercept', 'max_iter', 'tol', 'shuffle'], keep: 1 },
  Perceptron: { names: ['penalty', 'alpha', 'fit_intercept', 'max_iter', 'tol', 'shuffle'], keep: 0 },
  KNeighborsClassifier: { names: ['n_neighbors', 'weights', 'algorithm', 'leaf_size', 'p', 'metric', 'metric_params', 'n_jobs'], keep: 1 },
  KNeighborsRegressor: { names: ['n_neighbors', 'weights', 'algorithm', 'leaf_size', 'p', 'metric', 'metric_params', 'n_jobs'], keep: 1 },
  PCA: { names: ['n_components', 'copy', 'whiten', 'svd_solver', 'tol', 'iterated_power', 'random_state'], keep: 1 },
  TruncatedSVD: { names: ['n_components', 'algorithm', 'n_iter'], keep: 1 },
  KMeans: { names: ['n_clusters', 'init', 'n_init', 'max_iter', 'tol'], keep: 1 },
  MiniBatchKMeans: { names: ['n_clusters', 'init', 'max_iter', 'batch_size', 'verbose', 'compute_labels', 'random_state', 'tol'], keep: 1 },
  DBSCAN: { names: ['eps', 'min_samples', 'metric', 'metric_params', 'algorithm', 'leaf_size', 'p', 'n_jobs'], keep: 1 },
  GaussianNB: { names: ['priors'], keep: 0 },
  MultinomialNB: { names: ['alpha', 'fit_prior', 'class_prior'], keep: 0 },
  BernoulliNB: { names: ['alpha', 'binarize', 'fit_prior', 'class_prior'], keep: 0 },
  MLPClassifier: { names: ['hidden_layer_sizes', 'activation', 'solver', 'alpha', 'batch_size', 'learning_rate', 'learning_rate_init', 'power_t', 'max_iter'], keep: 2 },
  MLPRegressor: { names: ['hidden_layer_sizes', 'activation', 'solver', 'alpha', 'batch_size', 'learning_rate', 'learning_rate_init', 'power_t', 'max_iter'], keep: 2 },
  StandardScaler: { names: ['copy', 'with_mean', 'with_std'], keep: 0 },
  MinMaxScaler: { names: ['feature_range', 'copy'], keep: 1 },
  PolynomialFeatures: { names: ['degree', 'interaction_only', 'include_bias'], keep: 1 },
  TSNE: { names: ['n_components', 'perplexity', 'early_exaggeration', 'learning_rate'], keep: 1 },
  CountVectorizer: { names: ['input', 'encoding', 'decode_error', 'strip_accents', 'lowercase', 'preprocessor', 'tokenizer'], keep: 0 },
  TfidfVectorizer: { names: ['input', 'encoding', 'decode_error', 'strip_accents', 'lowercase', 'preprocessor', 'tokenizer'], keep: 0 },
  SelectKBest: { names: ['score_func', 'k'], keep: 1 },
  RFE: { names: ['estimator', 'n_features_to_select', 'step', 'verbose'], keep: 1 },
  RFECV: { names: ['estimator', 'step', 'cv', 'scoring', 'verbose', 'n_jobs'], keep: 1 },
  GridSearchCV: { names: ['estimator', 'param_grid', 'scoring'], keep: 2 },
  RandomizedSearchCV: { names: ['estimator', 'param_distributions', 'n_iter', 'scoring'], keep: 2 },
  QuadraticDiscriminantAnalysis: { names: ['priors', 'reg_param', 'store_covariance', 'tol'], keep: 0 },
  // Functions (0.19 signatures; keyword-only since 1.0). validation_curve stops at param_range: the old
  // sklearn.learning_curve version had no groups= after it.
  validation_curve: { names: ['estimator', 'X', 'y', 'param_name', 'param_range'], keep: 3 },
  confusion_matrix: { names: ['y_true', 'y_pred', 'labels', 'sample_weight'], keep: 2 },
  classification_report: { names: ['y_true', 'y_pred', 'labels', 'target_names', 'sample_weight', 'digits'], keep: 2 },
  accuracy_score: { names: ['y_true', 'y_pred', 'normalize', 'sample_weight'], keep: 2 },
  f1_score: { names: ['y_true', 'y_pred', 'labels', 'pos_label', 'average', 'sample_weight'], keep: 2 },
  precision_score: { names: ['y_true', 'y_pred', 'labels', 'pos_label', 'average', 'sample_weight'], keep: 2 },
  recall_score: { names: ['y_true', 'y_pred', 'labels', 'pos_label', 'average', 'sample_weight'], keep: 2 },
  fbeta_score: { names: ['y_true', 'y_pred', 'beta', 'labels', 'pos_label', 'average', 'sample_weight'], keep: 2 },
  roc_auc_score: { names: ['y_true', 'y_score', 'average', 'sample_weight'], keep: 2 },
  roc_curve: { names: ['y_true', 'y_score', 'pos_label', 'sample_weight', 'drop_intermediate'], keep: 2 },
  precision_recall_curve: { names: ['y_true', 'probas_pred', 'pos_label', 'sample_weight'], keep: 2 },
  mean_squared_error: { names: ['y_true', 'y_pred', 'sample_weight', 'multioutput'], keep: 2 },
  mean_absolute_error: { names: ['y_true', 'y_pred', 'sample_weight', 'multioutput'], keep: 2 },
  log_loss: { names: ['y_true', 'y_pred', 'eps', 'normalize', 'sample_weight', 'labels'], keep: 2 },
  make_scorer: { names: ['score_func', 'greater_is_better', 'needs_proba', 'needs_threshold'], keep: 1 },
  // Keyword-only after 1.1's deprecation (removed 1.3); added in 0.24 with this order.
  mean_absolute_percentage_error: { names: ['y_true', 'y_pred', 'sample_weight', 'multioutput'], keep: 2 },
};

/** The estimators and functions above, looked up on every cell that names one (built once). */
const OLD_ORDER_NAMES = Object.keys(OLD_ORDER);

const positionalParams = rule({
  id: 'sklearn-positional-parameters',
  triggers: OLD_ORDER_NAMES,
  library: 'scikit-learn',
  title: 'positional estimator parameters',
  old: "SVC(1.0, 'rbf')",
  new: "SVC(C=1.0, kernel='rbf')",
  removedIn: '1.0',
  errors: [err('TypeError', /__init__\(\) takes (from \d+ to \d+|\d+) positional arguments? but \d+ were given|^too many positional arguments$/)],
  link: WN('0.23', '#enforcing-keyword-only-arguments'),
  message: 'estimator parameters (and the optional arguments of metrics and validation_curve) are keyword-only since scikit-learn 1.0; name them',
  fixtures: [{
    before: "from sklearn.svm import SVC\nfrom sklearn.ensemble import RandomForestClassifier\nm = SVC(10.0, 'linear')\nr = RandomForestClassifier(5, 'entropy')\nprint(m.C, m.kernel, r.n_estimators, r.criterion)",
    after: "from sklearn.svm import SVC\nfrom sklearn.ensemble import RandomForestClassifier\nm = SVC(C=10.0, kernel='linear')\nr = RandomForestClassifier(5, criterion='entropy')\nprint(m.C, m.kernel, r.n_estimators, r.criterion)",
    expect: '10.0 linear 5 entropy',
    beforeError: 'TypeError',
  }, {
    before: "from sklearn import metrics\nfrom sklearn.metrics import confusion_matrix, classification_report\ny, p = [0, 1, 1, 0], [0, 1, 0, 0]\nprint(confusion_matrix(y, p, [1, 0]).tolist(), metrics.f1_score(y, p, None, 1, 'binary'))\nprint(classification_report(y, p, [0, 1], ['no', 'yes']).split()[:3])",
    after: "from sklearn import metrics\nfrom sklearn.metrics import confusion_matrix, classification_report\ny, p = [0, 1, 1, 0], [0, 1, 0, 0]\nprint(confusion_matrix(y, p, labels=[1, 0]).tolist(), metrics.f1_score(y, p, labels=None, pos_label=1, average='binary'))\nprint(classification_report(y, p, labels=[0, 1], target_names=['no', 'yes']).split()[:3])",
    expect: "[[1, 1], [0, 2]] 0.6666666666666666\n['precision', 'recall', 'f1-score']",
    beforeError: 'TypeError',
  }, {
    before: "from sklearn.model_selection import validation_curve\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ntr, te = validation_curve(DecisionTreeClassifier(random_state=0), X, y, 'max_depth', [1, 2], cv=3)\nprint(te.shape)",
    after: "from sklearn.model_selection import validation_curve\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.datasets import load_iris\nX, y = load_iris(return_X_y=True)\ntr, te = validation_curve(DecisionTreeClassifier(random_state=0), X, y, param_name='max_depth', param_range=[1, 2], cv=3)\nprint(te.shape)",
    expect: '(2, 3)',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, name, args } of sklearnCalls(ctx, OLD_ORDER_NAMES)) {
      const spec = OLD_ORDER[name];
      if (args.listSplat || args.positional.length <= spec.keep) continue;
      if (args.positional.length > spec.names.length) { yield { node: call }; continue; }
      const edits: TextEdit[] = [];
      for (let i = spec.keep; i < args.positional.length; i++) {
        const n = spec.names[i] === 'estimator' ? (args.keywords.has('estimator') ? undefined : 'estimator') : spec.names[i];
        if (!n || args.keywords.has(n)) { edits.length = 0; break; }
        edits.push({ start: args.positional[i].startIndex, end: args.positional[i].startIndex, text: `${n}=` });
      }
      if (edits.length) yield { node: call, edits };
      else yield { node: call };
    }
  },
});

const nIter = rule({
  id: 'sklearn-n-iter',
  triggers: ['n_iter', 'n_topics'],
  library: 'scikit-learn',
  title: 'SGD/Perceptron n_iter=',
  old: 'SGDClassifier(n_iter=5)',
  new: 'SGDClassifier(max_iter=5, tol=None)',
  removedIn: '0.21',
  errors: [unexpectedKw('n_iter')],
  link: WN('0.19', '#sklearn-linear-model'),
  message: 'n_iter was removed in scikit-learn 0.21: max_iter=N with tol=None runs exactly N epochs, as n_iter did',
  fixtures: [{
    before: 'from sklearn.linear_model import SGDClassifier\nm = SGDClassifier(n_iter=7, random_state=0).fit([[0], [1]], [0, 1])\nprint(m.n_iter_)',
    after: 'from sklearn.linear_model import SGDClassifier\nm = SGDClassifier(max_iter=7, tol=None, random_state=0).fit([[0], [1]], [0, 1])\nprint(m.n_iter_)',
    expect: '7',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { args } of sklearnCalls(ctx, ['SGDClassifier', 'SGDRegressor', 'Perceptron', 'PassiveAggressiveClassifier', 'PassiveAggressiveRegressor'])) {
      const kw = args.keywords.get('n_iter');
      if (!kw || args.keywords.has('max_iter')) continue;
      const edits = [renameKeyword(kw, 'max_iter')];
      if (!args.keywords.has('tol')) edits.push({ start: kw.endIndex, end: kw.endIndex, text: ', tol=None' });
      yield { node: kw, edits };
    }
    for (const { args } of sklearnCalls(ctx, ['LatentDirichletAllocation'])) {
      const kw = args.keywords.get('n_topics');
      if (kw && !args.keywords.has('n_components')) yield { node: kw, edits: [renameKeyword(kw, 'n_components')], message: 'LatentDirichletAllocation(n_topics=) was renamed n_components' };
    }
  },
});

const randomizedPca = rule({
  id: 'sklearn-randomized-pca',
  triggers: ['RandomizedPCA'],
  library: 'scikit-learn',
  title: 'RandomizedPCA',
  old: 'RandomizedPCA(n_components=2)',
  new: "PCA(n_components=2, svd_solver='randomized')",
  removedIn: '0.20',
  errors: [err('ImportError', /cannot import name 'RandomizedPCA'/), err('AttributeError', /has no attribute 'RandomizedPCA'/)],
  link: WN('0.18', '#sklearn-decomposition'),
  message: "RandomizedPCA was removed in scikit-learn 0.20; use PCA(svd_solver='randomized')",
  fixtures: [{
    before: 'import numpy as np\nfrom sklearn.decomposition import RandomizedPCA\np = RandomizedPCA(n_components=1, random_state=0).fit(np.eye(3))\nprint(p.components_.shape)',
    after: "import numpy as np\nfrom sklearn.decomposition import PCA\np = PCA(n_components=1, random_state=0, svd_solver='randomized').fit(np.eye(3))\nprint(p.components_.shape)",
    expect: '(1, 3)',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const stmt of ctx.nodes('import_from_statement')) {
      if (stmt.childForFieldName('module_name')?.text !== 'sklearn.decomposition') continue;
      for (const it of stmt.childrenForFieldName('name')) if (it?.type === 'dotted_name' && it.text === 'RandomizedPCA') yield { node: it, edits: [replaceNode(it, 'PCA')] };
    }
    for (const { call, fn } of ctx.callsNamed(['RandomizedPCA'])) {
      if (ctx.qname(fn) !== 'sklearn.decomposition.RandomizedPCA') continue;
      const args = callArgs(call)!;
      const edits = [replaceNode(fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn, 'PCA')];
      if (!args.keywords.has('svd_solver')) edits.push(addArgument(args, "svd_solver='randomized'"));
      yield { node: call, edits };
    }
  },
});

const ldaQda = rule({
  id: 'sklearn-lda-qda-modules',
  triggers: ['lda', 'qda'],
  library: 'scikit-learn',
  title: 'sklearn.lda / sklearn.qda',
  old: 'from sklearn.lda import LDA',
  new: 'from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA',
  removedIn: '0.19',
  errors: [noModule('sklearn.lda'), noModule('sklearn.qda')],
  link: WN('0.17', '#api-changes-summary'),
  message: 'sklearn.lda/sklearn.qda were removed in scikit-learn 0.19; use sklearn.discriminant_analysis',
  fixtures: [{
    before: 'from sklearn.lda import LDA\nm = LDA().fit([[0.0], [0.1], [1.0], [1.1]], [0, 0, 1, 1])\nprint(m.predict([[0.9]]))',
    after: 'from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as LDA\nm = LDA().fit([[0.0], [0.1], [1.0], [1.1]], [0, 0, 1, 1])\nprint(m.predict([[0.9]]))',
    expect: '[1]',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'sklearn.lda', { LDA: { module: 'sklearn.discriminant_analysis', name: 'LinearDiscriminantAnalysis' } });
    yield* moveImportedNames(ctx, 'sklearn.qda', { QDA: { module: 'sklearn.discriminant_analysis', name: 'QuadraticDiscriminantAnalysis' } });
  },
});

const OLD_SCORERS: Record<string, string> = {
  mean_squared_error: 'neg_mean_squared_error', mean_absolute_error: 'neg_mean_absolute_error',
  median_absolute_error: 'neg_median_absolute_error', log_loss: 'neg_log_loss', mean_squared_log_error: 'neg_mean_squared_log_error',
};

const scorerNames = rule({
  id: 'sklearn-scoring-names',
  triggers: ['scoring'],
  library: 'scikit-learn',
  title: "scoring='mean_squared_error'",
  old: "cross_val_score(m, X, y, scoring='mean_squared_error')",
  new: "cross_val_score(m, X, y, scoring='neg_mean_squared_error')",
  removedIn: '0.20',
  errors: [invalidParam('scoring'), err('ValueError', /is not a valid scoring value/)],
  link: WN('0.18', '#api-changes-summary'),
  message: "loss scorer names got the neg_ prefix in scikit-learn 0.18 (the old names already returned negated values, so the numbers are unchanged)",
  fixtures: [{
    before: "from sklearn.model_selection import cross_val_score\nfrom sklearn.linear_model import LinearRegression\nprint(cross_val_score(LinearRegression(), [[0], [1], [2], [3]], [0, 1, 2, 3], cv=2, scoring='mean_squared_error').round(6).tolist())",
    after: "from sklearn.model_selection import cross_val_score\nfrom sklearn.linear_model import LinearRegression\nprint(cross_val_score(LinearRegression(), [[0], [1], [2], [3]], [0, 1, 2, 3], cv=2, scoring='neg_mean_squared_error').round(6).tolist())",
    expect: '[-0.0, -0.0]',
    beforeError: 'InvalidParameterError',
  }],
  *find(ctx) {
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== 'scoring') continue;
      const call = kw.parent?.parent;
      if (call?.type !== 'call') continue;
      const q = ctx.qname(call.childForFieldName('function'));
      if (!q?.startsWith('sklearn.')) continue;
      const v = kwValue(kw);
      for (const { node, to } of stringLiteralIn(v, OLD_SCORERS)) yield { node, edits: [replaceNode(node, `${quoteOf(node)}${to}${quoteOf(node)}`)] };
    }
  },
});

const removedParams = rule({
  id: 'sklearn-removed-parameters',
  triggers: ['n_jobs', 'precompute_distances', 'presort', 'iid', 'behaviour', 'algorithm'],
  library: 'scikit-learn',
  title: 'removed no-op parameters (n_jobs/precompute_distances in KMeans, presort, iid=False, algorithm=full)',
  old: "KMeans(n_clusters=3, n_jobs=-1, algorithm='full'); GradientBoostingClassifier(presort=False)",
  new: "KMeans(n_clusters=3, algorithm='lloyd'); GradientBoostingClassifier()",
  removedIn: '1.0',
  errors: [unexpectedKw('n_jobs|precompute_distances|presort|iid|behaviour'), invalidParam('algorithm')],
  link: WN('1.0', '#sklearn-cluster'),
  message: 'this parameter was removed; it had no effect on the results (or is the new default), so it is dropped',
  fixtures: [
    {
      before: "from sklearn.cluster import KMeans\nfrom sklearn.ensemble import GradientBoostingClassifier\nk = KMeans(n_clusters=2, n_init=10, n_jobs=-1, algorithm='full', random_state=0).fit([[0.0], [0.1], [5.0], [5.1]])\ng = GradientBoostingClassifier(presort=False)\nprint(sorted(k.cluster_centers_.ravel().round(2).tolist()))",
      after: "from sklearn.cluster import KMeans\nfrom sklearn.ensemble import GradientBoostingClassifier\nk = KMeans(n_clusters=2, n_init=10, algorithm='lloyd', random_state=0).fit([[0.0], [0.1], [5.0], [5.1]])\ng = GradientBoostingClassifier()\nprint(sorted(k.cluster_centers_.ravel().round(2).tolist()))",
      expect: '[0.05, 5.05]',
      beforeError: 'TypeError',
    },
    {
      before: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\ng = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [1, 2]}, cv=2, iid=True)\nprint(g.cv)",
      manual: "from sklearn.model_selection import GridSearchCV\nfrom sklearn.tree import DecisionTreeClassifier\ng = GridSearchCV(DecisionTreeClassifier(), {'max_depth': [1, 2]}, cv=2)\nprint(g.cv)",
      expect: '2',
      beforeError: 'TypeError',
    },
  ],
  *find(ctx) {
    const drop = function* (classes: string[], kws: string[], when?: (v: SyntaxNode | undefined) => boolean, explain?: string): Generator<RuleMatch> {
      for (const { args } of sklearnCalls(ctx, classes)) {
        for (const k of kws) {
          const kw = args.keywords.get(k);
          if (!kw) continue;
          if (when && !when(kwValue(kw))) { yield { node: kw, message: explain }; continue; }
          yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] };
        }
      }
    };
    yield* drop(['KMeans'], ['n_jobs', 'precompute_distances']);
    yield* drop(['GradientBoostingClassifier', 'GradientBoostingRegressor', 'DecisionTreeClassifier', 'DecisionTreeRegressor'], ['presort']);
    yield* drop(['GridSearchCV', 'RandomizedSearchCV'], ['iid'], (v) => v?.type === 'false', 'GridSearchCV(iid=True) weighted fold scores by test-set size; it was removed in scikit-learn 0.24 (iid=False behaviour only): drop it and expect slightly different mean scores');
    yield* drop(['IsolationForest'], ['behaviour'], (v) => stringValue(v) === 'new', "IsolationForest(behaviour='old') is gone; the 'new' behaviour is the only one");
    for (const { args } of sklearnCalls(ctx, ['KMeans'])) {
      const v = kwValue(args.keywords.get('algorithm'));
      const s = stringValue(v);
      if (v && (s === 'full' || s === 'auto')) yield { node: v, edits: [replaceNode(v, `${quoteOf(v)}lloyd${quoteOf(v)}`)] };
    }
  },
});

const kfoldRandomState = rule({
  id: 'sklearn-kfold-random-state',
  triggers: ['KFold', 'StratifiedKFold', 'GroupKFold'],
  library: 'scikit-learn',
  title: 'KFold(random_state=) without shuffle',
  old: 'KFold(n_splits=10, random_state=22)',
  new: 'KFold(n_splits=10)',
  removedIn: '0.24',
  errors: [err('ValueError', /Setting a random_state has no effect since shuffle is False/)],
  link: WN('0.24', '#sklearn-model-selection'),
  message: 'random_state without shuffle=True never had an effect and raises since scikit-learn 0.24; it is dropped (the folds are the same)',
  fixtures: [{
    before: 'from sklearn.model_selection import KFold\nprint([len(te) for tr, te in KFold(n_splits=3, random_state=22).split(range(6))])',
    after: 'from sklearn.model_selection import KFold\nprint([len(te) for tr, te in KFold(n_splits=3).split(range(6))])',
    expect: '[2, 2, 2]',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { args } of sklearnCalls(ctx, ['KFold', 'StratifiedKFold'])) {
      const rs = args.keywords.get('random_state');
      const sh = kwValue(args.keywords.get('shuffle'));
      if (!rs || (sh && sh.type !== 'false') || args.positional.length > 1) continue;
      if (kwValue(rs)?.type === 'none') continue;
      yield { node: rs, edits: [removeArgument(args, rs, ctx.source)] };
    }
  },
});

const FIT_METHODS = ['fit', 'fit_transform', 'transform', 'predict', 'predict_proba', 'score', 'inverse_transform'];

const oneDimensionalInput = rule({
  id: 'sklearn-1d-input',
  triggers: FIT_METHODS,
  library: 'scikit-learn',
  title: '1-D feature arrays',
  old: "scaler.fit_transform(df['Age'])",
  new: "scaler.fit_transform(df[['Age']])",
  removedIn: '0.19',
  trigger: 'error',
  errors: [err('ValueError', /Expected 2D array, got 1D array instead|Expected a 2-dimensional container but got/)],
  link: WN('0.19', '#api-changes-summary'),
  message: 'estimators reject 1-D X since scikit-learn 0.19: select one column as a DataFrame (df[[col]]) or reshape(-1, 1)',
  fixtures: [{
    before: "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\ndf = pd.DataFrame({'Age': [1.0, 3.0]})\nprint(StandardScaler().fit_transform(df['Age']).ravel())",
    after: "import pandas as pd\nfrom sklearn.preprocessing import StandardScaler\ndf = pd.DataFrame({'Age': [1.0, 3.0]})\nprint(StandardScaler().fit_transform(df[['Age']]).ravel())",
    expect: '[-1.  1.]',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.methodCalls(FIT_METHODS)) {
      const first = callArgs(call)?.positional[0];
      if (!first || first.type !== 'subscript') continue;
      const key = first.childForFieldName('subscript');
      if (key?.type !== 'string' || first.childrenForFieldName('subscript').length !== 1) continue;
      yield { node: first, edits: [replaceNode(key, `[${key.text}]`)] };
    }
  },
});

// ---- score calibration: the defaults old notebooks relied on are data (tables/scikit-learn-pins.json, sklearn-pins.ts) ----

export const sklearnRules: Rule[] = [
  crossValidation, gridSearch, learningCurveModule, oldCvIterators, gridScores, imputer, externalsJoblib, externalsSix,
  privateModules, jaccard, oneHotCategorical, oneHotSparse, getFeatureNames, loadBoston, plotFunctions, normalizeParam,
  criterionNames, lossNames, maxFeaturesAuto, baseEstimator, positionalParams, nIter, randomizedPca, ldaQda, scorerNames,
  removedParams, kfoldRandomState, oneDimensionalInput,
];

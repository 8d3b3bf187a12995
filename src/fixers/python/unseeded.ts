/**
 * Which cells show values drawn from unseeded randomness, read from the code. A second clean run
 * (agent/runner.recheckDrift) catches most of them, but not a draw that happens to come out the same
 * twice here and differently in the author's run: an unseeded forest's predictions agree on most
 * rows from run to run, so ten displayed rows can match each other and still differ from the
 * author's draw in one. The code says what the runs cannot: a randomized scikit-learn estimator or
 * splitter built without `random_state`, `train_test_split` without one, `DataFrame.sample()` without
 * one, a `np.random` draw, with no `np.random.seed(...)` anywhere (scikit-learn's `random_state=None`
 * and pandas' `sample()` draw from NumPy's global generator, which that call seeds).
 *
 * Followed statement by statement (cellsFedBy below, shared with the agent's acting pins): a statement that makes a
 * draw, or reads a name carrying one, binds names that carry it (`rf = RandomForestClassifier()`,
 * `def model(): return RandomForestClassifier()`, `rf.fit(X, y)`, `pred = rf.predict(T)`); one that
 * does neither rebinds its names clean. A cell is fed when one of its statements is. Statements, not
 * cells, so the frame read next to the draw in the same cell does not carry it. The agent sets aside
 * a drift in such a cell only when no rule addressed it (agent/loop.ts).
 */
import { parsePython, type SyntaxNode } from './parser.js';
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import { maskIPythonLines } from './ipython.js';
import { analyzeCell } from './defuse.js';

/** scikit-learn classes whose fit draws from their random_state (None: NumPy's global generator). */
const RANDOMIZED = new Set([
  'RandomForestClassifier', 'RandomForestRegressor', 'ExtraTreesClassifier', 'ExtraTreesRegressor',
  'DecisionTreeClassifier', 'DecisionTreeRegressor', 'ExtraTreeClassifier', 'ExtraTreeRegressor',
  'GradientBoostingClassifier', 'GradientBoostingRegressor', 'AdaBoostClassifier', 'AdaBoostRegressor',
  'BaggingClassifier', 'BaggingRegressor', 'IsolationForest', 'RandomTreesEmbedding',
  'SGDClassifier', 'SGDRegressor', 'Perceptron', 'PassiveAggressiveClassifier', 'PassiveAggressiveRegressor',
  'MLPClassifier', 'MLPRegressor', 'KMeans', 'MiniBatchKMeans', 'TSNE', 'RandomizedSearchCV', 'LinearSVC',
  'ShuffleSplit', 'StratifiedShuffleSplit', 'GaussianMixture', 'BayesianGaussianMixture',
]);
/** Splitters that draw only when asked to shuffle. */
const SHUFFLING = new Set(['KFold', 'StratifiedKFold', 'GroupKFold', 'RepeatedKFold', 'RepeatedStratifiedKFold']);
/** Functions that draw unless given random_state. */
const DRAWING_FUNCTIONS = new Set(['train_test_split', 'shuffle', 'resample']);
/** np.random draws. */
const NP_DRAWS = new Set(['rand', 'randn', 'randint', 'random', 'random_sample', 'choice', 'shuffle', 'permutation', 'normal', 'uniform', 'binomial', 'poisson']);

const SEEDED = /\b(?:np|numpy)\.random\.seed\s*\(/;

function calleeName(call: SyntaxNode): { name: string; object?: string } | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'identifier') return { name: fn.text };
  if (fn?.type === 'attribute') return { name: fn.childForFieldName('attribute')?.text ?? '', object: fn.childForFieldName('object')?.text };
  return undefined;
}

function keywords(call: SyntaxNode): { names: Set<string>; splat: boolean; values: Map<string, string> } {
  const names = new Set<string>();
  const values = new Map<string, string>();
  let splat = false;
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!a) continue;
    if (a.type === 'dictionary_splat') splat = true;
    if (a.type !== 'keyword_argument') continue;
    const k = a.childForFieldName('name')?.text ?? '';
    names.add(k);
    values.set(k, a.childForFieldName('value')?.text ?? '');
  }
  return { names, splat, values };
}

/** What draws in this call, or undefined when it does not (or is seeded). */
export function unseededDraw(call: SyntaxNode): string | undefined {
  const callee = calleeName(call);
  if (!callee) return undefined;
  const kw = keywords(call);
  if (kw.splat) return undefined;
  const seeded = kw.names.has('random_state') && kw.values.get('random_state') !== 'None';
  if (RANDOMIZED.has(callee.name) && !seeded) return `${callee.name}(...) without random_state`;
  if (SHUFFLING.has(callee.name) && kw.values.get('shuffle') === 'True' && !seeded) return `${callee.name}(shuffle=True) without random_state`;
  if (DRAWING_FUNCTIONS.has(callee.name) && !callee.object?.startsWith('np') && !seeded && kw.values.get('shuffle') !== 'False') return `${callee.name}(...) without random_state`;
  if (callee.name === 'sample' && callee.object !== undefined && !seeded) return `.sample(...) without random_state`;
  if (NP_DRAWS.has(callee.name) && /^(np|numpy)\.random$/.test(callee.object ?? '')) return `${callee.object}.${callee.name}(...) without a seed`;
  return undefined;
}

/** The cells whose values come from an unseeded draw, each with the draw (and its cell) that feeds it. */
export function unseededCells(nb: Notebook): Map<number, string> {
  const seeded = nb.cells.some((c) => c.cell_type === 'code' && SEEDED.test(sourceText(c.source)));
  return seeded ? new Map() : cellsFedBy(nb, unseededDraw);
}

/** The simple name a call calls (`f(...)`, `m.f(...)`). */
export function calledName(call: SyntaxNode): string | undefined {
  return calleeName(call)?.name;
}

/**
 * The cells fed by the calls `source` recognises (it returns what the call is, or undefined),
 * each with the first such call that feeds it. Statement by statement (top-level statements, cells in
 * order): a statement that makes such a call, or reads a name carrying one, binds names that carry it;
 * one that does neither rebinds its names clean. Statements, not cells, so a frame built next to the
 * call in the same cell does not carry it.
 */
export function cellsFedBy(nb: Notebook, source: (call: SyntaxNode) => string | undefined): Map<number, string> {
  const out = new Map<number, string>();
  const live = new Map<string, string>(); // name -> the call it carries
  nb.cells.forEach((c, i) => {
    if (c.cell_type !== 'code') return;
    const tree = parsePython(maskIPythonLines(sourceText(c.source)).code);
    for (const stmt of tree.rootNode.namedChildren) {
      if (!stmt) continue;
      let found: string | undefined;
      const visit = (n: SyntaxNode): void => {
        if (found) return;
        if (n.type === 'call') found = source(n);
        for (const k of n.namedChildren) if (k) visit(k);
      };
      visit(stmt);
      const du = analyzeCell(stmt.text, i);
      const read = [...du.uses, ...du.mutates].find((n) => live.has(n));
      const carried = found ? `${found} in cell ${i}` : read !== undefined ? live.get(read) : undefined;
      if (carried) {
        if (!out.has(i)) out.set(i, carried);
        for (const d of [...du.defines, ...du.mutates]) live.set(d, carried);
      } else {
        for (const d of du.defines) live.delete(d);
      }
    }
    tree.delete();
  });
  return out;
}

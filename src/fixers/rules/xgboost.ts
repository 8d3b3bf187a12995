/** xgboost: fit() arguments moved to the constructor (2.x), ntree_limit (2.0), GPU-only settings; the pins of old defaults are a table (tables/xgboost-pins.json, xgboost-pins.ts). */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, TextEdit } from './types.js';
import { err, rule, renameMethodCalls } from './helpers.js';
import { callArgs, kwValue, removeArgument, renameKeyword, replaceNode, stringValue, quoteOf, type Args } from './tree.js';
import { paramEntries } from './param-dicts.js';

export const NEWS = 'https://xgboost.readthedocs.io/en/stable/changes/index.html';
export const XGB_SKLEARN = ['XGBClassifier', 'XGBRegressor', 'XGBRanker', 'XGBRFClassifier', 'XGBRFRegressor', 'XGBModel'];
const DATA = 'import numpy as np\nimport xgboost as xgb\nrng = np.random.RandomState(0)\nX = rng.rand(200, 4)\ny = (X[:, 0] + rng.rand(200) * 0.3 > 0.6).astype(int)\n';

export function* xgbConstructors(ctx: CellContext): Generator<{ call: SyntaxNode; args: Args; name: string }> {
  for (const { call, fn } of ctx.callsNamed(XGB_SKLEARN)) {
    const q = ctx.qname(fn);
    if (!q || !q.startsWith('xgboost.')) continue;
    const name = q.split('.').pop()!;
    const args = callArgs(call);
    if (XGB_SKLEARN.includes(name) && args) yield { call, args, name };
  }
}

const MOVED_FIT_KW = ['early_stopping_rounds', 'eval_metric', 'callbacks'];

const fitArgs = rule({
  id: 'xgboost-fit-arguments',
  triggers: MOVED_FIT_KW,
  library: 'xgboost',
  title: 'fit(early_stopping_rounds=, eval_metric=, callbacks=)',
  old: 'model.fit(X, y, early_stopping_rounds=10, eval_metric="rmse", eval_set=[...])',
  new: 'model.set_params(early_stopping_rounds=10, eval_metric="rmse").fit(X, y, eval_set=[...])',
  removedIn: '2.1',
  errors: [err('TypeError', /fit\(\) got an unexpected keyword argument '(early_stopping_rounds|eval_metric|callbacks)'/)],
  link: NEWS,
  message: 'early_stopping_rounds/eval_metric/callbacks moved from fit() to the estimator in xgboost 1.6 and were removed from fit() in 2.1; set them with set_params() before fit()',
  fixtures: [{
    before: DATA + "m = xgb.XGBClassifier(n_estimators=200, learning_rate=0.3)\nm.fit(X, y, eval_set=[(X, y)], early_stopping_rounds=3, eval_metric='logloss', verbose=False)\nprint(m.get_params()['early_stopping_rounds'])",
    after: DATA + "m = xgb.XGBClassifier(n_estimators=200, learning_rate=0.3)\nm.set_params(early_stopping_rounds=3, eval_metric='logloss').fit(X, y, eval_set=[(X, y)], verbose=False)\nprint(m.get_params()['early_stopping_rounds'])",
    expect: '3',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['fit'])) {
      const args = callArgs(call);
      if (!args) continue;
      const moved = MOVED_FIT_KW.map((k) => args.keywords.get(k)).filter((k): k is SyntaxNode => !!k);
      if (!moved.length) continue;
      // Only sklearn-API xgboost models take these in fit(); skip other libraries' fit(callbacks=) (keras...).
      const xgbImported = [...ctx.nb.importedModules].some((m) => m === 'xgboost' || m.startsWith('xgboost.'));
      if (!xgbImported) continue;
      if (args.keywords.has('callbacks') && moved.length === 1 && !ctx.nb.importedModules.has('xgboost')) continue;
      // Remove the moved keywords from fit() (never the first argument), keep the rest as written.
      if (moved.some((k) => k.startIndex === args.all[0]?.startIndex)) { yield { node: call }; continue; }
      const setParams = `.set_params(${moved.map((k) => k.text).join(', ')})`;
      const edits: TextEdit[] = [
        { start: recv.endIndex, end: recv.endIndex, text: setParams },
        ...moved.map((k) => removeArgument(args, k, ctx.source)),
      ];
      yield { node: call, edits };
    }
  },
});

const ntreeLimit = rule({
  id: 'xgboost-ntree-limit',
  triggers: ['ntree_limit', 'best_ntree_limit'],
  library: 'xgboost',
  title: 'predict(ntree_limit=) / best_ntree_limit',
  old: 'model.predict(X, ntree_limit=model.best_ntree_limit)',
  new: 'model.predict(X, iteration_range=(0, model.best_iteration + 1))',
  removedIn: '2.0',
  errors: [err('TypeError', /unexpected keyword argument 'ntree_limit'/), err('AttributeError', /has no attribute 'best_ntree_limit'/)],
  link: NEWS,
  message: 'ntree_limit and best_ntree_limit were removed in xgboost 2.0; use iteration_range=(0, best_iteration + 1)',
  fixtures: [{
    before: DATA + "m = xgb.XGBClassifier(n_estimators=50, early_stopping_rounds=3, eval_metric='logloss').fit(X, y, eval_set=[(X, y)], verbose=False)\np = m.predict_proba(X, ntree_limit=m.best_ntree_limit)\nq = m.predict(X, ntree_limit=5)\nprint(p.shape, q.shape)",
    after: DATA + "m = xgb.XGBClassifier(n_estimators=50, early_stopping_rounds=3, eval_metric='logloss').fit(X, y, eval_set=[(X, y)], verbose=False)\np = m.predict_proba(X, iteration_range=(0, m.best_iteration + 1))\nq = m.predict(X, iteration_range=(0, 5))\nprint(p.shape, q.shape)",
    expect: '(200, 2) (200,)',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const handled = new Set<number>();
    for (const kw of ctx.nodes('keyword_argument')) {
      if (kw.childForFieldName('name')?.text !== 'ntree_limit') continue;
      const v = kwValue(kw)!;
      let range: string;
      if (v.type === 'attribute' && v.childForFieldName('attribute')?.text === 'best_ntree_limit') {
        range = `(0, ${v.childForFieldName('object')!.text}.best_iteration + 1)`;
        handled.add(v.startIndex);
      } else range = `(0, ${v.text})`;
      yield { node: kw, edits: [replaceNode(kw, `iteration_range=${range}`)] };
    }
    for (const { node: a } of ctx.attributesNamed(['best_ntree_limit'])) {
      if (handled.has(a.startIndex)) continue;
      if (a.parent?.type === 'keyword_argument') continue;
      yield { node: a, edits: [replaceNode(a, `(${a.childForFieldName('object')!.text}.best_iteration + 1)`)] };
    }
  },
});

const boosterMethod = rule({
  id: 'xgboost-booster-method',
  triggers: ['booster'],
  library: 'xgboost',
  title: 'model.booster()',
  old: 'model.booster().get_fscore()',
  new: 'model.get_booster().get_fscore()',
  removedIn: '0.81',
  errors: [err('TypeError', /'(NoneType|str)' object is not callable/)],
  link: NEWS,
  message: "the sklearn wrapper's booster() method was renamed get_booster() (booster is now the 'gbtree'/'dart' parameter)",
  fixtures: [{
    before: DATA + 'm = xgb.XGBClassifier(n_estimators=3).fit(X, y)\nprint(type(m.booster()).__name__)',
    after: DATA + 'm = xgb.XGBClassifier(n_estimators=3).fit(X, y)\nprint(type(m.get_booster()).__name__)',
    expect: 'Booster',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    if (![...ctx.nb.importedModules].some((m) => m === 'xgboost' || m.startsWith('xgboost.'))) return;
    yield* renameMethodCalls(ctx, { booster: 'get_booster' }, ({ args }) => !args?.all.length);
  },
});

/** GPU tree methods and the CPU algorithm each ran ('gpu_exact' was removed in 1.0, 'gpu_hist' in 2.0). */
const GPU_TREE_METHODS: Record<string, string> = { gpu_hist: 'hist', gpu_exact: 'exact' };

const gpuHist = rule({
  id: 'xgboost-gpu-settings',
  // Constructor keywords, or `'gpu_hist'` in a params dict.
  triggers: ['tree_method', 'gpu_id', 'predictor'],
  gate: { literals: ['gpu_hist', 'gpu_exact'] },
  library: 'xgboost',
  title: "tree_method='gpu_hist' / 'gpu_exact' / predictor='gpu_predictor' / gpu_id",
  old: "XGBClassifier(tree_method='gpu_hist', gpu_id=0)",
  new: "XGBClassifier(tree_method='hist')",
  removedIn: '2.0',
  errors: [err('XGBoostError', /not compiled with GPU support|gpu_hist|gpu_exact/)],
  link: NEWS,
  message: "the environment has no GPU (and its xgboost is built without CUDA): 'gpu_hist' becomes the same algorithm on the CPU ('hist'), 'gpu_exact' (removed in 1.0) 'exact'; gpu_id/predictor are dropped",
  fixtures: [{
    before: DATA + "m = xgb.XGBClassifier(n_estimators=3, tree_method='gpu_hist', predictor='gpu_predictor').fit(X, y)\nprint(m.predict(X[:2]).shape)",
    after: DATA + "m = xgb.XGBClassifier(n_estimators=3, tree_method='hist').fit(X, y)\nprint(m.predict(X[:2]).shape)",
    expect: '(2,)',
    beforeError: 'XGBoostError',
  }, {
    before: DATA + "bst = xgb.train({'objective': 'binary:logistic', 'tree_method': 'gpu_exact'}, xgb.DMatrix(X, label=y), 3)\nprint(bst.num_boosted_rounds())",
    after: DATA + "bst = xgb.train({'objective': 'binary:logistic', 'tree_method': 'exact'}, xgb.DMatrix(X, label=y), 3)\nprint(bst.num_boosted_rounds())",
    expect: '3',
    beforeError: 'XGBoostError',
  }],
  *find(ctx) {
    for (const { args } of xgbConstructors(ctx)) {
      const tm = kwValue(args.keywords.get('tree_method'));
      const cpu = GPU_TREE_METHODS[stringValue(tm) ?? ''];
      if (tm && cpu) yield { node: tm, edits: [replaceNode(tm, `${quoteOf(tm)}${cpu}${quoteOf(tm)}`)] };
      for (const k of ['gpu_id', 'predictor']) {
        const kw = args.keywords.get(k);
        if (kw && (k === 'gpu_id' || /gpu/.test(stringValue(kwValue(kw)) ?? ''))) yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] };
      }
    }
    // params dicts for xgb.train: {'tree_method': 'gpu_hist'}
    for (const { key, value: v } of paramEntries(ctx)) {
      const cpu = GPU_TREE_METHODS[stringValue(v) ?? ''];
      if (key === 'tree_method' && cpu) yield { node: v, edits: [replaceNode(v, `${quoteOf(v)}${cpu}${quoteOf(v)}`)] };
    }
  },
});

const cvShowProgress = rule({
  id: 'xgboost-cv-show-progress',
  triggers: ['show_progress'],
  library: 'xgboost',
  title: 'xgb.cv(show_progress=)',
  old: 'xgb.cv(params, dtrain, 10, show_progress=False)',
  new: 'xgb.cv(params, dtrain, 10, verbose_eval=False)',
  removedIn: '0.6',
  errors: [err('TypeError', /cv\(\) got an unexpected keyword argument 'show_progress'/)],
  link: NEWS,
  message: 'xgb.cv(show_progress=) was renamed verbose_eval',
  fixtures: [{
    before: DATA + "r = xgb.cv({'objective': 'binary:logistic'}, xgb.DMatrix(X, y), 3, nfold=2, show_progress=False)\nprint(len(r))",
    after: DATA + "r = xgb.cv({'objective': 'binary:logistic'}, xgb.DMatrix(X, y), 3, nfold=2, verbose_eval=False)\nprint(len(r))",
    expect: '3',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['xgboost.cv', 'xgboost.train'])) {
      const kw = callArgs(call)?.keywords.get('show_progress');
      if (kw) yield { node: kw, edits: [renameKeyword(kw, 'verbose_eval')] };
    }
  },
});

export const xgboostRules: Rule[] = [fitArgs, ntreeLimit, boosterMethod, gpuHist, cvShowProgress];


/** xgboost removals (NEWS / doc/changes) that xgboost.ts does not cover. Checked in 3.0. */
import type { TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const SKLEARN = ['XGBClassifier', 'XGBRegressor', 'XGBRanker', 'XGBRFClassifier', 'XGBRFRegressor', 'XGBModel']
  .flatMap((c) => [{ qname: `xgboost.${c}` }, { qname: `xgboost.sklearn.${c}` }]);
const DATA = 'import numpy as np\nimport xgboost as xgb\nrng = np.random.RandomState(0)\nX = rng.rand(200, 4)\ny = (X[:, 0] + rng.rand(200) * 0.3 > 0.6).astype(int)\n';

export const xgboostTable: TableEntry[] = [
  {
    // Notebooks pasted the printed repr of a 0.7-0.90 model (`XGBClassifier(base_score=0.5, ..., missing=None, ...)`).
    kind: 'replace-value', id: 'xgboost-missing-none', library: 'xgboost', removedIn: '1.0', deprecatedIn: '0.90',
    callees: SKLEARN, kwarg: 'missing', values: { None: "float('nan')" },
    errors: [err('XGBoostError', /Invalid type for: `missing`/)],
    link: 'https://xgboost.readthedocs.io/en/stable/changes/v1.0.0.html',
    message: "missing=None meant np.nan in the 0.x sklearn wrapper (the printed default); xgboost 1.0+ passes it to the booster, which rejects null: use float('nan')",
    fixtures: [{
      before: DATA + 'm = xgb.XGBClassifier(n_estimators=3, missing=None).fit(X, y)\nprint(m.predict(X[:2]).shape)',
      after: DATA + "m = xgb.XGBClassifier(n_estimators=3, missing=float('nan')).fit(X, y)\nprint(m.predict(X[:2]).shape)",
      expect: '(2,)', beforeError: 'XGBoostError',
    }],
  },
];

/** statsmodels removals (release notes 0.10-0.14) that statsmodels.ts does not cover. Checked in 0.14. */
import type { TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const REL = (v: string) => `https://www.statsmodels.org/stable/release/version${v}.html`;
const DF = "import numpy as np\nimport pandas as pd\nrng = np.random.RandomState(0)\ndf = pd.DataFrame({'x': rng.rand(50)})\ndf['y'] = 2 * df.x + rng.rand(50) * 0.1\ndf['b'] = (df.x > 0.5).astype(int)\n";
const TS = 'import numpy as np\ns = np.arange(60.0) % 7 + np.arange(60.0) + np.random.RandomState(0).rand(60)\n';

/** Model classes `statsmodels.formula.api` no longer re-exports (0.10): the array API is statsmodels.api. */
const FORMULA_API_CLASSES: Record<string, [string, string, string]> = {
  OLS: ['import statsmodels.formula.api as sm\n', 'print(round(sm.OLS(df.y, np.column_stack([np.ones(50), df.x])).fit().params.iloc[1], 1))', '2.0'],
  WLS: ['import statsmodels.formula.api as smf\n', 'print(round(smf.WLS(df.y, np.column_stack([np.ones(50), df.x])).fit().params.iloc[1], 1))', '2.0'],
  GLS: ['import statsmodels.formula.api as smf\n', 'print(round(smf.GLS(df.y, np.column_stack([np.ones(50), df.x])).fit().params.iloc[1], 1))', '2.0'],
  Logit: ['import statsmodels.formula.api as smf\n', 'print(len(smf.Logit(df.b, np.column_stack([np.ones(50), df.y])).fit(disp=0).params))', '2'],
  Probit: ['import statsmodels.formula.api as smf\n', 'print(len(smf.Probit(df.b, np.column_stack([np.ones(50), df.y])).fit(disp=0).params))', '2'],
  GLM: ['import statsmodels.formula.api as smf\n', 'print(round(smf.GLM(df.y, np.column_stack([np.ones(50), df.x])).fit().params.iloc[1], 1))', '2.0'],
};

export const statsmodelsTable: TableEntry[] = [
  ...Object.entries(FORMULA_API_CLASSES).map(([name, [imp, use, expect]]): TableEntry => {
    const alias = imp.trim().split(' ').pop()!;
    return {
      kind: 'move-symbol', id: `statsmodels-formula-api-${name.toLowerCase()}`, library: 'statsmodels', removedIn: '0.10', deprecatedIn: '0.10',
      from: `statsmodels.formula.api.${name}`, to: `statsmodels.api.${name}`,
      link: REL('0.10'),
      message: `statsmodels.formula.api.${name} (the array model class) is no longer in formula.api (0.10, "clean up smf namespace"): use statsmodels.api.${name}; formula.api keeps the lowercase ${name.toLowerCase()}(formula, data)`,
      fixtures: [{
        before: DF + imp + use,
        after: 'import statsmodels.api\n' + DF + imp + use.replace(`${alias}.${name}(`, `statsmodels.api.${name}(`),
        expect, beforeError: 'AttributeError',
      }],
    };
  }),
  ...(['ywunbiased', 'ldunbiased'] as const).map((old): TableEntry => ({
    kind: 'replace-value', id: `statsmodels-pacf-${old}`, library: 'statsmodels', removedIn: '0.13', deprecatedIn: '0.12',
    callees: [{ qname: 'statsmodels.tsa.stattools.pacf' }, { qname: 'statsmodels.graphics.tsaplots.plot_pacf' }, { qname: 'statsmodels.tsa.api.stattools.pacf' }, { qname: 'statsmodels.api.tsa.pacf' }, { qname: 'statsmodels.api.graphics.tsa.plot_pacf' }],
    kwarg: 'method', values: { [`'${old}'`]: `'${old.replace('unbiased', 'adjusted')}'` },
    errors: [err('ValueError', /method must be one of: .*'ywadjusted'/)],
    link: REL('0.12'),
    message: `pacf method '${old}' was renamed '${old.replace('unbiased', 'adjusted')}' in statsmodels 0.12 ("unbiased" -> "adjusted"), the old name removed in 0.13`,
    fixtures: [{
      before: TS + `from statsmodels.tsa.stattools import pacf\nprint(round(pacf(s, nlags=3, method='${old}')[1], 4))`,
      after: TS + `from statsmodels.tsa.stattools import pacf\nprint(round(pacf(s, nlags=3, method='${old.replace('unbiased', 'adjusted')}')[1], 4))`,
      expect: '0.9523', beforeError: 'ValueError',
    }],
  })),
  {
    kind: 'replace-value', id: 'statsmodels-adfuller-nc', library: 'statsmodels', removedIn: '0.13', deprecatedIn: '0.12',
    callees: [{ qname: 'statsmodels.tsa.stattools.adfuller' }, { qname: 'statsmodels.api.tsa.adfuller' }, { qname: 'statsmodels.api.tsa.stattools.adfuller' }, { qname: 'statsmodels.tsa.api.adfuller' }],
    kwarg: 'regression', values: { "'nc'": "'n'" },
    errors: [err('ValueError', /regression must be one of: 'c', 'ct', 'ctt', 'n'/)],
    link: REL('0.12'),
    message: "adfuller(regression='nc') (no constant) is regression='n' since statsmodels 0.12 (the old spelling removed in 0.13)",
    fixtures: [{
      before: TS + "from statsmodels.tsa.stattools import adfuller\nprint(round(adfuller(np.diff(s), regression='nc', maxlag=2, autolag=None)[0], 3))",
      after: TS + "from statsmodels.tsa.stattools import adfuller\nprint(round(adfuller(np.diff(s), regression='n', maxlag=2, autolag=None)[0], 3))",
      expect: '-4.228', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'statsmodels-kpss-lags', library: 'statsmodels', removedIn: '0.13', deprecatedIn: '0.11',
    callees: [{ qname: 'statsmodels.tsa.stattools.kpss' }, { qname: 'statsmodels.api.tsa.kpss' }, { qname: 'statsmodels.api.tsa.stattools.kpss' }, { qname: 'statsmodels.tsa.api.kpss' }],
    from: 'lags', to: 'nlags', values: { None: "'legacy'", "'legacy'": "'legacy'", "'auto'": "'auto'" },
    link: REL('0.11'),
    message: "kpss(lags=) is kpss(nlags=) since statsmodels 0.11 (\"standardized on nlags\"); lags=None meant the old int(12 * (n/100)**0.25) lags, nlags='legacy'",
    fixtures: [{
      before: TS + "from statsmodels.tsa.stattools import kpss\nprint(kpss(s, lags=None)[2])",
      after: TS + "from statsmodels.tsa.stattools import kpss\nprint(kpss(s, nlags='legacy')[2])",
      expect: '11', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-function', id: 'statsmodels-het-breushpagan', library: 'statsmodels', removedIn: '0.10', deprecatedIn: '0.9',
    from: 'statsmodels.stats.diagnostic.het_breushpagan', to: 'statsmodels.stats.diagnostic.het_breuschpagan',
    link: REL('0.10'),
    message: 'het_breushpagan (a misspelt alias) was removed: het_breuschpagan',
    fixtures: [{
      before: DF + 'import statsmodels.api as sm\nfrom statsmodels.stats.diagnostic import het_breushpagan\nr = sm.OLS(df.y, sm.add_constant(df.x)).fit()\nprint(len(het_breushpagan(r.resid, r.model.exog)))',
      after: DF + 'import statsmodels.api as sm\nfrom statsmodels.stats.diagnostic import het_breuschpagan as het_breushpagan\nr = sm.OLS(df.y, sm.add_constant(df.x)).fit()\nprint(len(het_breushpagan(r.resid, r.model.exog)))',
      expect: '4', beforeError: 'ImportError',
    }],
  },
];

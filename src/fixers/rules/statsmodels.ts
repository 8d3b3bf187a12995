/** statsmodels: the old ARIMA/ARMA (removed 0.13), renamed keyword arguments. */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, TextEdit } from './types.js';
import { err, rule, moveImportedNames } from './helpers.js';
import { callArgs, kwValue, removeArgument, renameKeyword, replaceNode, stringValue, quoteOf } from './tree.js';

const REL = (v: string) => `https://www.statsmodels.org/stable/release/version${v}.html`;
const SERIES = "import numpy as np\nimport pandas as pd\ns = pd.Series(np.arange(40.0) % 7 + np.arange(40.0), index=pd.date_range('2020-01-01', periods=40, freq='D'))\n";

const OLD_ARIMA = ['statsmodels.tsa.arima_model.ARIMA', 'statsmodels.tsa.arima_model.ARMA', 'statsmodels.tsa.api.ARMA', 'statsmodels.api.tsa.ARMA'];

function isOldArimaCall(ctx: CellContext, call: SyntaxNode): string | undefined {
  const q = ctx.qname(call.childForFieldName('function'));
  return q && OLD_ARIMA.includes(q) ? q.split('.').pop() : undefined;
}

/** Names assigned from the old ARIMA/ARMA constructors anywhere in the notebook. */
function arimaNames(ctx: CellContext): Set<string> {
  return ctx.nb.memo('arima-names', () => computeArimaNames(ctx));
}

function computeArimaNames(ctx: CellContext): Set<string> {
  const out = new Set<string>();
  for (const cell of ctx.nb.cells) {
    for (const a of cell.idx.byType.get('assignment') ?? []) {
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      if (left?.type !== 'identifier' || right?.type !== 'call') continue;
      const q = ctx.nb.qname(right.childForFieldName('function')!, cell.index);
      if (q && (OLD_ARIMA.includes(q) || q === 'statsmodels.tsa.arima.model.ARIMA' || q === 'statsmodels.tsa.api.ARIMA' || q === 'statsmodels.api.tsa.ARIMA')) out.add(left.text);
    }
  }
  return out;
}

const FIT_DROP = new Set(['disp', 'transparams', 'solver', 'maxiter', 'full_output', 'callback', 'trend']);

const arimaModel = rule({
  id: 'statsmodels-arima-model',
  triggers: ['ARIMA', 'ARMA', 'arima_model', 'fit', 'forecast'],
  library: 'statsmodels',
  title: 'tsa.arima_model.ARIMA / ARMA',
  old: 'from statsmodels.tsa.arima_model import ARIMA; ARIMA(s, order=(1, 1, 0)).fit(disp=0)',
  new: 'from statsmodels.tsa.arima.model import ARIMA; ARIMA(s, order=(1, 1, 0)).fit()',
  removedIn: '0.13',
  errors: [err('NotImplementedError', /statsmodels\.tsa\.arima_model\.ARMA and statsmodels\.tsa\.arima_model\.ARIMA have\s+been removed/), err('TypeError', /fit\(\) got an unexpected keyword argument 'disp'|object of type '(numpy\.)?float(64)?' has no len\(\)/), err('AttributeError', /has no attribute 'ARMA'/)],
  link: REL('0.13.0'),
  message: "the old ARIMA/ARMA were removed in statsmodels 0.13: use statsmodels.tsa.arima.model.ARIMA (ARMA(p, q) is ARIMA(p, 0, q)); its fit() takes no disp/solver/transparams and it estimates by exact MLE, so coefficients and forecasts differ slightly",
  fixtures: [{
    before: SERIES + 'from statsmodels.tsa.arima_model import ARIMA, ARMA\nm = ARMA(s, order=(1, 0))\nr = m.fit(disp=0)\nr2 = ARIMA(s, order=(1, 0, 0)).fit(disp=False)\nprint(len(r.params), len(r2.params))',
    after: SERIES + 'from statsmodels.tsa.arima.model import ARIMA, ARIMA as ARMA\nm = ARMA(s, order=(1, 0, 0))\nr = m.fit()\nr2 = ARIMA(s, order=(1, 0, 0)).fit()\nprint(len(r.params), len(r2.params))',
    expect: '3 3',
    beforeError: 'NotImplementedError',
  }, {
    before: SERIES + 'from statsmodels.tsa.arima.model import ARIMA\nfc, se, conf = ARIMA(s, order=(1, 0, 0)).fit().forecast(3)\nprint(len(fc))',
    manual: SERIES + 'from statsmodels.tsa.arima.model import ARIMA\nfc = ARIMA(s, order=(1, 0, 0)).fit().get_forecast(3).summary_frame()\nprint(len(fc))',
    expect: '3',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'statsmodels.tsa.arima_model', {
      ARIMA: { module: 'statsmodels.tsa.arima.model', name: 'ARIMA' },
      ARMA: { module: 'statsmodels.tsa.arima.model', name: 'ARIMA' },
    });
    for (const { node } of ctx.attributesTo(['statsmodels.tsa.api.ARMA', 'statsmodels.api.tsa.ARMA'])) {
      yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'ARIMA')] };
    }
    // ARMA(endog, order=(p, q)) -> order=(p, 0, q)
    for (const { call } of ctx.callsNamed(['ARMA', 'ARIMA'])) {
      const q = ctx.qname(call.childForFieldName('function'));
      const isArma = q?.endsWith('.ARMA') || (q === 'statsmodels.tsa.arima.model.ARIMA' && call.childForFieldName('function')?.text === 'ARMA');
      if (!isArma) continue;
      const args = callArgs(call);
      const order = kwValue(args?.keywords.get('order')) ?? args?.positional[1];
      if (!order || order.type !== 'tuple') continue;
      const parts = order.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
      if (parts.length === 2) yield { node: order, edits: [replaceNode(order, `(${parts[0].text}, 0, ${parts[1].text})`)] };
    }
    // fit(disp=...) on old-ARIMA models (chained or through a name).
    const names = arimaNames(ctx);
    const results = new Set<string>();
    for (const { call, recv } of ctx.methodCalls(['fit'])) {
      const onModel = (recv.type === 'identifier' && names.has(recv.text)) || (recv.type === 'call' && (isOldArimaCall(ctx, recv) || ['ARIMA', 'ARMA'].includes(recv.childForFieldName('function')?.text.split('.').pop() ?? '')));
      if (!onModel) continue;
      const args = callArgs(call)!;
      const drop = args.all.filter((a) => a.type === 'keyword_argument' && FIT_DROP.has(a.childForFieldName('name')!.text));
      if (args.positional.length || drop.length === 0) continue;
      const edits: TextEdit[] = drop.length === args.all.length
        ? [{ start: args.list.startIndex, end: args.list.endIndex, text: '()' }]
        : drop.map((d) => removeArgument(args, d, ctx.source));
      yield { node: call, edits };
      const st = call.parent;
      if (st?.type === 'assignment') results.add(st.childForFieldName('left')?.text ?? '');
    }
    // `fc, se, conf = results.forecast(n)`: the new forecast() returns only the forecasts.
    for (const a of ctx.nodes('assignment')) {
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      if (!left || !right || right.type !== 'call' || (left.type !== 'pattern_list' && left.type !== 'tuple_pattern')) continue;
      const fn = right.childForFieldName('function');
      if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'forecast') continue;
      if (left.namedChildren.length !== 3) continue;
      yield { node: right, message: 'the new ARIMA results.forecast(steps) returns only the forecasts (not forecast, stderr, conf_int): use res.get_forecast(steps) and its .predicted_mean, .se_mean, .conf_int()' };
    }
  },
});

const seasonalDecompose = rule({
  id: 'statsmodels-seasonal-decompose-freq',
  triggers: ['freq'],
  library: 'statsmodels',
  title: 'seasonal_decompose(freq=)',
  old: 'seasonal_decompose(s, freq=7)',
  new: 'seasonal_decompose(s, period=7)',
  removedIn: '0.13',
  errors: [err('TypeError', /seasonal_decompose\(\) got an unexpected keyword argument 'freq'/)],
  link: REL('0.11.0'),
  message: 'seasonal_decompose(freq=) was renamed period= (statsmodels 0.11, removed 0.13)',
  fixtures: [{
    before: SERIES + 'import statsmodels.api as sm\nr = sm.tsa.seasonal_decompose(s, freq=7)\nprint(int(r.trend.notna().sum()))',
    after: SERIES + 'import statsmodels.api as sm\nr = sm.tsa.seasonal_decompose(s, period=7)\nprint(int(r.trend.notna().sum()))',
    expect: '34',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['statsmodels.tsa.seasonal.seasonal_decompose', 'statsmodels.api.tsa.seasonal_decompose', 'statsmodels.tsa.api.seasonal_decompose'])) {
      const kw = callArgs(call)?.keywords.get('freq');
      if (kw) yield { node: kw, edits: [renameKeyword(kw, 'period')] };
    }
  },
});

const acfUnbiased = rule({
  id: 'statsmodels-acf-unbiased',
  triggers: ['unbiased'],
  library: 'statsmodels',
  title: 'acf/acovf/ccf(unbiased=)',
  old: 'acf(x, unbiased=True)',
  new: 'acf(x, adjusted=True)',
  removedIn: '0.13',
  errors: [err('TypeError', /got an unexpected keyword argument 'unbiased'/)],
  link: REL('0.12.0'),
  message: 'unbiased= was renamed adjusted= in statsmodels 0.12 and removed in 0.13',
  fixtures: [{
    before: SERIES + 'from statsmodels.tsa.stattools import acf\nprint(len(acf(s, unbiased=True, nlags=5)))',
    after: SERIES + 'from statsmodels.tsa.stattools import acf\nprint(len(acf(s, adjusted=True, nlags=5)))',
    expect: '6',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsNamed(['acf', 'acovf', 'ccf', 'ccovf', 'pacf'])) {
      const q = ctx.qname(call.childForFieldName('function'));
      if (!q || !q.startsWith('statsmodels.') || !/\.(acf|acovf|ccf|ccovf|pacf)$/.test(q)) continue;
      const kw = callArgs(call)?.keywords.get('unbiased');
      if (kw) yield { node: kw, edits: [renameKeyword(kw, 'adjusted')] };
    }
  },
});

const trendNc = rule({
  id: 'statsmodels-trend-nc',
  triggers: ['trend'],
  library: 'statsmodels',
  title: "trend='nc'",
  old: "ARIMA(s, order=(1, 0, 0), trend='nc')",
  new: "ARIMA(s, order=(1, 0, 0), trend='n')",
  removedIn: '0.13',
  errors: [err('ValueError', /Valid trend inputs are/)],
  link: REL('0.13.0'),
  message: "trend='nc' (no constant) is trend='n' in the new time-series models",
  fixtures: [{
    before: SERIES + "from statsmodels.tsa.arima.model import ARIMA\nprint(len(ARIMA(s, order=(1, 0, 0), trend='nc').fit().params))",
    after: SERIES + "from statsmodels.tsa.arima.model import ARIMA\nprint(len(ARIMA(s, order=(1, 0, 0), trend='n').fit().params))",
    expect: '2',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsNamed(['ARIMA', 'ARMA', 'SARIMAX'])) {
      const q = ctx.qname(call.childForFieldName('function'));
      if (!q || !q.startsWith('statsmodels.') || !/\.(ARIMA|ARMA|SARIMAX)$/.test(q)) continue;
      const v = kwValue(callArgs(call)?.keywords.get('trend'));
      if (v && stringValue(v) === 'nc') yield { node: v, edits: [replaceNode(v, `${quoteOf(v)}n${quoteOf(v)}`)] };
    }
  },
});

export const statsmodelsRules: Rule[] = [arimaModel, seasonalDecompose, acfUnbiased, trendNc];


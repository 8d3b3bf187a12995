/**
 * The Lars family and OrthogonalMatchingPursuit normalised X by default until scikit-learn 1.2
 * (`normalize=True`: each column centred and divided by its L2 norm before the fit, coef_ scaled back;
 * 1.0 warned "The default of 'normalize' will be set to False in version 1.2", 1.4 removed the
 * parameter). A notebook of the era that calls `LassoLars()` fitted on normalised columns; today the
 * same call fits the raw ones, and every score and prediction moves (a LassoLars alpha=1 on raw
 * features keeps different variables than on unit-norm ones).
 *
 * The pin gives each class the notebook calls without `normalize=` its old default back, through the
 * same shim that serves an explicit `normalize=True` (sklearn-normalize-shim.ts), before the first
 * scikit-learn import. The calls stay as written. Applied where the era predates 1.2, or as a candidate
 * the stored outputs must confirm when the era is unknown.
 */
import { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { importOf, shimAfterImport } from './import-shim.js';
import { NORMALIZE_DEFAULT_TRUE, normalizeShim } from './sklearn-normalize-shim.js';
import { sklearnCalls } from './sklearn.js';
import { kwValue } from './tree.js';

/** Its own marker: a notebook with the explicit-normalize shim in place still gets these classes (the shim leaves a class that has the parameter). */
const MARK = '_sk_normalize_default_';

export const LARS_NORMALIZE_CLASSES = NORMALIZE_DEFAULT_TRUE;

const FIXTURE = (shim: string) => [
  'import numpy as np',
  `${shim}from sklearn.linear_model import LassoLars`,
  'X = np.array([[1.0, 200.0], [2.0, 100.0], [3.0, 400.0], [4.0, 300.0], [5.0, 600.0]])',
  'y = np.array([1.0, 2.0, 3.5, 4.0, 5.5])',
  'print(np.round(LassoLars(alpha=0.01).fit(X, y).coef_, 4).tolist())',
].join('\n');

export const sklearnPinLarsNormalize: Rule = rule({
  id: 'sklearn-pin-lars-normalize',
  // The shim goes into the cell of the first scikit-learn import, which need not name a Lars class.
  triggers: ['sklearn'],
  library: 'scikit-learn',
  title: 'Lars, LassoLars, OrthogonalMatchingPursuit and their CV/IC variants normalised X by default (until 1.2)',
  old: 'LassoLars(alpha=0.1)',
  new: '# the call stays; a shim before the first sklearn import gives LassoLars its normalize=True default back',
  kind: 'score-calibration',
  changedIn: '1.2',
  shim: true,
  link: 'https://scikit-learn.org/1.0/whats_new/v1.0.html#sklearn-linear-model',
  message: "Lars, LassoLars, LarsCV, LassoLarsCV, LassoLarsIC and OrthogonalMatchingPursuit(CV) normalised X by default (normalize=True) until scikit-learn 1.2 (1.0 announced the change, 1.4 removed the parameter): the notebook's fit centred each column and divided it by its L2 norm; a shim gives these classes that default back",
  fixtures: [{
    before: FIXTURE(''),
    after: FIXTURE(`${normalizeShim(['LassoLars'], MARK)}\n`),
    expect: '[0.9247, 0.0016]',
    beforeOutcome: 'differs',
    context: { era: { versions: { 'scikit-learn': '0.22.2' } } },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (!ctx.nb.info.era.predates('scikit-learn', '1.2')) return;
    const classes = ctx.nb.memo('lars-default-normalize', () => {
      const out: string[] = [];
      for (const cell of ctx.nb.cells) {
        if (!LARS_NORMALIZE_CLASSES.some((c) => cell.source.includes(c))) continue;
        for (const { name, args } of sklearnCalls(new CellContext(ctx.nb, cell), LARS_NORMALIZE_CLASSES)) {
          if (args.splat || args.keywords.has('normalize') || kwValue(args.keywords.get('fit_intercept'))?.type === 'false') continue;
          if (!out.includes(name)) out.push(name);
        }
      }
      return out;
    });
    if (!classes.length) return;
    const m = shimAfterImport(ctx, { mark: MARK, text: normalizeShim(classes, MARK), qualifies: importOf('sklearn'), before: true });
    if (m) yield { ...m, message: `${sklearnPinLarsNormalize.message} (${ctx.nb.info.era.why('scikit-learn', '1.2')}; ${classes.join(', ')})` };
  },
});

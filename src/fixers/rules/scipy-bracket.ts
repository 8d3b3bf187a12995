/**
 * SciPy 1.11 made `optimize.bracket` fail loudly (PR #17704): when the downhill search from the
 * starting interval ends without a valid bracket it raises BracketError ("The algorithm terminated
 * without finding a valid bracket"), where it used to hand Brent's method the points it had and
 * Brent went on to the minimum. `stats.boxcox_normmax` and `stats.boxcox` (lmbda=None) search from
 * (-2, 2), and for skewed columns (house areas, prices) the search walks into lambdas where the
 * transformed values underflow and the objective is NaN: the classic house-prices preprocessing
 * `boxcox1p(x, boxcox_normmax(x + 1))` now stops there. The objective itself is unchanged and has one
 * minimum; a bounded scalar search over (-5, 5) finds the value the old search found (checked against
 * stored skews to six decimals), so the repair passes that optimizer at the failing call.
 *
 * Recognised from the runtime error (whether the bracket search fails depends on the data), on the
 * traceback's line.
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, callArgs } from './tree.js';
import { atRuntimeError } from './traceback.js';

const NO_BRACKET = /The algorithm terminated without finding a valid bracket/;

export const scipyBoxcoxBracket: Rule = rule({
  id: 'scipy-boxcox-bracket',
  library: 'scipy',
  title: 'boxcox_normmax / boxcox lambda search without a valid bracket (BracketError since 1.11)',
  old: 'boxcox1p(x, boxcox_normmax(x + 1))',
  new: "boxcox1p(x, boxcox_normmax(x + 1, optimizer=lambda f: scipy.optimize.minimize_scalar(f, bounds=(-5.0, 5.0), method='bounded')))",
  removedIn: '1.11',
  trigger: 'error',
  errors: [err('BracketError', NO_BRACKET)],
  link: 'https://docs.scipy.org/doc/scipy/release/1.11.0-notes.html',
  message: "since SciPy 1.11 the lambda search raises BracketError where it used to go on to the minimum: search a bounded interval instead (same objective, same minimum)",
  triggers: ['boxcox_normmax', 'boxcox'],
  fixtures: [{
    before: "import numpy as np\nfrom scipy.stats import boxcox_normmax\nx = np.concatenate([np.linspace(1300, 20000, 1400), [50000, 100000, 215245]]) + 1\nprint(round(float(boxcox_normmax(x)), 3))",
    after: "import scipy.optimize\nimport numpy as np\nfrom scipy.stats import boxcox_normmax\nx = np.concatenate([np.linspace(1300, 20000, 1400), [50000, 100000, 215245]]) + 1\nprint(round(float(boxcox_normmax(x, optimizer=lambda f: scipy.optimize.minimize_scalar(f, bounds=(-5.0, 5.0), method='bounded'))), 3))",
    expect: '0.225',
    beforeError: 'BracketError',
    context: { runtime: { ename: 'BracketError', evalue: 'The algorithm terminated without finding a valid bracket. Consider trying different initial points.' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, NO_BRACKET);
    if (!at) return;
    const { onLine } = at;
    for (const { call, qname } of ctx.callsTo(['scipy.stats.boxcox_normmax', 'scipy.stats.boxcox'])) {
      const args = callArgs(call);
      if (!args || args.splat || !onLine(call) || args.keywords.has('optimizer') || args.keywords.has('brack')) continue;
      // boxcox with a given lambda searches nothing; boxcox_normmax(x, brack, method, optimizer) positionally.
      if (qname.endsWith('.boxcox') && (args.positional.length > 1 || args.keywords.has('lmbda'))) continue;
      if (qname.endsWith('.boxcox_normmax') && args.positional.length > 1) continue;
      const ref = ctx.moduleRef('scipy.optimize', 'scipy.optimize');
      if (!ref) { yield { node: call }; continue; }
      const edit = addArgument(args, `optimizer=lambda f: ${ref.name}.minimize_scalar(f, bounds=(-5.0, 5.0), method='bounded')`);
      yield { node: call, edits: ref.edit ? [ref.edit, edit] : [edit] };
    }
  },
});

/**
 * pandas 1.0 added `display.min_rows` (default 10): a frame longer than `display.max_rows` (60) is
 * now shown as its first and last 5 rows, where pandas 0.x showed max_rows of them (30 and 30). An
 * era notebook that displays a long frame (`train`, a dummies frame) stored 60 rows; the same cell
 * here shows 10, and the stored rows in between cannot be compared (the oracle reads them as
 * missing). `display.min_rows = None` is pandas' own setting for "follow max_rows", the 0.x
 * behaviour: set once after the notebook's first pandas import. It changes what is shown, never a
 * value.
 *
 * Applied only where the era is known to predate 1.0 (a Python 2 kernel, an old date or version,
 * a removed API the notebook uses): for an unknown era it would be one more re-run per drift.
 */
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { importOf, shimAfterImport, type ShimSpec } from './import-shim.js';

const MARK = '_pd_min_rows_';

export const MIN_ROWS_SHIM = `${MARK} = __import__('pandas').set_option('display.min_rows', None)  # pandas < 1.0 showed max_rows rows of a long frame`;

const SHIM: ShimSpec = {
  mark: MARK,
  text: MIN_ROWS_SHIM,
  qualifies: importOf('pandas'),
};

export const pandasDisplayMinRows: Rule = rule({
  id: 'pandas-pin-display-min-rows',
  triggers: ['pandas'],
  library: 'pandas',
  title: 'a long frame shows 10 rows, not max_rows (pandas 1.0 display.min_rows)',
  old: 'import pandas as pd',
  new: "import pandas as pd\n_pd_min_rows_ = __import__('pandas').set_option('display.min_rows', None)",
  kind: 'score-calibration',
  shim: true,
  changedIn: '1.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#other-enhancements',
  message: 'pandas 1.0 shows a frame longer than display.max_rows as 10 rows (display.min_rows); 0.x showed max_rows of them: display.min_rows = None restores that, so the stored rows can be compared',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': range(100)})\nprint(len(repr(df).splitlines()))",
    after: `import pandas as pd\n${MIN_ROWS_SHIM}\ndf = pd.DataFrame({'a': range(100)})\nprint(len(repr(df).splitlines()))`,
    expect: '64',
    beforeOutcome: 'differs',
    context: { pythonMajor: 2 },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (!ctx.nb.info.era.knownToPredate('pandas', '1.0')) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield { ...m, message: `pandas 1.0 shows a long frame as 10 rows where 0.x showed display.max_rows of them: display.min_rows = None restores that (${ctx.nb.info.era.why('pandas', '1.0')})` };
  },
});

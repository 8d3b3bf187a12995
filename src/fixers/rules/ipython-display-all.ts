/**
 * The author's IPython displayed every expression statement's value, not only a cell's last one
 * (`InteractiveShell.ast_node_interactivity = 'all'`, usually set in a profile's
 * `ipython_config.py`, so the notebook never says it). The stored outputs say it: a cell that stored
 * two or more expression values (era-evidence.ts `shellFromStoredOutputs`). Run with IPython's
 * default, the same cell shows only its last value and every earlier one reads as missing or, paired
 * with the wrong stored value, as a drift. Setting the option once, after the notebook's first
 * import, restores what the author's shell showed; it changes what is displayed, never a value.
 */
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { shimAfterImport, type ShimSpec } from './import-shim.js';

const MARK = '_ipython_display_all_';

export const DISPLAY_ALL_SHIM = `${MARK} = get_ipython().ast_node_interactivity = 'all'  # the author's shell showed every expression's value`;

const SHIM: ShimSpec = { mark: MARK, text: DISPLAY_ALL_SHIM, qualifies: () => true };

export const ipythonDisplayAll: Rule = rule({
  id: 'env-ipython-display-all',
  gate: { nodeTypes: ['import_statement', 'import_from_statement'] },
  library: 'environment',
  title: "the author's shell displayed every expression's value (ast_node_interactivity = 'all')",
  old: 'import pandas as pd',
  new: `import pandas as pd\n${DISPLAY_ALL_SHIM}`,
  kind: 'score-calibration',
  shim: true,
  errors: [],
  link: 'https://ipython.readthedocs.io/en/stable/config/options/terminal.html#configtrait-InteractiveShell.ast_node_interactivity',
  message: "the stored outputs show several expression values in one cell, which IPython displays only with ast_node_interactivity = 'all' (a profile setting): set it so the same values are shown",
  fixtures: [{
    // The setting is the shell's, so the snippet puts the default back for whatever runs next in the kernel.
    before: "import os\nprint(get_ipython().ast_node_interactivity)\nget_ipython().ast_node_interactivity = 'last_expr'",
    after: `import os\n${DISPLAY_ALL_SHIM}\nprint(get_ipython().ast_node_interactivity)\nget_ipython().ast_node_interactivity = 'last_expr'`,
    expect: 'all',
    beforeOutcome: 'differs',
    context: { era: { shell: { displayAll: 'cell 3 stored 2 expression values' } } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const why = ctx.nb.info.era.hint.shell?.displayAll;
    if (!why) return;
    const m = shimAfterImport(ctx, SHIM);
    if (m) yield { ...m, message: `the author's shell displayed every expression's value (${why}): ast_node_interactivity = 'all' shows the same values here` };
  },
});

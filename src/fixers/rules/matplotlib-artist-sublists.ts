/**
 * Matplotlib 3.5 stopped keeping an Axes' children in per-type lists by the method that added them:
 * the sublists (`ax.artists`, `ax.patches`, `ax.lines`...) are now views of the children filtered by
 * type, so a Patch appears in `ax.patches` even when it was added with `add_artist` ("Axes children
 * are no longer separated by type"). Seaborn's box plots added each box (a PathPatch) with
 * `add_artist`, and the idiom for colouring boxes — `box = ax.artists[0]; box.set_facecolor('red')`
 * — now indexes an empty `ax.artists`: "IndexError: list index out of range". The same boxes, in the
 * same order, are `ax.patches`.
 *
 * Recognised from the runtime error, on the traceback's statement; every `.artists` of the same
 * object in the cell moves along (the next line is usually `ax.artists[1]`).
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';

const OUT_OF_RANGE = /^list index out of range$/;

export const mplArtistSublists: Rule = rule({
  id: 'mpl-artists-are-patches',
  library: 'matplotlib',
  title: "patches added with add_artist (seaborn's boxes) are in ax.patches, not ax.artists",
  old: 'ax.artists[0].set_facecolor("red")',
  new: 'ax.patches[0].set_facecolor("red")',
  removedIn: '3.5',
  trigger: 'error',
  errors: [err('IndexError', OUT_OF_RANGE)],
  link: 'https://matplotlib.org/stable/api/prev_api_changes/api_changes_3.5.0.html#axes-children-are-no-longer-separated-by-type',
  message: 'since matplotlib 3.5 a patch added with add_artist (the boxes of a seaborn box plot) is listed in ax.patches, and ax.artists is empty: index ax.patches',
  triggers: ['artists'],
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nimport pandas as pd\ndf = pd.DataFrame({'q': [1, 1, 2, 2], 'p': [1.0, 2.0, 3.0, 4.0]})\nax = sns.boxplot(x=df['q'], y=df['p'])\nbox = ax.artists[0]\nbox.set_facecolor('red')\nax.artists[1].set_facecolor('green')\nprint(box.get_facecolor())",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns\nimport pandas as pd\ndf = pd.DataFrame({'q': [1, 1, 2, 2], 'p': [1.0, 2.0, 3.0, 4.0]})\nax = sns.boxplot(x=df['q'], y=df['p'])\nbox = ax.patches[0]\nbox.set_facecolor('red')\nax.patches[1].set_facecolor('green')\nprint(box.get_facecolor())",
    expect: '(1.0, 0.0, 0.0, 1.0)',
    beforeError: 'IndexError',
    context: { runtime: { ename: 'IndexError', evalue: 'list index out of range' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, OUT_OF_RANGE);
    if (!at || ctx.nb.info.runtime?.ename !== 'IndexError') return;
    const attrs = ctx.nodes('attribute').filter((a) => a.childForFieldName('attribute')?.text === 'artists' && a.parent?.type === 'subscript' && a.parent.childForFieldName('value')?.startIndex === a.startIndex);
    // The objects whose `.artists[...]` the failing statement indexes.
    const objects = new Set(attrs.filter((a) => at.onLine(a)).map((a) => a.childForFieldName('object')!.text));
    for (const a of ctx.nodes('attribute')) {
      if (a.childForFieldName('attribute')?.text !== 'artists' || !objects.has(a.childForFieldName('object')!.text)) continue;
      yield { node: a, edits: [replaceNode(a.childForFieldName('attribute')!, 'patches')] };
    }
  },
});

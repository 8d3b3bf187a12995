/**
 * Indexing with a list that holds labels the frame does not have: pandas before 1.0 returned NaN
 * for the missing ones (deprecated in 0.21, "Indexing with list with missing labels is deprecated"),
 * pandas 1.0 raises `KeyError: "['x'] not in index"` ("Removal of prior version deprecations").
 * The faithful repair is the reindex the old indexer did implicitly: `df[cols]` ->
 * `df.reindex(columns=cols)`, `df.loc[rows]` -> `df.reindex(rows)`, `df.loc[:, cols]` ->
 * `df.reindex(columns=cols)`, `df.loc[[r1, r2], col]` -> `df.reindex([r1, r2]).loc[:, col]`.
 *
 * Recognised from the runtime error (which labels are missing is data-dependent), on the line the
 * traceback points at.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { replaceNode } from './tree.js';
import { onFrameLines } from './traceback.js';

export const pandasMissingLabelsReindex: Rule = rule({
  id: 'pandas-missing-labels-reindex',
  library: 'pandas',
  title: 'list indexing with missing labels (NaN before 1.0, KeyError since)',
  old: "df[['a', 'not_there']]",
  new: "df.reindex(columns=['a', 'not_there'])",
  removedIn: '1.0',
  deprecatedIn: '0.21',
  trigger: 'error',
  errors: [err('KeyError', /not in index/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#removal-of-prior-version-deprecations-changes',
  message: 'since pandas 1.0 list indexing with labels the frame lacks raises KeyError; the notebook ran when they came back as NaN: reindex does that explicitly',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df[['a', 'zz']].isna().sum().tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.reindex(columns=['a', 'zz']).isna().sum().tolist())",
    expect: '[0, 2]',
    beforeError: 'KeyError',
    context: { runtime: { ename: 'KeyError', evalue: `"['zz'] not in index"` } },
  }, {
    // Rows and a column at once: the rows are reindexed, the column then selected from them.
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0], 'b': [3, 4]})\nprint(df.loc[[0, 1, 99], 'a'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0], 'b': [3, 4]})\nprint(df.reindex([0, 1, 99]).loc[:, 'a'].tolist())",
    expect: '[1.0, 2.0, nan]',
    beforeError: 'KeyError',
    context: { runtime: { ename: 'KeyError', evalue: "'[99] not in index'" } },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    if (!rt || !/not in index/.test(rt.evalue)) return;
    const onLine = onFrameLines(rt.frames, ctx.index, ctx.root);
    // KeyError's message comes quoted as a whole (`'[99] not in index'`, `"['zz'] not in index"`).
    const message = /^(['"])([\s\S]*)\1$/.exec(rt.evalue.trim())?.[2] ?? rt.evalue;
    const missing = [...message.matchAll(/'([^']*)'/g)].map((m) => m[1]);
    for (const sub of ctx.nodes('subscript')) {
      if (!onLine(sub) || sub.parent?.type === 'assignment' && sub.parent.childForFieldName('left')?.startIndex === sub.startIndex) continue;
      const value = sub.childForFieldName('value');
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (!value || !keys.length) continue;
      const isLoc = value.type === 'attribute' && value.childForFieldName('attribute')?.text === 'loc';
      const frame = isLoc ? value.childForFieldName('object') : value;
      if (!frame) continue;
      // A literal list must name one of the missing labels (when the message shows them as strings).
      const mentions = (k: SyntaxNode) => k.type !== 'list' || !missing.length || missing.some((m) => k.text.includes(`'${m}'`) || k.text.includes(`"${m}"`));
      const listKey = (k: SyntaxNode) => k.type === 'list' || k.type === 'identifier';
      if (!isLoc && keys.length === 1 && listKey(keys[0]) && mentions(keys[0])) {
        yield { node: sub, edits: [replaceNode(sub, `${frame.text}.reindex(columns=${keys[0].text})`)] };
      } else if (isLoc && keys.length === 1 && listKey(keys[0]) && mentions(keys[0])) {
        yield { node: sub, edits: [replaceNode(sub, `${frame.text}.reindex(${keys[0].text})`)] };
      } else if (isLoc && keys.length === 2 && keys[0].type === 'slice' && keys[0].text.trim() === ':' && listKey(keys[1]) && mentions(keys[1])) {
        yield { node: sub, edits: [replaceNode(sub, `${frame.text}.reindex(columns=${keys[1].text})`)] };
      } else if (isLoc && keys.length === 2 && keys[0].type === 'list' && mentions(keys[0])) {
        // `.loc[rows, col]`: the rows as the old indexer gave them, then the column (a missing column
        // fails next, on `.loc[:, cols]`, and is reindexed by the case above).
        yield { node: sub, edits: [replaceNode(sub, `${frame.text}.reindex(${keys[0].text}).loc[:, ${keys[1].text}]`)] };
      }
    }
  },
});

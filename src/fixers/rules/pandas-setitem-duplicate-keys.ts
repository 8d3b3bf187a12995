/**
 * Setting through `.loc[row, key]` where `key` is a tuple of column labels that repeats one (the
 * one-hot idiom over two columns: `for i, cond in enumerate(zip(df.Condition1, df.Condition2)):
 * dummies.ix[i, cond] = 1`, where both conditions are often the same). `.ix` (removed in pandas 1.0)
 * set each listed column; in pandas 2.2 a list-like key with a repeated label that is already a
 * column appends a second column of that name, and a later write that adds a row (a label the index
 * lacks, common when the frame's index repeats after a concat) fails: "cannot reindex on an axis with
 * duplicate labels". Writing each label once is what the old code did.
 *
 * Recognised from the runtime error, on the traceback's statement, for a key held in a name (a
 * tuple at run time; any other value is passed through unchanged by the conditional).
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';

const DUPLICATE_LABELS = /cannot reindex on an axis with duplicate labels/;

export const pandasSetitemDuplicateKeys: Rule = rule({
  id: 'pandas-setitem-duplicate-keys',
  library: 'pandas',
  title: 'a tuple of column labels with a repeat in .loc[row, key] = value',
  old: 'dummies.loc[i, cond] = 1',
  new: 'dummies.loc[i, (list(dict.fromkeys(cond)) if isinstance(cond, tuple) else cond)] = 1',
  removedIn: '1.0',
  trigger: 'error',
  errors: [err('ValueError', DUPLICATE_LABELS)],
  link: 'https://pandas.pydata.org/pandas-docs/stable/whatsnew/v1.0.0.html#removal-of-prior-version-deprecations-changes',
  message: 'a repeated label in a tuple of columns now adds a duplicate column instead of setting the existing one (as .ix did), and the next write fails: write each label once',
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\nd = pd.DataFrame(np.zeros((4, 3)), columns=['a', 'b', 'c'], index=[0, 1, 0, 1])\nfor i, cond in enumerate([('a', 'a'), ('b', 'c'), ('a', 'b'), ('c', 'c')]):\n    d.loc[i, cond] = 1\nprint(d.shape, d.fillna(0).values.sum())",
    after: "import numpy as np\nimport pandas as pd\nd = pd.DataFrame(np.zeros((4, 3)), columns=['a', 'b', 'c'], index=[0, 1, 0, 1])\nfor i, cond in enumerate([('a', 'a'), ('b', 'c'), ('a', 'b'), ('c', 'c')]):\n    d.loc[i, (list(dict.fromkeys(cond)) if isinstance(cond, tuple) else cond)] = 1\nprint(d.shape, d.fillna(0).values.sum())",
    expect: '(6, 3) 9.0',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'cannot reindex on an axis with duplicate labels' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, DUPLICATE_LABELS);
    if (!at) return;
    for (const sub of ctx.nodes('subscript')) {
      // The target of an assignment: `X.loc[row, key] = value`.
      const parent = sub.parent;
      if (parent?.type !== 'assignment' || parent.childForFieldName('left')?.startIndex !== sub.startIndex || !at.onLine(sub)) continue;
      const value = sub.childForFieldName('value');
      if (value?.type !== 'attribute' || value.childForFieldName('attribute')?.text !== 'loc') continue;
      const keys = sub.childrenForFieldName('subscript').filter((k) => !!k);
      const key = keys.length === 2 ? keys[1] : undefined;
      if (key?.type !== 'identifier') continue;
      yield { node: sub, edits: [replaceNode(key, `(list(dict.fromkeys(${key.text})) if isinstance(${key.text}, tuple) else ${key.text})`)] };
    }
  },
});

/**
 * Before pandas 0.21, `df[key]` with a list-like key went through the `.ix` indexer
 * (`DataFrame._getitem_array` called `self.ix._convert_to_indexer(key, axis=1)`): integers on
 * columns that are not integer-typed were positions, so `X[np.argsort(model.feature_importances_)[-20:]]`
 * selected the 20 most important columns by position. 0.21 moved it to `.loc` (labels only); pandas
 * 2.2 raises `KeyError: "None of [Index([32, 224, ...], dtype='int64')] are in the [columns]"`.
 *
 * The integers in the message are the evidence that the key was positions. On the traced lines, a
 * subscript whose value the run says is a DataFrame (the state probe's live types, else static
 * inference) and whose key is not a column name or a mask becomes `.iloc[:, key]`. Arrays indexed
 * by the same key on the same line (`model.feature_importances_[key]`) are left alone.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { stringValue } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

// KeyError's message is the repr of pandas' text: a long index wraps, and the line breaks arrive as the two characters \\n.
const INT_COLUMNS_MISSING = /None of \[(?:Int64)?Index\(\[(?:[-\d,\s]|\\n)+\],(?:\s|\\n)*dtype='int(?:64|32)'\)\] are in the \[columns\]/;

/** A key that selects columns by name or rows by a mask: not what the positional fallback was about. */
function labelOrMask(key: SyntaxNode): boolean {
  if (stringValue(key) !== undefined || key.type === 'slice' || key.type === 'comparison_operator' || key.type === 'boolean_operator' || key.type === 'not_operator') return true;
  if (key.type === 'list' || key.type === 'tuple') return key.namedChildren.some((c) => !!c && stringValue(c) !== undefined);
  return false;
}

export const pandasGetitemPositions: Rule = rule({
  id: 'pandas-getitem-int-positions-at-error',
  library: 'pandas',
  title: 'df[int array] selecting columns by position',
  old: 'X[np.argsort(imp)[-20:]]',
  new: 'X.iloc[:, np.argsort(imp)[-20:]]',
  removedIn: '0.21',
  trigger: 'error',
  errors: [err('KeyError', INT_COLUMNS_MISSING)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.21.0.html#indexing-with-a-list-with-missing-labels-is-deprecated',
  message: "before pandas 0.21, df[list of integers] on columns that are not integers fell back to positions (the .ix indexer); now only labels: select the positions with .iloc[:, key]",
  fixtures: [{
    before: "import numpy as np, pandas as pd\nX = pd.DataFrame({'a': [1, 2], 'b': [3, 4], 'c': [5, 6]})\nimp = np.array([0.2, 0.5, 0.3])\ntop = np.argsort(imp)[-2:]\nprint(list(X[top].columns), imp[top].tolist())",
    after: "import numpy as np, pandas as pd\nX = pd.DataFrame({'a': [1, 2], 'b': [3, 4], 'c': [5, 6]})\nimp = np.array([0.2, 0.5, 0.3])\ntop = np.argsort(imp)[-2:]\nprint(list(X.iloc[:, top].columns), imp[top].tolist())",
    expect: "['c', 'b'] [0.3, 0.5]",
    beforeError: 'KeyError',
    context: { runtime: { ename: 'KeyError', evalue: "\"None of [Index([2, 1], dtype='int64')] are in the [columns]\"", lines: [5] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, INT_COLUMNS_MISSING);
    if (!at || !isTracedCell(ctx)) return;
    const types = ctx.nb.info.runtime?.types ?? {};
    const positional = (sub: SyntaxNode): SyntaxNode | undefined => {
      const value = sub.childForFieldName('value');
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (!value || keys.length !== 1 || labelOrMask(keys[0])) return undefined;
      if (value.type === 'attribute' && ['loc', 'iloc', 'ix', 'at', 'iat'].includes(value.childForFieldName('attribute')?.text ?? '')) return undefined;
      const live = types[value.text];
      return (live ? live === 'DataFrame' : ctx.nb.isDataFrameExpr(value, ctx.index)) ? keys[0] : undefined;
    };
    // The failing line's keys are positions; the same key on a frame elsewhere in the cell (the
    // next line's tick labels) is the same positions, so it is rewritten in the same step.
    const subs = ctx.nodes('subscript');
    const keys = new Set(subs.filter((s) => at.onLine(s)).map(positional).filter((k): k is SyntaxNode => !!k).map((k) => k.text));
    for (const sub of subs) {
      const key = positional(sub);
      if (!key || !keys.has(key.text)) continue;
      yield { node: sub, edits: [{ start: sub.childForFieldName('value')!.endIndex, end: key.startIndex, text: '.iloc[:, ' }] };
    }
  },
});

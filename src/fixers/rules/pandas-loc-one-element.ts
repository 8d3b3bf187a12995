/**
 * `df.loc[df['temp'] <= 5, 'temp'] = 0,` (a trailing comma makes the value the tuple `(0,)`), or
 * `= [0]`: until pandas rewrote `_setitem_with_indexer`'s split path (1.2, #37521, and the 1.x
 * refactors after it), the split path paired each column label with an element of a list-like value (`for item, v in zip(labels, value): setter(item, v)`), so one label
 * and a one-element value set that element on every selected row, and the single-block path's numpy
 * assignment broadcast it the same way. pandas 2.x only unwraps a one-element value for a list of
 * columns (`df.iloc[:3, [1]] = [0]`); for a single label and more than one selected row it raises
 * `ValueError: Must have equal len keys and value when setting with an iterable`.
 *
 * The element is written instead of the one-element tuple or list, where the column key is one
 * label (a string or an integer) and the row key selects rows by a mask, a slice or an expression
 * (never a scalar label or a name that may hold one: a one-element value written into a single
 * object cell is stored as a list, now and then). With one selected row both versions set the
 * element too, so the rewrite is exact wherever the old code ran.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { replaceNode } from './tree.js';

/** Row keys that select by mask, slice or computed labels (not a scalar label). */
const ROW_SELECTORS = new Set(['comparison_operator', 'boolean_operator', 'not_operator', 'unary_operator', 'slice', 'call', 'subscript', 'attribute', 'parenthesized_expression', 'list']);

/** A mask combined with `&` / `|`, or one of ROW_SELECTORS. */
function selectsRows(key: SyntaxNode): boolean {
  if (key.type === 'binary_operator') return /^[&|]$/.test(key.childForFieldName('operator')?.text ?? '');
  return ROW_SELECTORS.has(key.type);
}

/** The only element of a one-element tuple (`0,` or `(0,)`) or list (`[0]`), else undefined. */
function onlyElement(v: SyntaxNode): SyntaxNode | undefined {
  if (v.type !== 'expression_list' && v.type !== 'tuple' && v.type !== 'list') return undefined;
  const items = v.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
  if (items.length !== 1 || items[0]!.type === 'list_splat') return undefined;
  return items[0];
}

export const pandasLocOneElement: Rule = rule({
  id: 'pandas-loc-one-element-value',
  triggers: ['loc', 'iloc'],
  library: 'pandas',
  title: 'a one-element tuple or list set into one column of several rows',
  old: "df.loc[df['temp'] <= 5, 'temp'] = 0,",
  new: "df.loc[df['temp'] <= 5, 'temp'] = 0",
  removedIn: '1.2',
  errors: [err('ValueError', /Must have equal len keys and value when setting with an iterable/)],
  link: 'https://github.com/pandas-dev/pandas/pull/37521',
  message: "pandas before 1.2 paired each column label with an element of a list-like value, so a one-element tuple or list set its element on every selected row; pandas 2 raises 'Must have equal len keys and value': write the element",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'temp': [3.0, 7.0, 12.0, 2.0], 'name': list('abcd')})\nfor d in [df]:\n    d.loc[d['temp'] <= 5, 'temp'] = 0,\n    d.loc[(d['temp'] > 5) & (d['temp'] <= 10), 'temp'] = [1]\n    d.iloc[2:, 0] = (9,)\nprint(df['temp'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'temp': [3.0, 7.0, 12.0, 2.0], 'name': list('abcd')})\nfor d in [df]:\n    d.loc[d['temp'] <= 5, 'temp'] = 0\n    d.loc[(d['temp'] > 5) & (d['temp'] <= 10), 'temp'] = 1\n    d.iloc[2:, 0] = 9\nprint(df['temp'].tolist())",
    expect: '[0.0, 1.0, 9.0, 9.0]',
    beforeError: 'ValueError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const sub of ctx.nodes('subscript')) {
      const parent = sub.parent;
      if (parent?.type !== 'assignment' || parent.childForFieldName('left')?.startIndex !== sub.startIndex) continue;
      const indexer = sub.childForFieldName('value');
      const how = indexer?.type === 'attribute' ? indexer.childForFieldName('attribute')?.text : undefined;
      if (how !== 'loc' && how !== 'iloc') continue;
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (keys.length !== 2 || !selectsRows(keys[0]!)) continue;
      const col = keys[1]!;
      if (how === 'loc' ? col.type !== 'string' : col.type !== 'integer') continue;
      const right = parent.childForFieldName('right');
      const only = right ? onlyElement(right) : undefined;
      if (!right || !only) continue;
      yield { node: right, edits: [replaceNode(right, only.text)] };
    }
  },
});

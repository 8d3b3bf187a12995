/**
 * `df['Age'] = df.groupby('Title')['Age'].apply(lambda x: x.fillna(x.mean()))`. Until pandas 2.0,
 * when the function given to a groupby's apply returned a like-indexed result (a transform: the
 * result's index equals the group's), `group_keys` was ignored and the keys were never added to
 * the index. pandas 1.5 deprecated that and 2.0 enforced it (whatsnew 1.5.0, "Using group_keys with
 * transformers in GroupBy.apply"): with the default `group_keys=True` the result now carries the
 * group keys as an outer index level, and setting it as a column raises `TypeError: incompatible
 * index of inserted column with frame index` (or, on a MultiIndex frame, aligns to NaN).
 * `group_keys=False` is the old result, the spelling the deprecation itself gave.
 *
 * Static where the apply's result is set straight into a column: the author's run aligned it with
 * the frame, so it was a transform, for which the old behaviour is exactly `group_keys=False`. From
 * the runtime error, on the failing line's grouped applies too (the result kept in a name first).
 * The grouper is often kept in a name first (`grouped = df.groupby('MSSubClass')`, then
 * `df['LotFrontage'] = grouped['LotFrontage'].apply(...)`, in that cell or a later one): the
 * keyword then goes on the call that name holds.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, callArgs, grouperCall, methodCall } from './tree.js';
import { atRuntimeError, onFrameLines } from './traceback.js';
import type { CellContext } from './context.js';

const INCOMPATIBLE = /incompatible index of inserted column with frame index/;

const GROUPBY: ReadonlySet<string> = new Set(['groupby']);

/** `N`, `N[...]` or `N.col`: the name an apply's receiver reads its grouper from. */
function receiverName(recv: SyntaxNode): SyntaxNode | undefined {
  let node = recv;
  if (node.type === 'subscript') node = node.childForFieldName('value') ?? node;
  else if (node.type === 'attribute') node = node.childForFieldName('object') ?? node;
  return node.type === 'identifier' ? node : undefined;
}

/** The `.apply(...)` call whose receiver reads the grouper from this identifier, if it is one. */
function applyOn(id: SyntaxNode): SyntaxNode | undefined {
  let recv = id;
  const p = id.parent;
  if ((p?.type === 'subscript' && p.childForFieldName('value')?.startIndex === id.startIndex) || (p?.type === 'attribute' && p.childForFieldName('object')?.startIndex === id.startIndex && p.childForFieldName('attribute')?.text !== 'apply')) recv = p;
  const attr = recv.parent;
  if (attr?.type !== 'attribute' || attr.childForFieldName('object')?.startIndex !== recv.startIndex || attr.childForFieldName('attribute')?.text !== 'apply') return undefined;
  return attr.parent?.type === 'call' ? attr.parent : undefined;
}

/** Is `id` the target of an assignment (`N = ...`)? */
function isAssigned(id: SyntaxNode): boolean {
  const a = id.parent;
  return a?.type === 'assignment' && a.childForFieldName('left')?.startIndex === id.startIndex;
}

/**
 * Groupers of this cell kept in a name (`N = df.groupby(...)`) whose applies, until the name is
 * bound again, set a column (or fail with the error): those calls get the keyword.
 */
function* namedGroupers(ctx: CellContext): Generator<RuleMatch> {
  const rt = ctx.nb.info.runtime;
  const failing = rt && INCOMPATIBLE.test(rt.evalue) ? rt.frames ?? [] : undefined;
  for (const asg of ctx.nodes('assignment')) {
    const left = asg.childForFieldName('left');
    const right = asg.childForFieldName('right');
    if (left?.type !== 'identifier' || right?.type !== 'call' || !GROUPBY.has(methodCall(right)?.name ?? '')) continue;
    const args = callArgs(right);
    if (!args || args.splat || args.keywords.has('group_keys')) continue;
    let hit = false;
    for (const use of ctx.nb.identifiers(left.text)) {
      if (use.cell < ctx.index || (use.cell === ctx.index && use.node.startIndex <= left.startIndex)) continue;
      if (isAssigned(use.node)) break;
      const call = applyOn(use.node);
      if (!call) continue;
      const cell = ctx.nb.cells.find((c) => c.index === use.cell);
      const traced = failing?.some((f) => f.cell === use.cell) && onFrameLines(failing, use.cell, cell?.tree.rootNode)(call);
      if (setAsColumn(call) || traced) { hit = true; break; }
    }
    if (hit) yield { node: right, edits: [addArgument(args, 'group_keys=False')] };
  }
}

/** Is `call` the whole right side of `<frame>[...] = call` (or `<frame>.loc[...] = call`)? */
function setAsColumn(call: SyntaxNode): boolean {
  const a = call.parent;
  return a?.type === 'assignment' && a.childForFieldName('right')?.startIndex === call.startIndex && a.childForFieldName('left')?.type === 'subscript';
}

export const pandasGroupbyApplyGroupKeys: Rule = rule({
  id: 'pandas-groupby-apply-group-keys',
  triggers: ['apply', 'groupby'],
  gate: { source: ['groupby'] },
  library: 'pandas',
  title: "groupby(...).apply of a transform adds the group keys (group_keys respected)",
  old: "df['Age'] = df.groupby('Title')['Age'].apply(lambda x: x.fillna(x.mean()))",
  new: "df['Age'] = df.groupby('Title', group_keys=False)['Age'].apply(lambda x: x.fillna(x.mean()))",
  removedIn: '2.0',
  errors: [err('TypeError', INCOMPATIBLE)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.5.0.html#using-group-keys-with-transformers-in-groupby-apply',
  message: "until pandas 2.0 a groupby apply whose function returned a like-indexed result ignored group_keys and added no keys to the index; now the keys are added and the result no longer fits the frame: group_keys=False is the old result",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a', 'b'], 'age': [1.0, None, 3.0, 4.0]})\ndf['age'] = df.groupby('t')['age'].apply(lambda x: x.fillna(x.mean()))\nprint(df['age'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a', 'b'], 'age': [1.0, None, 3.0, 4.0]})\ndf['age'] = df.groupby('t', group_keys=False)['age'].apply(lambda x: x.fillna(x.mean()))\nprint(df['age'].tolist())",
    expect: '[1.0, 4.0, 3.0, 4.0]',
    beforeError: 'TypeError',
  }, {
    // The result kept in a name, then set: repaired from the runtime error on the failing line.
    before: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a'], 'v': [1.0, 2.0, 5.0]})\nz = df.groupby('t').v.apply(lambda x: x - x.mean()); df['z'] = z\nprint(df['z'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a'], 'v': [1.0, 2.0, 5.0]})\nz = df.groupby('t', group_keys=False).v.apply(lambda x: x - x.mean()); df['z'] = z\nprint(df['z'].tolist())",
    expect: '[-2.0, 0.0, 2.0]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: 'incompatible index of inserted column with frame index', lines: [3] } },
  }, {
    // The grouper kept in a name, its apply set as a column: the keyword goes where the name is bound.
    before: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a', 'b'], 'age': [1.0, None, 3.0, 4.0]})\ngrouped = df.groupby(['t'])\ndf['age'] = grouped['age'].apply(lambda x: x.fillna(x.mean()))\nprint(df['age'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'t': ['a', 'b', 'a', 'b'], 'age': [1.0, None, 3.0, 4.0]})\ngrouped = df.groupby(['t'], group_keys=False)\ndf['age'] = grouped['age'].apply(lambda x: x.fillna(x.mean()))\nprint(df['age'].tolist())",
    expect: '[1.0, 4.0, 3.0, 4.0]',
    beforeError: 'TypeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, INCOMPATIBLE);
    for (const { call, recv } of ctx.methodCalls(['apply'])) {
      const g = grouperCall(recv, GROUPBY);
      const args = g && callArgs(g);
      if (!g || !args || args.splat || args.keywords.has('group_keys')) continue;
      if (!setAsColumn(call) && !at?.onLine(call)) continue;
      yield { node: call, edits: [addArgument(args, 'group_keys=False')] };
    }
    yield* namedGroupers(ctx);
  },
});

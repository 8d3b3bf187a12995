/**
 * NumPy before 1.13 indexed an array with a boolean *array-like* that is not an ndarray (a list, a
 * pandas Series) as integers: `False`/`True` became positions 0 and 1 (a FutureWarning said "in the
 * future, boolean array-likes will be handled as a boolean array index"). Since 1.13 such an index is
 * a mask. The Titanic tutorial's accuracy,
 * `sum(predictions[predictions == titanic["Survived"]]) / len(predictions)`, indexes a numpy array with
 * a Series of booleans: it printed 0.7833 then, and counts the right survivors now (0.2783).
 *
 * The old result, where the era predates 1.13 (or, era unknown, as a drift candidate the stored
 * outputs then confirm): the index becomes `np.asarray(cond, dtype=int)`. Only where the indexed name
 * is bound to a numpy call's result (`np.concatenate(...)`, `np.array(...)`) and the condition
 * compares a pandas column: a pandas object indexed by a Series was a mask in every release.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { replaceNode } from './tree.js';

/** The numpy alias a name was last bound through (`predictions = np.concatenate(...)` -> `np`), in any cell up to this one. */
function numpyAlias(ctx: CellContext, name: string, before: SyntaxNode): string | undefined {
  let alias: string | undefined;
  for (const cell of ctx.nb.cells) {
    if (cell.index > ctx.index) break;
    for (const asg of cell.idx.byType.get('assignment')) {
      if (asg.childForFieldName('left')?.text !== name) continue;
      if (cell.index === ctx.index && asg.startIndex >= before.startIndex) continue;
      const right = asg.childForFieldName('right');
      const fn = right?.type === 'call' ? right.childForFieldName('function') : undefined;
      const q = fn ? ctx.nb.qname(fn, cell.index) : undefined;
      alias = q?.startsWith('numpy.') && fn?.type === 'attribute' && fn.childForFieldName('object')?.type === 'identifier' ? fn.childForFieldName('object')!.text : undefined;
    }
  }
  return alias;
}

/** A pandas column: `df["col"]`, `df.col` of a frame the notebook binds. */
function isPandasColumn(ctx: CellContext, n: SyntaxNode): boolean {
  return (n.type === 'subscript' || n.type === 'attribute') && ctx.nb.isPandasExpr(n, ctx.index);
}

const MESSAGE = 'until numpy 1.13 a boolean array-like that is not an ndarray (a pandas Series) indexed an array as the integers 0 and 1; it is a mask now: pin the integer index to keep the old value';

export const numpyBoolArraylikeIndex: Rule = rule({
  id: 'numpy-pin-bool-arraylike-index',
  library: 'numpy',
  title: 'a numpy array indexed by a boolean Series: positions 0/1 before 1.13, a mask since',
  old: 'sum(predictions[predictions == titanic["Survived"]])',
  new: 'sum(predictions[np.asarray(predictions == titanic["Survived"], dtype=int)])',
  kind: 'score-calibration',
  changedIn: '1.13',
  errors: [],
  link: 'https://numpy.org/doc/stable/release/1.13.0-notes.html',
  message: MESSAGE,
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'Survived': [1, 0, 1, 1]})\npredictions = np.concatenate([np.array([1.0, 0.0]), np.array([0.0, 1.0])])\nprint(sum(predictions[predictions == df['Survived']]) / len(predictions))",
    after: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'Survived': [1, 0, 1, 1]})\npredictions = np.concatenate([np.array([1.0, 0.0]), np.array([0.0, 1.0])])\nprint(sum(predictions[np.asarray(predictions == df['Survived'], dtype=int)]) / len(predictions))",
    expect: '0.25',
    beforeOutcome: 'differs',
    context: { era: { versions: { numpy: '1.11.0' } } },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (!ctx.nb.info.era.predates('numpy', '1.13')) return;
    for (const sub of ctx.nodes('subscript')) {
      const value = sub.childForFieldName('value');
      const index = sub.childForFieldName('subscript');
      if (value?.type !== 'identifier' || index?.type !== 'comparison_operator') continue;
      const operands = index.namedChildren.filter((c): c is SyntaxNode => !!c);
      if (operands.length !== 2 || !operands.some((o) => isPandasColumn(ctx, o))) continue;
      const np = numpyAlias(ctx, value.text, sub);
      if (!np) continue;
      yield { node: sub, edits: [replaceNode(index, `${np}.asarray(${index.text}, dtype=int)`)], message: `${MESSAGE} (${ctx.nb.info.era.why('numpy', '1.13')})` };
    }
  },
});

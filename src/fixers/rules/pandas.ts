/** pandas removals up to 2.x (1.0 and 2.0 "Removal of prior version deprecations"), plus pins. */
import { atRuntimeError, isTracedCell, onFrameLines } from './traceback.js';
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule, deleteStatement, moveModules, renameMethodCalls } from './helpers.js';
import { NONNEGATIVE_OPTIONS, resolveOption, resolveOptionPath } from './pandas-options.js';
import { literalBehind } from './param-dicts.js';
import { addArgument, callArgs, isPure, kwValue, methodCall, paren, removeArgument, renameKeyword, replaceNode, sameNode, stringValue, type Args } from './tree.js';

const PD10 = 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#removal-of-prior-version-deprecations-changes';
const PD20 = 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#removal-of-prior-version-deprecations-changes';
const PD023 = 'https://pandas.pydata.org/docs/whatsnew/v0.23.0.html#removal-of-prior-version-deprecations-changes';
const PD020 = 'https://pandas.pydata.org/docs/whatsnew/v0.20.0.html#removal-of-prior-version-deprecations-changes';

const noAttr = (names: string) => err('AttributeError', new RegExp(`object has no attribute '(${names})'`));
const noModAttr = (names: string) => err('AttributeError', new RegExp(`module 'pandas' has no attribute '(${names})'`));

function pdRef(ctx: CellContext) {
  return ctx.moduleRef('pandas', 'pd');
}

function withImport(ref: { edit?: TextEdit }, edits: TextEdit[]): TextEdit[] {
  return ref.edit ? [...edits, ref.edit] : edits;
}

/**
 * For rules fired by a runtime error matching `re`: a test that a node spans a line of the traceback's
 * frames in this cell (any line when the traceback named none); undefined when the run said something else.
 */
function onErrorLine(ctx: CellContext, re: RegExp): ((n: SyntaxNode) => boolean) | undefined {
  const rt = ctx.nb.info.runtime;
  if (!rt || !re.test(rt.evalue)) return undefined;
  return onFrameLines(rt.frames, ctx.index, ctx.root);
}

/** Names every assignment of which (`x = <right>`, anywhere in the notebook) satisfies `test`. */
function namesOnlyAssigned(ctx: CellContext, key: string, test: (right: SyntaxNode, cell: number) => boolean): Set<string> {
  return ctx.nb.memo(key, () => {
    const seen = new Map<string, boolean>();
    for (const c of ctx.nb.cells) {
      for (const a of c.idx.byType.get('assignment') ?? []) {
        const l = a.childForFieldName('left');
        const r = a.childForFieldName('right');
        if (l?.type !== 'identifier' || !r) continue;
        seen.set(l.text, (seen.get(l.text) ?? true) && test(r, c.index));
      }
    }
    return new Set([...seen].filter(([, v]) => v).map(([k]) => k));
  });
}

const ix = rule({
  id: 'pandas-ix',
  triggers: ['ix'],
  library: 'pandas',
  title: '.ix indexer',
  old: 'df.ix[rows, cols]',
  new: 'df.loc[rows, cols] / df.iloc[:, positions]',
  removedIn: '1.0',
  errors: [noAttr('ix')],
  link: PD10,
  message: '.ix was removed in pandas 1.0; use .loc (labels) or .iloc (positions)',
  fixtures: [
    {
      before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]})\nprint(df.ix[1, 'b'], df.ix[df.a > 1, 'a'].tolist(), df.ix[:, 0].tolist())",
      after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]})\nprint(df.loc[1, 'b'], df.loc[df.a > 1, 'a'].tolist(), df.iloc[:, 0].tolist())",
      expect: '5 [2, 3] [1, 2, 3]',
      beforeError: 'AttributeError',
    },
    {
      // Column positions from a range loop: .iloc for whole columns, the position's label with row labels.
      before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nfor i in range(df.shape[1]):\n    print(df.ix[:, i].tolist())\nout = pd.DataFrame(0, index=[5, 6], columns=['x', 'y'])\nfor r, label in enumerate(out.index):\n    for c in range(2):\n        out.ix[label, c] = df.ix[r, 'a'] + c\nprint(out.values.tolist())",
      after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nfor i in range(df.shape[1]):\n    print(df.iloc[:, i].tolist())\nout = pd.DataFrame(0, index=[5, 6], columns=['x', 'y'])\nfor r, label in enumerate(out.index):\n    for c in range(2):\n        out.loc[label, out.columns[c]] = df.loc[r, 'a'] + c\nprint(out.values.tolist())",
      expect: '[1, 2]\n[3, 4]\n[[1, 2], [2, 3]]',
      beforeError: 'AttributeError',
    },
    {
      // A list of positions with a negative one (first and last column).
      before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6], 'c': [7, 8, 9]})\nprint(df.ix[:, [0, -1]].columns.tolist())",
      after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6], 'c': [7, 8, 9]})\nprint(df.iloc[:, [0, -1]].columns.tolist())",
      expect: "['a', 'c']",
      beforeError: 'AttributeError',
    },
    {
      before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]})\nprint(df.ix[0:1, 0:1].shape)",
      manual: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]})\nprint(df.iloc[0:2, 0:1].shape)",
      expect: '(2, 1)',
      beforeError: 'AttributeError',
    },
  ],
  *find(ctx) {
    for (const { node: attr, nameNode: name } of ctx.attributesNamed(['ix'])) {
      const sub = attr.parent;
      if (!sub || sub.type !== 'subscript' || !sameNode(sub.childForFieldName('value'), attr)) continue;
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      const positional = (k: SyntaxNode) => isIntLike(k) || isRangeLoopVariable(k);
      const recv = attr.childForFieldName('object');
      if (keys.length <= 1) {
        yield { node: attr, edits: [replaceNode(name, 'loc')] };
      } else if (keys.length === 2 && !positional(keys[1])) {
        yield { node: attr, edits: [replaceNode(name, 'loc')] };
      } else if (keys.length === 2 && positional(keys[1]) && (isFullSlice(keys[0]) || keys[0].type === 'integer')) {
        yield { node: attr, edits: [replaceNode(name, 'iloc')] };
      } else if (keys.length === 2 && recv && isPure(recv) && !isIntLike(keys[0]) && keys[1].type !== 'slice') {
        // Rows by label, columns by position (.ix decided per axis; column labels of a read frame are
        // strings): the position picks the label, `.loc[rows, df.columns[i]]`, which is also right on
        // a default integer column index, where label and position agree.
        yield { node: attr, edits: [replaceNode(name, 'loc'), replaceNode(keys[1], `${recv.text}.columns[${keys[1].text}]`)] };
      } else {
        yield { node: attr, message: '.ix was removed in pandas 1.0: these columns are positions, so use .iloc, but .ix row slices on an integer index were label-based and inclusive (`.ix[0:5]` is `.iloc[0:6]` on a default index); rewrite by hand' };
      }
    }
  },
});

function isIntLike(k: SyntaxNode): boolean {
  if (k.type === 'integer') return true;
  if (k.type === 'unary_operator') return k.childForFieldName('argument')?.type === 'integer';
  if (k.type === 'slice') return k.namedChildren.length > 0 && k.namedChildren.every((c) => !c || c.type === 'integer' || c.type === 'unary_operator');
  // `[0, -1]`: the first and last column, a negative position among them.
  if (k.type === 'list') return k.namedChildren.length > 0 && k.namedChildren.every((c) => !c || c.type === 'integer' || (c.type === 'unary_operator' && c.childForFieldName('argument')?.type === 'integer'));
  return false;
}

/**
 * A loop variable of an enclosing `for i in range(...)` (or the counter of `for i, x in enumerate(...)`):
 * an int, so on a frame's string column labels `.ix` took it as a position.
 */
function isRangeLoopVariable(k: SyntaxNode): boolean {
  if (k.type !== 'identifier') return false;
  for (let n = k.parent; n; n = n.parent) {
    if (n.type !== 'for_statement') continue;
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    const fn = right?.type === 'call' ? right.childForFieldName('function')?.text : undefined;
    if (fn === 'range' && left?.type === 'identifier' && left.text === k.text) return true;
    if (fn === 'enumerate' && (left?.type === 'pattern_list' || left?.type === 'tuple_pattern') && left.namedChildren[0]?.text === k.text) return true;
  }
  return false;
}

function isFullSlice(k: SyntaxNode): boolean {
  return k.type === 'slice' && k.namedChildren.filter((c) => c && c.type !== 'comment').length === 0;
}

const APPEND_KW = ['ignore_index', 'sort', 'verify_integrity'];

/** A Series standing for a row: `pd.Series(...)`, `df.iloc[i]` / `df.loc[label]` with one scalar key. */
function isSeriesRow(ctx: CellContext, n: SyntaxNode): boolean {
  if (n.type === 'call') return ctx.qname(n.childForFieldName('function')) === 'pandas.Series';
  if (n.type !== 'subscript') return false;
  const v = n.childForFieldName('value');
  const keys = n.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
  return !!v && v.type === 'attribute' && ['iloc', 'loc'].includes(v.childForFieldName('attribute')?.text ?? '') &&
    keys.length === 1 && ['integer', 'string', 'identifier'].includes(keys[0].type) && ctx.nb.isDataFrameExpr(v.childForFieldName('object')!, ctx.index);
}

const DICT_LITERAL: ReadonlySet<string> = new Set(['dictionary']);

const append = rule({
  id: 'pandas-append',
  triggers: ['append'],
  library: 'pandas',
  title: 'DataFrame.append / Series.append',
  old: 'df = df.append(other, ignore_index=True)',
  new: 'df = pd.concat([df, other], ignore_index=True)',
  removedIn: '2.0',
  errors: [noAttr('append')],
  link: PD20,
  message: 'DataFrame.append/Series.append were removed in pandas 2.0; use pd.concat',
  fixtures: [
    {
      before: "import pandas as pd\na = pd.DataFrame({'x': [1]})\nb = pd.DataFrame({'x': [2]})\na = a.append(b, ignore_index=True)\na = a.append({'x': 3}, ignore_index=True)\nprint(a.x.tolist())",
      after: "import pandas as pd\na = pd.DataFrame({'x': [1]})\nb = pd.DataFrame({'x': [2]})\na = pd.concat([a, b], ignore_index=True)\na = pd.concat([a, pd.DataFrame([{'x': 3}])], ignore_index=True)\nprint(a.x.tolist())",
      expect: '[1, 2, 3]',
      beforeError: 'AttributeError',
    },
    {
      before: "import pandas as pd\nres = pd.DataFrame(columns=['model', 'score'])\nres = res.append(pd.Series(['rf', 0.8], index=['model', 'score']), ignore_index=True)\ndf = pd.DataFrame({'x': [1.5], 'y': ['a']})\ndf = df.append(df.iloc[0])\nprint(res.values.tolist(), df.index.tolist(), df.dtypes.astype(str).tolist())",
      after: "import pandas as pd\nres = pd.DataFrame(columns=['model', 'score'])\nres = pd.concat([res, pd.Series(['rf', 0.8], index=['model', 'score']).to_frame().T.infer_objects()], ignore_index=True)\ndf = pd.DataFrame({'x': [1.5], 'y': ['a']})\ndf = pd.concat([df, df.iloc[0].to_frame().T.infer_objects()])\nprint(res.values.tolist(), df.index.tolist(), df.dtypes.astype(str).tolist())",
      expect: "[['rf', 0.8]] [0, 0] ['float64', 'object']",
      beforeError: 'AttributeError',
    },
    {
      before: "import pandas as pd\ndf = pd.DataFrame({'x': [1]})\nrow = df.iloc[0]\ndf = df.append(row)\nprint(len(df))",
      manual: "import pandas as pd\ndf = pd.DataFrame({'x': [1]})\nrow = df.iloc[0]\ndf = pd.concat([df, row.to_frame().T])\nprint(len(df))",
      expect: '2',
      beforeError: 'AttributeError',
    },
    {
      // A row built as a dict under a name in the loop that appends it (a results table).
      before: "import pandas as pd\nresults = pd.DataFrame()\nfor name, score in [('lr', 0.8), ('rf', 0.9)]:\n    data = {'model': name, 'score': score}\n    results = results.append(data, ignore_index=True)\nprint(results.values.tolist())",
      after: "import pandas as pd\nresults = pd.DataFrame()\nfor name, score in [('lr', 0.8), ('rf', 0.9)]:\n    data = {'model': name, 'score': score}\n    results = pd.concat([results, pd.DataFrame([data])], ignore_index=True)\nprint(results.values.tolist())",
      expect: "[['lr', 0.8], ['rf', 0.9]]",
      beforeError: 'AttributeError',
    },
    {
      // A receiver only the runtime error types: a function's parameter.
      before: "import pandas as pd\ndef combine(a, b):\n    return a.append(b)\nprint(combine(pd.Series([1, 2]), pd.Series([3])).sum())",
      after: "import pandas as pd\ndef combine(a, b):\n    return pd.concat([a, b])\nprint(combine(pd.Series([1, 2]), pd.Series([3])).sum())",
      expect: '6',
      beforeError: 'AttributeError',
      context: { runtime: { ename: 'AttributeError', evalue: "'Series' object has no attribute 'append'" } },
    },
    {
      // Frames bound by a tuple assignment and a loop over a list of them.
      before: "import pandas as pd\ntrain, test = pd.DataFrame({'x': [1]}), pd.DataFrame({'x': [2]})\nfull = train.append(test)\nfor d in [train, test]:\n    print(d.append(full, ignore_index=True).x.tolist())",
      after: "import pandas as pd\ntrain, test = pd.DataFrame({'x': [1]}), pd.DataFrame({'x': [2]})\nfull = pd.concat([train, test])\nfor d in [train, test]:\n    print(pd.concat([d, full], ignore_index=True).x.tolist())",
      expect: '[1, 1, 2]\n[2, 1, 2]',
      beforeError: 'AttributeError',
    },
  ],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['append'])) {
      const args = callArgs(call);
      if (!args) continue;
      const kws = [...args.keywords.keys()];
      const pandasKw = kws.some((k) => APPEND_KW.includes(k));
      const recvFrame = ctx.nb.isPandasExpr(recv, ctx.index);
      const valueUsed = call.parent?.type !== 'expression_statement';
      if (!recvFrame && !pandasKw) continue;
      if (!recvFrame && !valueUsed) continue;
      if (args.positional.length !== 1 || args.splat || kws.some((k) => !APPEND_KW.includes(k))) { yield { node: call }; continue; }
      const other = args.positional[0];
      let items: string[] | undefined;
      const ref = pdRef(ctx);
      if (!ref) { yield { node: call }; continue; }
      // A dict row (a literal, or a name the cell binds once to one): the old append made it a one-row frame.
      if (literalBehind(ctx, other, DICT_LITERAL).type === 'dictionary') items = [`${ref.name}.DataFrame([${other.text}])`];
      else if (ctx.nb.isDataFrameExpr(other, ctx.index)) items = [other.text];
      else if (other.type === 'list' && other.namedChildren.every((c) => !c || c.type === 'comment' || ctx.nb.isDataFrameExpr(c, ctx.index))) {
        items = other.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map((c) => c.text);
      } else if (!ctx.nb.isDataFrameExpr(recv, ctx.index) && ctx.nb.isPandasExpr(recv, ctx.index) && ctx.nb.isPandasExpr(other, ctx.index) && !ctx.nb.isDataFrameExpr(other, ctx.index)) {
        items = [other.text]; // Series.append(Series)
      } else if ((ctx.nb.isDataFrameExpr(recv, ctx.index) || ctx.nb.evidenceType(recv, ctx.index) === 'DataFrame') && isSeriesRow(ctx, other)) {
        // DataFrame.append(row): the row became a one-row frame (columns from its index), soft-converted.
        items = [`${paren(other)}.to_frame().T.infer_objects()`];
      } else if (['Series', 'DataFrame'].includes(ctx.nb.evidenceType(recv, ctx.index) ?? '') && !['list', 'tuple', 'dictionary'].includes(other.type) && !isSeriesRow(ctx, other)) {
        // The error names the receiver's type (a function parameter, say); the other operand is most
        // likely of the same kind. Only proposed from the error, so the stored outputs verify it.
        items = [other.text];
      }
      if (!items) {
        yield { node: call, message: "DataFrame.append was removed in pandas 2.0: use pd.concat([df, other]); if `other` is a row (a dict or a Series), wrap it first: pd.DataFrame([row]) / row.to_frame().T" };
        continue;
      }
      const kwText = args.all.filter((a) => a.type === 'keyword_argument').map((a) => a.text);
      const text = `${ref.name}.concat([${[recv.text, ...items].join(', ')}]${kwText.length ? ', ' + kwText.join(', ') : ''})`;
      yield { node: call, edits: withImport(ref, [replaceNode(call, text)]) };
    }
  },
});

const asMatrix = rule({
  id: 'pandas-as-matrix',
  triggers: ['as_matrix'],
  library: 'pandas',
  title: 'DataFrame.as_matrix()',
  old: 'df.as_matrix(columns)',
  new: 'df[columns].values',
  removedIn: '1.0',
  errors: [noAttr('as_matrix')],
  link: PD10,
  message: 'as_matrix was removed in pandas 1.0; use .values (or .to_numpy())',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.as_matrix().sum(), df.as_matrix(['b']).sum())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.values.sum(), df[['b']].values.sum())",
    expect: '10 7',
    beforeError: 'AttributeError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.as_matrix(columns=('a', 'b')).shape)",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df[['a', 'b']].values.shape)",
    expect: '(2, 2)',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['as_matrix'])) {
      const args = callArgs(call);
      if (!args) continue;
      const cols = args.positional[0] ?? kwValue(args.keywords.get('columns'));
      if (args.all.length === 0) yield { node: call, edits: [replaceNode(call, `${recv.text}.values`)] };
      // A tuple of names was a list of columns to as_matrix; as a key it is one (MultiIndex) label.
      else if (cols && args.all.length === 1) yield { node: call, edits: [replaceNode(call, `${paren(recv)}[${cols.type === 'tuple' ? `[${cols.text.slice(1, -1)}]` : cols.text}].values`)] };
      else yield { node: call };
    }
  },
});

const getSetValue = rule({
  id: 'pandas-get-set-value',
  triggers: ['get_value', 'set_value'],
  library: 'pandas',
  title: 'get_value / set_value',
  old: 'df.get_value(i, c); df.set_value(i, c, v)',
  new: 'df.at[i, c]; df.at[i, c] = v',
  removedIn: '1.0',
  errors: [noAttr('get_value|set_value')],
  link: PD10,
  message: 'get_value/set_value were removed in pandas 1.0; use .at / .iat',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\ndf.set_value(0, 'a', 9)\nprint(df.get_value(0, 'a'), df.get_value(1, 0, takeable=True))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\ndf.at[0, 'a'] = 9\nprint(df.at[0, 'a'], df.iat[1, 0])",
    expect: '9 2',
    beforeError: 'AttributeError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0, 3.0]})\ndf.set_value(df[df.a > 1].index, 'a', 0.5)\ni = 2\nprint(df.a.tolist(), df.get_value(i, 'a'))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, 2.0, 3.0]})\ndf.loc[df[df.a > 1].index, 'a'] = 0.5\ni = 2\nprint(df.a.tolist(), df.loc[i, 'a'])",
    expect: '[1.0, 0.5, 0.5] 0.5',
    beforeError: 'AttributeError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, None, 3.0]})\n_ = df.set_value(df.a.isnull(), 'a', 2.0)\ndf = df.set_value(0, 'a', 0.5)\nprint(df.a.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1.0, None, 3.0]})\ndf.loc[df.a.isnull(), 'a'] = 2.0\ndf.at[0, 'a'] = 0.5\nprint(df.a.tolist())",
    expect: '[0.5, 2.0, 3.0]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv, name } of ctx.methodCalls(['get_value', 'set_value'])) {
      const args = callArgs(call);
      if (!args || args.splat) { yield { node: call }; continue; }
      const take = kwValue(args.keywords.get('takeable'));
      if (args.keywords.size > (take ? 1 : 0) || (take && take.type !== 'true' && take.type !== 'false')) { yield { node: call }; continue; }
      // .at/.iat take scalar labels only; set_value/get_value also accepted list-likes (then .loc/.iloc).
      const scalar = args.positional.length >= 2 && ['integer', 'string', 'float'].includes(args.positional[0].type) && ['integer', 'string', 'float'].includes(args.positional[1].type);
      const acc = take?.type === 'true' ? (scalar ? 'iat' : 'iloc') : scalar ? 'at' : 'loc';
      const pos = args.positional.map((a) => a.text);
      if (name === 'get_value' && (pos.length === 2 || pos.length === 1)) {
        yield { node: call, edits: [replaceNode(call, `${paren(recv)}.${acc}[${pos.join(', ')}]`)] };
      } else if (name === 'set_value' && pos.length >= 2 && call.parent?.type === 'expression_statement') {
        const value = pos[pos.length - 1];
        yield { node: call, edits: [replaceNode(call, `${paren(recv)}.${acc}[${pos.slice(0, -1).join(', ')}] = ${value}`)] };
      } else if (name === 'set_value' && pos.length >= 2 && call.parent?.type === 'assignment' && call.parent.parent?.type === 'expression_statement'
        && [`_`, recv.text].includes(call.parent.childForFieldName('left')?.text ?? '')) {
        // `_ = df.set_value(...)` (the author silencing the returned frame) or `df = df.set_value(...)`
        // (set_value changed df in place and returned it): the assignment adds nothing.
        const value = pos[pos.length - 1];
        yield { node: call, edits: [replaceNode(call.parent, `${paren(recv)}.${acc}[${pos.slice(0, -1).join(', ')}] = ${value}`)] };
      } else yield { node: call };
    }
  },
});

const fromCsv = rule({
  id: 'pandas-from-csv',
  triggers: ['from_csv'],
  library: 'pandas',
  title: 'DataFrame.from_csv',
  old: 'pd.DataFrame.from_csv(path)',
  new: 'pd.read_csv(path, index_col=0, parse_dates=True)',
  removedIn: '1.0',
  errors: [err('AttributeError', /has no attribute 'from_csv'/)],
  link: PD10,
  message: 'DataFrame.from_csv was removed in pandas 1.0; use pd.read_csv(path, index_col=0, parse_dates=True)',
  fixtures: [{
    before: "import io\nimport pandas as pd\ndf = pd.DataFrame.from_csv(io.StringIO('d,v\\n2020-01-01,1\\n'))\nprint(df.index.dtype.kind, df.v.sum())",
    after: "import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('d,v\\n2020-01-01,1\\n'), index_col=0, parse_dates=True)\nprint(df.index.dtype.kind, df.v.sum())",
    expect: 'M 1',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsTo(['pandas.DataFrame.from_csv'])) {
      const args = callArgs(call)!;
      const obj = fn.childForFieldName('object')!.childForFieldName('object')!;
      const extra: string[] = [];
      if (!args.keywords.has('index_col') && args.positional.length < 4) extra.push('index_col=0');
      if (!args.keywords.has('parse_dates') && args.positional.length < 5) extra.push('parse_dates=True');
      if (args.positional.length > 1) { yield { node: call }; continue; }
      const edits = [replaceNode(fn, `${obj.text}.read_csv`)];
      if (extra.length) edits.push(addArgument(args, extra.join(', ')));
      yield { node: call, edits };
    }
  },
});

const convertObjects = rule({
  id: 'pandas-convert-objects',
  triggers: ['convert_objects'],
  library: 'pandas',
  title: 'DataFrame.convert_objects',
  old: 'df.convert_objects(convert_numeric=True)',
  new: "df.apply(pd.to_numeric, errors='coerce') / df.infer_objects()",
  removedIn: '1.0',
  errors: [noAttr('convert_objects')],
  link: PD10,
  message: "convert_objects was removed in pandas 1.0: convert_objects() is infer_objects(); with convert_numeric=True each object column (after that inference) was coerced with to_numeric unless the result was all NaN, which the rewrite spells out",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': ['1', 'x', '2.5'], 'b': ['u', 'v', 'w'], 'c': pd.Series([1, 2, 3], dtype=object)})\nout = df.convert_objects(convert_numeric=True)\nprint(out.dtypes.astype(str).tolist(), out.a.sum(), out.b.tolist(), df.convert_objects().c.dtype)",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': ['1', 'x', '2.5'], 'b': ['u', 'v', 'w'], 'c': pd.Series([1, 2, 3], dtype=object)})\nout = df.infer_objects().apply(lambda s: s if s.dtype != object or pd.to_numeric(s, errors='coerce').isna().all() else pd.to_numeric(s, errors='coerce'))\nprint(out.dtypes.astype(str).tolist(), out.a.sum(), out.b.tolist(), df.infer_objects().c.dtype)",
    expect: "['float64', 'object', 'int64'] 3.5 ['u', 'v', 'w'] int64",
    beforeError: 'AttributeError',
  }, {
    before: "import pandas as pd\ns = pd.Series(['1', 'x'])\nprint(s.convert_objects(convert_numeric=True).sum())",
    manual: "import pandas as pd\ns = pd.Series(['1', 'x'])\nprint(pd.to_numeric(s, errors='coerce').sum())",
    expect: '1.0',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv, nameNode } of ctx.methodCalls(['convert_objects'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.positional.length) { yield { node: call }; continue; }
      const kws = [...args.keywords.keys()];
      if (kws.some((k) => k !== 'convert_numeric' && k !== 'copy')) { yield { node: call }; continue; }
      const numeric = kwValue(args.keywords.get('convert_numeric'));
      const argList = args.all.length ? { start: args.all[0].startIndex, end: args.all[args.all.length - 1].endIndex } : undefined;
      const infer = [replaceNode(nameNode, 'infer_objects'), ...(argList ? [{ ...argList, text: '' }] : [])];
      if (!numeric || numeric.type === 'false') { yield { node: call, edits: infer }; continue; }
      const ref = pdRef(ctx);
      const frame = ctx.nb.isDataFrameExpr(recv, ctx.index) || ctx.nb.evidenceType(recv, ctx.index) === 'DataFrame';
      if (numeric.type !== 'true' || !ref || !frame) { yield { node: call }; continue; }
      const tn = `${ref.name}.to_numeric(s, errors='coerce')`;
      yield { node: call, edits: withImport(ref, [...infer, { start: call.endIndex, end: call.endIndex, text: `.apply(lambda s: s if s.dtype != object or ${tn}.isna().all() else ${tn})` }]) };
    }
  },
});

const ROLLING = ['mean', 'sum', 'std', 'var', 'median', 'min', 'max', 'count', 'skew', 'kurt', 'apply', 'quantile', 'corr', 'cov'];
const WINDOW_KW = new Set(['min_periods', 'center', 'win_type']);

function windowMoment(ctx: CellContext, call: SyntaxNode, kind: 'rolling' | 'expanding', fnName: string): RuleMatch {
  const args = callArgs(call)!;
  const pos = args.positional;
  const binary = fnName === 'corr' || fnName === 'cov';
  const nData = binary ? 2 : 1;
  const needsArg = fnName === 'apply' || fnName === 'quantile';
  if (args.splat || pos.length < nData) return { node: call };
  const data = pos[0];
  const other = binary ? pos[1] : undefined;
  let rest = pos.slice(nData);
  const windowArgs: string[] = [];
  if (kind === 'rolling') {
    const w = rest[0] ?? kwValue(args.keywords.get('window'));
    if (!w) return { node: call };
    windowArgs.push(w.text);
    rest = rest.slice(1);
  }
  let methodArg: string | undefined;
  if (needsArg) {
    const a = rest[0] ?? kwValue(args.keywords.get(fnName === 'apply' ? 'func' : 'quantile'));
    if (!a) return { node: call };
    methodArg = a.text;
    rest = rest.slice(1);
  }
  if (rest.length) return { node: call };
  for (const [k, kw] of args.keywords) {
    if (k === 'window' || k === 'func' || k === 'quantile') continue;
    if (!WINDOW_KW.has(k)) return { node: call, message: `pd.${kind}_${fnName} was removed in pandas 0.23; its ${k}= argument has no direct equivalent in .${kind}(); rewrite as ${data.text}.${kind}(...).${fnName}() by hand` };
    windowArgs.push(kw.text);
  }
  const margs = [other?.text, methodArg].filter(Boolean).join(', ');
  return { node: call, edits: [replaceNode(call, `${paren(data)}.${kind}(${windowArgs.join(', ')}).${fnName}(${margs})`)] };
}

const rollingFns = rule({
  id: 'pandas-rolling-functions',
  triggers: [...ROLLING.flatMap((f) => [`rolling_${f}`, `expanding_${f}`]), 'rolling_window'],
  library: 'pandas',
  title: 'pd.rolling_* / pd.expanding_* functions',
  old: 'pd.rolling_mean(s, 3)',
  new: 's.rolling(3).mean()',
  removedIn: '0.23',
  errors: [noModAttr('(rolling|expanding)_\\w+')],
  link: PD023,
  message: 'the pd.rolling_*/pd.expanding_* functions were removed in pandas 0.23; use the .rolling()/.expanding() methods',
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0, 4.0])\nprint(pd.rolling_mean(s, 2).tolist()[-1], pd.rolling_std(s, window=2, min_periods=1).iloc[-1].round(3), pd.expanding_sum(s).iloc[-1], pd.rolling_window(s, 2, 'boxcar').iloc[-1])",
    after: "import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0, 4.0])\nprint(s.rolling(2).mean().tolist()[-1], s.rolling(2, min_periods=1).std().iloc[-1].round(3), s.expanding().sum().iloc[-1], s.rolling(2, win_type='boxcar').mean().iloc[-1])",
    expect: '3.5 0.707 10.0 3.5',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const names: string[] = [];
    for (const f of ROLLING) names.push(`pandas.rolling_${f}`, `pandas.expanding_${f}`);
    for (const { call, qname } of ctx.callsTo(names)) {
      const [kind, fn] = qname.slice(7).split('_') as ['rolling' | 'expanding', string];
      yield windowMoment(ctx, call, kind, fn);
    }
    // pd.rolling_window(arg, window, win_type, ..., mean=True)
    for (const { call } of ctx.callsTo(['pandas.rolling_window'])) {
      const args = callArgs(call)!;
      const [data, win, wt] = args.positional;
      const winT = wt ?? kwValue(args.keywords.get('win_type'));
      const others = [...args.keywords.keys()].filter((k) => !['win_type', 'mean', 'min_periods', 'center', 'window'].includes(k));
      const w = win ?? kwValue(args.keywords.get('window'));
      const mean = kwValue(args.keywords.get('mean'));
      if (!data || !w || args.positional.length > 3 || others.length || args.splat || (mean && mean.type !== 'true' && mean.type !== 'false')) { yield { node: call }; continue; }
      const parts = [w.text, ...(winT ? [`win_type=${winT.text}`] : []), ...['min_periods', 'center'].filter((k) => args.keywords.has(k)).map((k) => args.keywords.get(k)!.text)];
      yield { node: call, edits: [replaceNode(call, `${paren(data)}.rolling(${parts.join(', ')}).${mean?.type === 'false' ? 'sum' : 'mean'}()`)] };
    }
  },
});

const EWM: Record<string, string> = { ewma: 'mean', ewmstd: 'std', ewmvar: 'var', ewmvol: 'std' };
const EWM_KW = new Set(['com', 'span', 'halflife', 'alpha', 'min_periods', 'adjust', 'ignore_na']);

const ewmFns = rule({
  id: 'pandas-ewm-functions',
  triggers: Object.keys(EWM),
  library: 'pandas',
  title: 'pd.ewma / pd.ewmstd / pd.ewmvar',
  old: 'pd.ewma(s, span=10)',
  new: 's.ewm(span=10).mean()',
  removedIn: '0.23',
  errors: [noModAttr('ewm\\w+')],
  link: PD023,
  message: 'pd.ewma/ewmstd/ewmvar were removed in pandas 0.23; use s.ewm(...).mean()/.std()/.var()',
  fixtures: [{
    before: 'import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0])\nprint(pd.ewma(s, span=2).round(3).tolist())',
    after: 'import pandas as pd\ns = pd.Series([1.0, 2.0, 3.0])\nprint(s.ewm(span=2).mean().round(3).tolist())',
    expect: '[1.0, 1.75, 2.615]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, qname } of ctx.callsTo(Object.keys(EWM).map((k) => `pandas.${k}`))) {
      const args = callArgs(call)!;
      const pos = args.positional;
      if (args.splat || pos.length < 1 || pos.length > 2 || [...args.keywords.keys()].some((k) => !EWM_KW.has(k))) { yield { node: call }; continue; }
      const kw = [...(pos[1] ? [`com=${pos[1].text}`] : []), ...[...args.keywords.values()].map((k) => k.text)];
      yield { node: call, edits: [replaceNode(call, `${paren(pos[0])}.ewm(${kw.join(', ')}).${EWM[qname.slice(7)]}()`)] };
    }
  },
});

const sortRule = rule({
  id: 'pandas-sort',
  triggers: ['sort'],
  library: 'pandas',
  title: 'DataFrame.sort(columns=)',
  old: "df.sort(columns='a', ascending=False)",
  new: "df.sort_values(by='a', ascending=False)",
  removedIn: '0.20',
  errors: [noAttr('sort')],
  link: PD020,
  message: 'DataFrame.sort was removed in pandas 0.20; use sort_values (or sort_index)',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [2, 1, 3]})\nprint(df.sort(columns='a', ascending=False).a.tolist(), df.sort('a').a.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [2, 1, 3]})\nprint(df.sort_values(by='a', ascending=False).a.tolist(), df.sort_values('a').a.tolist())",
    expect: '[3, 2, 1] [1, 2, 3]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv, nameNode } of ctx.methodCalls(['sort'])) {
      const args = callArgs(call);
      if (!args) continue;
      const kws = [...args.keywords.keys()];
      if (kws.some((k) => ['key', 'reverse', 'cmp'].includes(k))) continue; // list.sort
      const frame = ctx.nb.isPandasExpr(recv, ctx.index);
      if (args.positional.length === 0 && !args.keywords.has('columns') && !(frame && kws.length)) {
        if (frame && args.all.length === 0) yield { node: call, edits: [replaceNode(nameNode, 'sort_index')] };
        continue;
      }
      const edits = [replaceNode(nameNode, 'sort_values')];
      const cols = args.keywords.get('columns');
      if (cols) edits.push(renameKeyword(cols, 'by'));
      yield { node: call, edits };
    }
  },
});

const orderRule = rule({
  id: 'pandas-order',
  triggers: ['order'],
  library: 'pandas',
  title: 'Series.order()',
  old: 's.order(ascending=False)',
  new: 's.sort_values(ascending=False)',
  removedIn: '0.20',
  errors: [noAttr('order')],
  link: PD020,
  message: 'Series.order was removed in pandas 0.20; use sort_values',
  fixtures: [{
    before: 'import pandas as pd\ns = pd.Series([2, 1, 3])\nprint(s.order(ascending=False).tolist())',
    after: 'import pandas as pd\ns = pd.Series([2, 1, 3])\nprint(s.sort_values(ascending=False).tolist())',
    expect: '[3, 2, 1]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { order: 'sort_values' }, ({ args }) => !!args && args.positional.length === 0);
  },
});

const sortIndexBy = rule({
  id: 'pandas-sort-index-by',
  triggers: ['sort_index'],
  library: 'pandas',
  title: 'sort_index(by=)',
  old: "df.sort_index(by='a')",
  new: "df.sort_values(by='a')",
  removedIn: '0.20',
  errors: [err('TypeError', /sort_index\(\) got an unexpected keyword argument 'by'/)],
  link: PD020,
  message: "sort_index(by=) was removed in pandas 0.20; use sort_values(by=)",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [2, 1]})\nprint(df.sort_index(by='a').a.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [2, 1]})\nprint(df.sort_values(by='a').a.tolist())",
    expect: '[1, 2]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { sort_index: 'sort_values' }, ({ args }) => !!args?.keywords.has('by'));
  },
});

const PLOTTING_FNS = ['scatter_matrix', 'parallel_coordinates', 'andrews_curves', 'radviz', 'lag_plot', 'autocorrelation_plot', 'bootstrap_plot'];

const plottingModule = rule({
  id: 'pandas-tools-plotting',
  triggers: ['tools', ...PLOTTING_FNS],
  library: 'pandas',
  title: 'pandas.tools.plotting / pd.scatter_matrix',
  old: 'from pandas.tools.plotting import scatter_matrix; pd.scatter_matrix(df)',
  new: 'from pandas.plotting import scatter_matrix; pd.plotting.scatter_matrix(df)',
  removedIn: '1.0',
  errors: [err('ModuleNotFoundError', /No module named 'pandas\.tools'/), noModAttr(PLOTTING_FNS.join('|'))],
  link: PD10,
  message: 'pandas.tools.plotting and the top-level pd.scatter_matrix were removed; use pandas.plotting',
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport pandas as pd\nfrom pandas.tools.plotting import scatter_matrix\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 5]})\nprint(pd.scatter_matrix(df).shape, scatter_matrix(df).shape)",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport pandas as pd\nfrom pandas.plotting import scatter_matrix\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 5]})\nprint(pd.plotting.scatter_matrix(df).shape, scatter_matrix(df).shape)",
    expect: '(2, 2) (2, 2)',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { 'pandas.tools.plotting': 'pandas.plotting' });
    for (const { node } of ctx.attributesTo(PLOTTING_FNS.map((f) => `pandas.${f}`))) {
      const attr = node.childForFieldName('attribute')!;
      yield { node, edits: [{ start: attr.startIndex, end: attr.startIndex, text: 'plotting.' }] };
    }
    for (const { node } of ctx.attributesTo(['pandas.tools.plotting'])) {
      if (node.text.replace(/\s/g, '') === 'pandas.tools.plotting') continue; // handled by moveModules
      const inner = node.childForFieldName('object')!; // pd.tools
      yield { node, edits: [replaceNode(node, `${inner.childForFieldName('object')!.text}.plotting`)] };
    }
  },
});

const panel = rule({
  id: 'pandas-panel',
  triggers: ['Panel', 'Panel4D'],
  library: 'pandas',
  title: 'pd.Panel',
  old: 'pd.Panel(data)',
  new: 'a MultiIndex DataFrame (or xarray)',
  removedIn: '1.0',
  autoFixable: false,
  errors: [noModAttr('Panel')],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.25.0.html#removal-of-prior-version-deprecations-changes',
  message: 'pd.Panel was removed (pandas 0.25/1.0): represent 3-D data as a DataFrame with a MultiIndex (pd.concat(dict_of_frames)), or with xarray (not in the environment)',
  fixtures: [{
    before: "import pandas as pd\np = pd.Panel({'x': pd.DataFrame({'a': [1]})})\nprint(p.shape)",
    manual: "import pandas as pd\np = pd.concat({'x': pd.DataFrame({'a': [1]})})\nprint(p.shape)",
    expect: '(1, 1)',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['pandas.Panel', 'pandas.Panel4D'])) yield { node };
  },
});

const NESTED_RENAMER = /nested renamer is not supported/;

/** One column of a groupby (a SeriesGroupBy): `df.groupby(k)['a']`, `df.groupby(k).a`, `g['a']`. */
function isSeriesGroupBy(ctx: CellContext, node: SyntaxNode): boolean {
  if (node.type === 'subscript') {
    const keys = node.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
    const v = node.childForFieldName('value');
    return keys.length === 1 && stringValue(keys[0]) !== undefined && !!v && isGroupByExpr(ctx, v);
  }
  if (node.type === 'attribute') {
    const o = node.childForFieldName('object');
    return !!o && isGroupByExpr(ctx, o);
  }
  return false;
}

/** `{k: f, ...}` as the list of (name, function) pairs agg accepts: `[(k, f), ...]`. */
function renamerPairs(dict: SyntaxNode): string | undefined {
  const items = dict.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
  if (!items.length || items.some((p) => p.type !== 'pair')) return undefined;
  return `[${items.map((p) => `(${p.childForFieldName('key')!.text}, ${p.childForFieldName('value')!.text})`).join(', ')}]`;
}

const nestedRenamer = rule({
  id: 'pandas-nested-renamer',
  triggers: ['agg', 'aggregate'],
  library: 'pandas',
  title: 'agg with a dict of renames',
  old: "df.groupby('k')['v'].agg({'total': 'sum'}); df.groupby('k').agg({'v': {'total': 'sum'}})",
  new: "df.groupby('k')['v'].agg(total='sum'); df.groupby('k').agg({'v': [('total', 'sum')]})",
  removedIn: '1.0',
  deprecatedIn: '0.20',
  errors: [err('SpecificationError', NESTED_RENAMER)],
  link: PD10,
  message: "renaming through a dict in .agg() was removed in pandas 1.0: a Series groupby's {name: func} is named aggregation (name=func); a column's {name: func} is its list of (name, func) pairs, which keeps the (column, name) MultiIndex",
  fixtures: [
    {
      before: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1, 2, 3]})\nprint(df.groupby('k')['v'].agg({'total': 'sum', 'n': 'count'}).to_dict('list'))",
      after: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1, 2, 3]})\nprint(df.groupby('k')['v'].agg(total='sum', n='count').to_dict('list'))",
      expect: "{'total': [3, 3], 'n': [2, 1]}",
      beforeError: 'SpecificationError',
    },
    {
      before: "import pandas as pd\ndf = pd.DataFrame({'k': ['x', 'y', 'x'], 'a': [1.0, 2.0, 3.0], 'b': [4, 5, 6]})\ng = df.groupby('k')\nr = g.agg({'a': {'total': 'sum', 'avg': 'mean'}, 'b': 'max'})\nprint(r.columns.tolist(), r.values.tolist())",
      after: "import pandas as pd\ndf = pd.DataFrame({'k': ['x', 'y', 'x'], 'a': [1.0, 2.0, 3.0], 'b': [4, 5, 6]})\ng = df.groupby('k')\nr = g.agg({'a': [('total', 'sum'), ('avg', 'mean')], 'b': 'max'})\nprint(r.columns.tolist(), r.values.tolist())",
      expect: "[('a', 'total'), ('a', 'avg'), ('b', 'max')] [[4.0, 2.0, 6.0], [2.0, 2.0, 5.0]]",
      beforeError: 'SpecificationError',
    },
    {
      // A Series groupby the static scan cannot see (a parameter): the error names the line.
      before: "import pandas as pd\ndef stats(col):\n    return col.agg({'total': 'sum'})\nprint(stats(pd.DataFrame({'k': [1, 1, 2], 'a': [1, 2, 3]}).groupby('k')['a']).values.tolist())",
      after: "import pandas as pd\ndef stats(col):\n    return col.agg(total='sum')\nprint(stats(pd.DataFrame({'k': [1, 1, 2], 'a': [1, 2, 3]}).groupby('k')['a']).values.tolist())",
      expect: '[[3], [3]]',
      beforeError: 'SpecificationError',
      context: { runtime: { ename: 'SpecificationError', evalue: 'nested renamer is not supported' } },
    },
  ],
  *find(ctx) {
    const errorLine = onErrorLine(ctx, NESTED_RENAMER);
    for (const { call, recv } of ctx.methodCalls(['agg', 'aggregate'])) {
      const args = callArgs(call);
      const d = args?.positional[0];
      if (!args || !d || d.type !== 'dictionary' || args.all.length !== 1) continue;
      const items = d.namedChildren.filter((p): p is SyntaxNode => !!p && p.type !== 'comment');
      const pairs = items.filter((p) => p.type === 'pair');
      if (pairs.length === 0 || pairs.length !== items.length) continue;
      const onLine = !!errorLine && errorLine(call);
      const frameGb = isGroupByExpr(ctx, recv);
      const seriesGb = isSeriesGroupBy(ctx, recv) || (onLine && !frameGb);
      const nested = pairs.filter((p) => p.childForFieldName('value')?.type === 'dictionary');
      if (nested.length) {
        // Each column's {name: func} becomes its list of (name, func) pairs: the same (column, name) columns.
        const lists = nested.map((p) => renamerPairs(p.childForFieldName('value')!));
        if ((frameGb || seriesGb || onLine) && lists.every((t) => !!t)) {
          yield { node: call, edits: nested.map((p, i) => replaceNode(p.childForFieldName('value')!, lists[i]!)) };
        } else {
          yield { node: call, message: "a dict of dicts in .agg() (nested renamer) was removed in pandas 1.0: give each column a list of (name, func) pairs, e.g. .agg({'v': [('total', 'sum')]})" };
        }
        continue;
      }
      // A renaming dict maps names to functions; a column's list of functions (or of pairs) is a frame's.
      if (!seriesGb || pairs.some((p) => ['list', 'tuple'].includes(p.childForFieldName('value')?.type ?? ''))) continue;
      const kws: string[] = [];
      for (const p of pairs) {
        const key = stringValue(p.childForFieldName('key'));
        const value = p.childForFieldName('value');
        if (!key || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || !value) { kws.length = 0; break; }
        kws.push(`${key}=${value.text}`);
      }
      // Names that are not identifiers: the list of (name, func) pairs says the same.
      const list = kws.length ? undefined : renamerPairs(d);
      if (kws.length) yield { node: call, edits: [replaceNode(d, kws.join(', '))] };
      else if (list) yield { node: call, edits: [replaceNode(d, list)] };
    }
  },
});

const badLines = rule({
  id: 'pandas-error-bad-lines',
  triggers: ['error_bad_lines', 'warn_bad_lines'],
  library: 'pandas',
  title: 'read_csv(error_bad_lines=, warn_bad_lines=)',
  old: 'pd.read_csv(f, error_bad_lines=False)',
  new: "pd.read_csv(f, on_bad_lines='warn')",
  removedIn: '2.0',
  errors: [err('TypeError', /unexpected keyword argument '(error|warn)_bad_lines'/)],
  link: PD20,
  message: "error_bad_lines/warn_bad_lines were removed in pandas 2.0; use on_bad_lines='error'|'warn'|'skip'",
  fixtures: [{
    before: "import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('a\\n1\\n2,3\\n'), error_bad_lines=False, warn_bad_lines=False)\nprint(len(df))",
    after: "import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('a\\n1\\n2,3\\n'), on_bad_lines='skip')\nprint(len(df))",
    expect: '1',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['pandas.read_csv', 'pandas.read_table'])) {
      const args = callArgs(call)!;
      const e = args.keywords.get('error_bad_lines');
      const w = args.keywords.get('warn_bad_lines');
      if (!e && !w) continue;
      const ev = kwValue(e)?.type;
      const wv = kwValue(w)?.type;
      if ((e && ev !== 'true' && ev !== 'false') || (w && wv !== 'true' && wv !== 'false')) { yield { node: call }; continue; }
      // Old defaults: error_bad_lines=True, warn_bad_lines=True.
      const mode = ev === 'false' ? (wv === 'false' ? 'skip' : 'warn') : 'error';
      const edits: TextEdit[] = [];
      if (e) {
        edits.push(replaceNode(e, `on_bad_lines='${mode}'`));
        if (w) edits.push(removeArgument(args, w, ctx.source));
      } else if (w) {
        edits.push(removeArgument(args, w, ctx.source));
      }
      yield { node: call, edits };
    }
  },
});

const iteritems = rule({
  id: 'pandas-iteritems',
  triggers: ['iteritems'],
  library: 'pandas',
  title: 'DataFrame.iteritems / Series.iteritems',
  old: 'df.iteritems()',
  new: 'df.items()',
  removedIn: '2.0',
  errors: [err('AttributeError', /'(DataFrame|Series)' object has no attribute 'iteritems'/)],
  link: PD20,
  message: 'iteritems was removed in pandas 2.0; use items()',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nfor name, col in df.iteritems():\n    print(name, col.sum())",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nfor name, col in df.items():\n    print(name, col.sum())",
    expect: 'a 3',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { iteritems: 'items' }, ({ recv, args }) => ctx.nb.isPandasExpr(recv, ctx.index) && !args?.all.length);
  },
});

const mad = rule({
  id: 'pandas-mad',
  triggers: ['mad'],
  library: 'pandas',
  title: 'DataFrame.mad / Series.mad',
  old: 'df.mad()',
  new: '(df - df.mean()).abs().mean()',
  removedIn: '2.0',
  errors: [noAttr('mad')],
  link: PD20,
  message: 'mad() was removed in pandas 2.0; compute (x - x.mean()).abs().mean()',
  fixtures: [{
    before: 'import pandas as pd\ns = pd.Series([1.0, 2.0, 6.0])\nprint(s.mad())',
    after: 'import pandas as pd\ns = pd.Series([1.0, 2.0, 6.0])\nprint((s - s.mean()).abs().mean())',
    expect: '2.0',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['mad'])) {
      if (callArgs(call)?.all.length) { yield { node: call }; continue; }
      if (!isPure(recv)) { yield { node: call, message: 'mad() was removed in pandas 2.0: assign the expression to a name x, then use (x - x.mean()).abs().mean()' }; continue; }
      yield { node: call, edits: [replaceNode(call, `(${recv.text} - ${recv.text}.mean()).abs().mean()`)] };
    }
  },
});

/** pandas 2.0 made most arguments keyword-only: method -> names of its positional parameters in 0.2x/1.x order, and how many stay positional. */
const KEYWORD_ONLY: Record<string, { names: string[]; keep: number; frameOnly?: boolean; strAccessor?: boolean }> = {
  drop: { names: ['labels', 'axis', 'index', 'columns', 'level', 'inplace', 'errors'], keep: 1 },
  dropna: { names: ['axis', 'how', 'thresh', 'subset', 'inplace'], keep: 0 },
  fillna: { names: ['value', 'method', 'axis', 'inplace', 'limit', 'downcast'], keep: 1 },
  sort_values: { names: ['by', 'axis', 'ascending', 'inplace', 'kind', 'na_position'], keep: 1 },
  sort_index: { names: ['axis', 'level', 'ascending', 'inplace', 'kind', 'na_position'], keep: 0 },
  set_index: { names: ['keys', 'drop', 'append', 'inplace', 'verify_integrity'], keep: 1 },
  reset_index: { names: ['level', 'drop', 'inplace', 'col_level', 'col_fill'], keep: 1 },
  drop_duplicates: { names: ['subset', 'keep', 'inplace'], keep: 1 },
  replace: { names: ['to_replace', 'value', 'inplace', 'limit', 'regex', 'method'], keep: 2, frameOnly: true },
  interpolate: { names: ['method', 'axis', 'limit', 'inplace', 'limit_direction'], keep: 1 },
  any: { names: ['axis', 'bool_only', 'skipna', 'level'], keep: 0 },
  all: { names: ['axis', 'bool_only', 'skipna', 'level'], keep: 0 },
  where: { names: ['cond', 'other', 'inplace', 'axis', 'level'], keep: 2, frameOnly: true },
  pivot: { names: ['index', 'columns', 'values'], keep: 0, frameOnly: true },
  split: { names: ['pat', 'n', 'expand'], keep: 1, strAccessor: true },
  rsplit: { names: ['pat', 'n', 'expand'], keep: 1, strAccessor: true },
};
const KEYWORD_ONLY_FUNCS: Record<string, { names: string[]; keep: number }> = {
  'pandas.concat': { names: ['objs', 'axis', 'join', 'join_axes', 'ignore_index', 'keys'], keep: 1 },
  'pandas.read_csv': { names: ['filepath_or_buffer', 'sep', 'delimiter', 'header', 'names', 'index_col'], keep: 1 },
  'pandas.read_table': { names: ['filepath_or_buffer', 'sep', 'delimiter', 'header', 'names', 'index_col'], keep: 1 },
};

/** The names looked up on every cell the rule runs on (built once, not per cell). */
const KEYWORD_ONLY_METHODS = Object.keys(KEYWORD_ONLY);
const KEYWORD_ONLY_FUNC_NAMES = new Set(Object.keys(KEYWORD_ONLY_FUNCS));

function positionalToKeywords(args: Args, spec: { names: string[]; keep: number }): TextEdit[] | undefined {
  if (args.listSplat) return undefined;
  const pos = args.positional;
  if (pos.length <= spec.keep || pos.length > spec.names.length) return undefined;
  const edits: TextEdit[] = [];
  for (let i = spec.keep; i < pos.length; i++) {
    if (args.keywords.has(spec.names[i])) return undefined;
    edits.push({ start: pos[i].startIndex, end: pos[i].startIndex, text: `${spec.names[i]}=` });
  }
  return edits;
}

const keywordOnly = rule({
  id: 'pandas-keyword-only-arguments',
  triggers: [...KEYWORD_ONLY_METHODS, 'concat', 'read_csv', 'read_table'],
  library: 'pandas',
  title: 'positional arguments that became keyword-only',
  old: "df.drop('c', 1); df.dropna(0, 'any'); s.str.split(',', 1); pd.concat([a, b], 1)",
  new: "df.drop('c', axis=1); df.dropna(axis=0, how='any'); s.str.split(',', n=1); pd.concat([a, b], axis=1)",
  removedIn: '2.0',
  errors: [err('TypeError', /takes (from \d+ to \d+|\d+) positional arguments? but \d+ (were|was) given/)],
  link: PD20,
  message: 'pandas 2.0 made these arguments keyword-only; name them',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, None], 'c': ['x,y', 'z']})\nprint(df.drop('c', 1).columns.tolist(), len(df.dropna(0, 'any')), df.c.str.split(',', 1).tolist(), pd.concat([df, df], 1).shape)",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, None], 'c': ['x,y', 'z']})\nprint(df.drop('c', axis=1).columns.tolist(), len(df.dropna(axis=0, how='any')), df.c.str.split(',', n=1).tolist(), pd.concat([df, df], axis=1).shape)",
    expect: "['a'] 1 [['x', 'y'], ['z']] (2, 4)",
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, recv, name } of ctx.methodCalls(KEYWORD_ONLY_METHODS)) {
      const spec = KEYWORD_ONLY[name];
      if (spec.strAccessor && !(recv.type === 'attribute' && recv.childForFieldName('attribute')?.text === 'str')) continue;
      if (spec.frameOnly && !ctx.nb.isPandasExpr(recv, ctx.index)) continue;
      if (ctx.qname(recv)) continue; // a module function (np.any...), not a method
      const args = callArgs(call);
      const edits = args && positionalToKeywords(args, spec);
      if (edits?.length) yield { node: call, edits };
    }
    for (const { call, qname } of ctx.callsTo(KEYWORD_ONLY_FUNC_NAMES)) {
      const args = callArgs(call);
      const edits = args && positionalToKeywords(args, KEYWORD_ONLY_FUNCS[qname]);
      if (edits?.length) yield { node: call, edits };
    }
  },
});

const dtWeek = rule({
  id: 'pandas-dt-week',
  triggers: ['week', 'weekofyear'],
  library: 'pandas',
  title: '.dt.week / .dt.weekofyear',
  old: 's.dt.week',
  new: 's.dt.isocalendar().week',
  removedIn: '2.0',
  errors: [err('AttributeError', /'DatetimeProperties' object has no attribute '(week|weekofyear)'/)],
  link: PD20,
  message: '.dt.week/.dt.weekofyear were removed in pandas 2.0; use .dt.isocalendar().week',
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series(pd.to_datetime(['2020-01-08', '2020-03-01']))\nprint(s.dt.week.tolist(), s.dt.weekofyear.max())",
    after: "import pandas as pd\ns = pd.Series(pd.to_datetime(['2020-01-08', '2020-03-01']))\nprint(s.dt.isocalendar().week.tolist(), s.dt.isocalendar().week.max())",
    expect: '[2, 9] 9',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node: a, nameNode: name, obj } of ctx.attributesNamed(['week', 'weekofyear'])) {
      if (obj.type !== 'attribute' || obj.childForFieldName('attribute')?.text !== 'dt') continue;
      yield { node: a, edits: [replaceNode(name, 'isocalendar().week')] };
    }
  },
});

const numericIndex = rule({
  id: 'pandas-numeric-index-classes',
  triggers: ['Int64Index', 'Float64Index', 'UInt64Index'],
  library: 'pandas',
  title: 'pd.Int64Index / Float64Index / UInt64Index',
  old: 'pd.Int64Index(values)',
  new: "pd.Index(values, dtype='int64')",
  removedIn: '2.0',
  errors: [noModAttr('Int64Index|Float64Index|UInt64Index|NumericIndex')],
  link: PD20,
  message: 'Int64Index/Float64Index/UInt64Index were removed in pandas 2.0; use pd.Index(values, dtype=...)',
  fixtures: [{
    before: 'import pandas as pd\nidx = pd.Int64Index([1, 2])\nprint(idx.dtype, isinstance(idx, pd.Float64Index))',
    after: "import pandas as pd\nidx = pd.Index([1, 2], dtype='int64')\nprint(idx.dtype, isinstance(idx, pd.Index))",
    expect: 'int64 True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const dt: Record<string, string> = { Int64Index: 'int64', Float64Index: 'float64', UInt64Index: 'uint64' };
    for (const { node, qname } of ctx.attributesTo(Object.keys(dt).map((k) => `pandas.${k}`))) {
      const attr = node.childForFieldName('attribute')!;
      const call = node.parent?.type === 'call' && sameNode(node.parent.childForFieldName('function'), node) ? node.parent : undefined;
      const edits = [replaceNode(attr, 'Index')];
      if (call) {
        const args = callArgs(call);
        if (!args || args.keywords.has('dtype')) { yield { node }; continue; }
        edits.push(addArgument(args, `dtype='${dt[qname.slice(7)]}'`));
      }
      yield { node, edits };
    }
  },
});

const pdNp = rule({
  id: 'pandas-np-alias',
  triggers: ['np'],
  library: 'pandas',
  title: 'pd.np',
  old: 'pd.np.mean(x)',
  new: 'np.mean(x)',
  removedIn: '2.0',
  errors: [noModAttr('np')],
  link: PD20,
  message: 'pd.np was removed in pandas 2.0; import numpy',
  fixtures: [{
    before: 'import pandas as pd\nprint(pd.np.mean([1, 3]))',
    after: 'import numpy as np\nimport pandas as pd\nprint(np.mean([1, 3]))',
    expect: '2.0',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['pandas.np'])) {
      const ref = ctx.moduleRef('numpy', 'np');
      if (!ref) { yield { node }; continue; }
      yield { node, edits: withImport(ref, [replaceNode(node, ref.name)]) };
    }
  },
});

const pdDatetime = rule({
  id: 'pandas-datetime-alias',
  triggers: ['datetime'],
  library: 'pandas',
  title: 'pd.datetime',
  old: 'pd.datetime(2020, 1, 1)',
  new: 'datetime.datetime(2020, 1, 1)',
  removedIn: '2.0',
  errors: [noModAttr('datetime')],
  link: PD20,
  message: 'pd.datetime was removed in pandas 2.0; use the datetime module',
  fixtures: [{
    before: 'import pandas as pd\nprint(pd.datetime(2020, 1, 2).day)',
    after: 'import datetime\nimport pandas as pd\nprint(datetime.datetime(2020, 1, 2).day)',
    expect: '2',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['pandas.datetime'])) {
      const cls = [...ctx.nb.bindings].find(([name, list]) => list.some((b) => b.qname === 'datetime.datetime') && !ctx.nb.assigned.has(name));
      if (cls) { yield { node, edits: [replaceNode(node, cls[0])] }; continue; }
      const ref = ctx.moduleRef('datetime', 'datetime');
      if (!ref) { yield { node }; continue; }
      yield { node, edits: withImport(ref, [replaceNode(node, `${ref.name}.datetime`)]) };
    }
  },
});

const utilTesting = rule({
  id: 'pandas-util-testing',
  triggers: ['testing'],
  library: 'pandas',
  title: 'pandas.util.testing',
  old: 'import pandas.util.testing as tm',
  new: 'import pandas.testing as tm',
  removedIn: '2.0',
  errors: [err('ModuleNotFoundError', /No module named 'pandas\.util\.testing'/)],
  link: PD20,
  message: 'pandas.util.testing was removed in pandas 2.0; use pandas.testing',
  fixtures: [{
    before: "import pandas as pd\nimport pandas.util.testing as tm\ntm.assert_series_equal(pd.Series([1]), pd.Series([1]))\nprint('same')",
    after: "import pandas as pd\nimport pandas.testing as tm\ntm.assert_series_equal(pd.Series([1]), pd.Series([1]))\nprint('same')",
    expect: 'same',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { 'pandas.util.testing': 'pandas.testing' });
  },
});

function methodRename(id: string, oldName: string, newName: string, removedIn: string, link: string, fixture: { before: string; after: string; expect: string }, opts: { pandasOnly?: boolean; message?: string; newText?: (recv: SyntaxNode, args: Args) => string | undefined } = {}): Rule {
  return rule({
    id,
    triggers: [oldName],
    library: 'pandas',
    title: `${oldName}()`,
    old: `x.${oldName}(...)`,
    new: `x.${newName}(...)`,
    removedIn,
    errors: [noAttr(oldName)],
    link,
    message: opts.message ?? `${oldName} was removed in pandas ${removedIn}; use ${newName}`,
    fixtures: [{ ...fixture, beforeError: 'AttributeError' }],
    *find(ctx) {
      for (const { call, recv, nameNode } of ctx.methodCalls([oldName])) {
        if (opts.pandasOnly && !ctx.nb.isPandasExpr(recv, ctx.index)) continue;
        const args = callArgs(call);
        if (!args) continue;
        if (opts.newText) {
          const t = opts.newText(recv, args);
          if (t === undefined) yield { node: call };
          else yield { node: call, edits: [replaceNode(call, t)] };
        } else yield { node: call, edits: [replaceNode(nameNode, newName)] };
      }
    },
  });
}

const reindexAxis = methodRename('pandas-reindex-axis', 'reindex_axis', 'reindex', '1.0', PD10, {
  before: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\nprint(df.reindex_axis(['b', 'a'], axis=1).columns.tolist())",
  after: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\nprint(df.reindex(['b', 'a'], axis=1).columns.tolist())",
  expect: "['b', 'a']",
});

const dtypeCounts = methodRename('pandas-get-dtype-counts', 'get_dtype_counts', 'dtypes.value_counts', '1.0', PD10, {
  before: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\nprint(df.get_dtype_counts().sum())",
  after: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2]})\nprint(df.dtypes.value_counts().sum())",
  expect: '2',
}, { newText: (recv, args) => (args.all.length ? undefined : `${paren(recv)}.dtypes.value_counts()`) });

const validRule = methodRename('pandas-valid', 'valid', 'dropna', '1.0', PD10, {
  before: 'import pandas as pd\ns = pd.Series([1, None, 3])\nprint(s.valid().tolist())',
  after: 'import pandas as pd\ns = pd.Series([1, None, 3])\nprint(s.dropna().tolist())',
  expect: '[1.0, 3.0]',
}, { pandasOnly: true });

const clipUpperLower = rule({
  id: 'pandas-clip-upper-lower',
  triggers: ['clip_upper', 'clip_lower'],
  library: 'pandas',
  title: 'clip_upper / clip_lower',
  old: 's.clip_upper(v)',
  new: 's.clip(upper=v)',
  removedIn: '1.0',
  errors: [noAttr('clip_upper|clip_lower')],
  link: PD10,
  message: 'clip_upper/clip_lower were removed in pandas 1.0; use clip(upper=)/clip(lower=)',
  fixtures: [{
    before: 'import pandas as pd\ns = pd.Series([1, 5, 9])\nprint(s.clip_upper(6).tolist(), s.clip_lower(2).tolist())',
    after: 'import pandas as pd\ns = pd.Series([1, 5, 9])\nprint(s.clip(upper=6).tolist(), s.clip(lower=2).tolist())',
    expect: '[1, 5, 6] [2, 5, 9]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, name, nameNode } of ctx.methodCalls(['clip_upper', 'clip_lower'])) {
      const args = callArgs(call);
      if (!args || args.positional.length !== 1 || args.splat) { yield { node: call }; continue; }
      const kw = name === 'clip_upper' ? 'upper' : 'lower';
      yield { node: call, edits: [replaceNode(nameNode, 'clip'), { start: args.positional[0].startIndex, end: args.positional[0].startIndex, text: `${kw}=` }] };
    }
  },
});

const setOption = rule({
  id: 'pandas-set-option',
  triggers: ['set_option', 'get_option', 'reset_option', 'option_context', 'options'],
  library: 'pandas',
  title: 'removed and ambiguous options',
  old: "pd.set_option('display.max_colwidth', -1); pd.set_option('precision', 3); pd.set_option('display.height', 500)",
  new: "pd.set_option('display.max_colwidth', None); pd.set_option('display.precision', 3); (removed)",
  removedIn: '1.0',
  errors: [err('OptionError', /No such keys|Pattern matched multiple keys|You can only set the value of existing options/), err('ValueError', /Value must be a nonnegative integer or None/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.4.0.html#styler',
  message: 'this pandas option was removed, became ambiguous (pandas 1.4 added styler.* options a short pattern now also matches), or no longer accepts -1 (use None for "no limit")',
  fixtures: [{
    before: "import pandas as pd\npd.options.display.mpl_style = 'default'\npd.set_option('display.max_colwidth', -1)\npd.set_option('precision', 3)\npd.set_option('display.height', 500)\npd.options.display.max_rows = -1\nprint(pd.get_option('display.max_colwidth'), pd.get_option('display.precision'))",
    after: "import pandas as pd\npd.set_option('display.max_colwidth', None)\npd.set_option('display.precision', 3)\npd.options.display.max_rows = None\nprint(pd.get_option('display.max_colwidth'), pd.get_option('display.precision'))",
    expect: 'None 3',
    beforeError: 'OptionError',
  }, {
    before: "import numpy as np\nimport pandas as pd\nimport warnings\nwarnings.simplefilter('ignore')\npd.set_option('use_inf_as_null', True)\nprint(pd.Series([1.0, np.inf]).isnull().sum())",
    after: "import numpy as np\nimport pandas as pd\nimport warnings\nwarnings.simplefilter('ignore')\npd.set_option('mode.use_inf_as_na', True)\nprint(pd.Series([1.0, np.inf]).isnull().sum())",
    expect: '1',
    beforeError: 'OptionError',
  }, {
    // Resolved against the environment's options, not a list of known cases: a removed key inside a
    // multi-pair call goes alone, short patterns the styler options made ambiguous get their display key.
    before: "import pandas as pd\npd.set_option('max_rows', 10, 'display.column_space', 12, 'max_columns', 5)\nwith pd.option_context('max_colwidth', -1, 'precision', 2):\n    print(pd.get_option('max_rows'), pd.get_option('max_columns'), pd.get_option('display.precision'))",
    after: "import pandas as pd\npd.set_option('display.max_rows', 10, 'display.max_columns', 5)\nwith pd.option_context('max_colwidth', None, 'display.precision', 2):\n    print(pd.get_option('display.max_rows'), pd.get_option('display.max_columns'), pd.get_option('display.precision'))",
    expect: '10 5 2',
    beforeError: 'OptionError',
  }],
  *find(ctx) {
    for (const { call, qname } of ctx.callsTo(['pandas.set_option', 'pandas.option_context', 'pandas.get_option', 'pandas.reset_option', 'pandas.describe_option', 'pandas.options.set_option'])) {
      const args = callArgs(call);
      if (!args || args.splat || !args.positional.length) continue;
      const pairs = /set_option|option_context$/.test(qname);
      if (!pairs) {
        // get/reset/describe take one pattern: rewrite it when it now resolves elsewhere.
        const key = stringValue(args.positional[0]);
        const r = key === undefined ? undefined : resolveOption(key);
        if (r?.kind === 'rewrite') yield { node: call, edits: [replaceNode(args.positional[0], `'${r.key}'`)] };
        continue;
      }
      if (args.positional.length % 2 !== 0) continue;
      const kept: string[] = [];
      const edits: TextEdit[] = [];
      let dropped = false;
      for (let i = 0; i + 1 < args.positional.length; i += 2) {
        const keyNode = args.positional[i];
        const valNode = args.positional[i + 1];
        const key = stringValue(keyNode);
        const r = key === undefined ? undefined : resolveOption(key);
        if (r?.kind === 'removed') { dropped = true; continue; }
        const full = r?.kind === 'rewrite' ? r.key : r?.kind === 'ok' ? r.key : undefined;
        const keyText = r?.kind === 'rewrite' ? `'${r.key}'` : keyNode.text;
        const valText = full && NONNEGATIVE_OPTIONS.has(full) && isMinusOne(valNode) ? 'None' : valNode.text;
        if (r?.kind === 'rewrite') edits.push(replaceNode(keyNode, keyText));
        if (valText !== valNode.text) edits.push(replaceNode(valNode, valText));
        kept.push(`${keyText}, ${valText}`);
      }
      const st = call.parent;
      if (dropped && !kept.length && st?.type === 'expression_statement' && /set_option$/.test(qname)) {
        yield { node: call, edits: [deleteStatement(ctx, st)], message: 'this pandas option no longer exists; the call is removed' };
      } else if (dropped && kept.length) {
        yield { node: call, edits: [replaceNode(args.list, `(${kept.join(', ')})`)], message: 'a pandas option in this call no longer exists: it is dropped from the call' };
      } else if (!dropped && edits.length) {
        yield { node: call, edits };
      }
    }
    // pd.options.display.max_colwidth = -1
    for (const a of ctx.nodes('assignment')) {
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      const q = ctx.qname(left);
      if (!q || !right || !left || !q.startsWith('pandas.options.')) continue;
      const r = resolveOptionPath(q.slice('pandas.options.'.length));
      if (r.kind === 'removed' && a.parent?.type === 'expression_statement') yield { node: a, edits: [deleteStatement(ctx, a.parent)], message: 'this pandas option no longer exists; the assignment is removed' };
      else if (r.kind === 'rewrite' && left.type === 'attribute') yield { node: a, edits: [replaceNode(left.childForFieldName('attribute')!, r.key.split('.').pop()!)] };
      else if (r.kind === 'ok' && NONNEGATIVE_OPTIONS.has(r.key) && isMinusOne(right)) yield { node: a, edits: [replaceNode(right, 'None')] };
    }
  },
});

function isMinusOne(n: SyntaxNode): boolean {
  return n.type === 'unary_operator' && n.text.replace(/\s/g, '') === '-1';
}

const RESAMPLE_HOW = new Set(['mean', 'sum', 'max', 'min', 'median', 'ohlc', 'first', 'last', 'count', 'std', 'var', 'prod', 'nunique', 'size']);

const resampleHow = rule({
  id: 'pandas-resample-how',
  triggers: ['resample'],
  library: 'pandas',
  title: "resample(rule, how='sum')",
  old: "s.resample('M', how='sum')",
  new: "s.resample('M').sum()",
  removedIn: '0.23',
  errors: [err('TypeError', /resample\(\) got an unexpected keyword argument '(how|fill_method)'/)],
  link: PD023,
  message: "resample(how=) was removed; call the aggregation on the resampler: .resample(rule).sum()",
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.to_datetime(['2020-01-01', '2020-01-02', '2020-02-01']))\nprint(s.resample('MS', how='sum').tolist())",
    after: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.to_datetime(['2020-01-01', '2020-01-02', '2020-02-01']))\nprint(s.resample('MS').sum().tolist())",
    expect: '[3, 3]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.methodCalls(['resample'])) {
      const args = callArgs(call);
      const how = args?.keywords.get('how');
      if (!args || !how) continue;
      if (args.keywords.has('fill_method')) { yield { node: call }; continue; }
      const v = kwValue(how)!;
      const s = stringValue(v);
      const q = ctx.qname(v);
      const method = s && RESAMPLE_HOW.has(s) ? `${s}()` : q?.startsWith('numpy.') && RESAMPLE_HOW.has(q.slice(6)) ? `${q.slice(6)}()` : `agg(${v.text})`;
      yield { node: call, edits: [removeArgument(args, how, ctx.source), { start: call.endIndex, end: call.endIndex, text: `.${method}` }] };
    }
  },
});

const LEVEL_REDUCTIONS = ['sum', 'mean', 'count', 'max', 'min', 'median', 'std', 'var', 'prod', 'any', 'all', 'sem', 'skew', 'kurt', 'mad'];

const levelReductions = rule({
  id: 'pandas-level-reductions',
  triggers: ['level'],
  library: 'pandas',
  title: 'reductions with level=',
  old: 's.sum(level=0)',
  new: 's.groupby(level=0).sum()',
  removedIn: '2.0',
  errors: [err('TypeError', new RegExp(`(${LEVEL_REDUCTIONS.join('|')})\\(\\) got an unexpected keyword argument 'level'`))],
  link: PD20,
  message: 'the level= argument of reductions was removed in pandas 2.0; use .groupby(level=...).<reduction>()',
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.MultiIndex.from_tuples([('a', 1), ('a', 2), ('b', 1)]))\nprint(s.sum(level=0).tolist())",
    after: "import pandas as pd\ns = pd.Series([1, 2, 3], index=pd.MultiIndex.from_tuples([('a', 1), ('a', 2), ('b', 1)]))\nprint(s.groupby(level=0).sum().tolist())",
    expect: '[3, 3]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call, recv, name } of ctx.methodCalls(LEVEL_REDUCTIONS)) {
      const args = callArgs(call);
      const level = args?.keywords.get('level');
      if (!args || !level) continue;
      if (args.all.length !== 1) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(call, `${paren(recv)}.groupby(${level.text}).${name}()`)] };
    }
  },
});

const seriesNonzero = rule({
  id: 'pandas-series-nonzero',
  triggers: ['nonzero'],
  library: 'pandas',
  title: 'Series.nonzero()',
  old: 's.nonzero()',
  new: 'np.nonzero(s)',
  removedIn: '1.0',
  errors: [err('AttributeError', /'Series' object has no attribute 'nonzero'/)],
  link: PD10,
  message: 'Series.nonzero was removed in pandas 1.0; use np.nonzero(s) (or s.to_numpy().nonzero())',
  fixtures: [{
    before: 'import pandas as pd\ns = pd.Series([0, 3, 0, 4])\nprint(s.nonzero()[0])',
    after: 'import numpy as np\nimport pandas as pd\ns = pd.Series([0, 3, 0, 4])\nprint(np.nonzero(s)[0])',
    expect: '[1 3]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['nonzero'])) {
      if (!ctx.nb.isPandasExpr(recv, ctx.index) || callArgs(call)?.all.length) continue;
      const ref = ctx.moduleRef('numpy', 'np');
      if (!ref) { yield { node: call }; continue; }
      yield { node: call, edits: withImport(ref, [replaceNode(call, `${ref.name}.nonzero(${recv.text})`)]) };
    }
  },
});

const lineTerminator = rule({
  id: 'pandas-line-terminator',
  triggers: ['line_terminator'],
  library: 'pandas',
  title: 'to_csv(line_terminator=)',
  old: "df.to_csv(f, line_terminator='\\n')",
  new: "df.to_csv(f, lineterminator='\\n')",
  removedIn: '2.0',
  errors: [err('TypeError', /unexpected keyword argument 'line_terminator'/)],
  link: PD20,
  message: 'line_terminator was renamed lineterminator in pandas 1.5 and removed in 2.0',
  fixtures: [{
    before: "import pandas as pd\nprint(repr(pd.DataFrame({'a': [1]}).to_csv(index=False, line_terminator=';')))",
    after: "import pandas as pd\nprint(repr(pd.DataFrame({'a': [1]}).to_csv(index=False, lineterminator=';')))",
    expect: "'a;1;'",
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.methodCalls(['to_csv'])) {
      const kw = callArgs(call)?.keywords.get('line_terminator');
      if (kw) yield { node: kw, edits: [renameKeyword(kw, 'lineterminator')] };
    }
  },
});

const timeGrouper = rule({
  id: 'pandas-timegrouper',
  triggers: ['TimeGrouper'],
  library: 'pandas',
  title: 'pd.TimeGrouper',
  old: "pd.TimeGrouper('M')",
  new: "pd.Grouper(freq='M')",
  removedIn: '1.0',
  errors: [noModAttr('TimeGrouper')],
  link: PD10,
  message: "pd.TimeGrouper was removed in pandas 1.0; use pd.Grouper(freq=...)",
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series([1, 2], index=pd.to_datetime(['2020-01-01', '2020-02-01']))\nprint(s.groupby(pd.TimeGrouper('MS')).sum().tolist())",
    after: "import pandas as pd\ns = pd.Series([1, 2], index=pd.to_datetime(['2020-01-01', '2020-02-01']))\nprint(s.groupby(pd.Grouper(freq='MS')).sum().tolist())",
    expect: '[1, 2]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsTo(['pandas.TimeGrouper'])) {
      const args = callArgs(call)!;
      const edits = [replaceNode(fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn, 'Grouper')];
      if (args.positional.length === 1) edits.push({ start: args.positional[0].startIndex, end: args.positional[0].startIndex, text: 'freq=' });
      else if (args.positional.length > 1) { yield { node: call }; continue; }
      yield { node: call, edits };
    }
  },
});

const isMonotonic = rule({
  id: 'pandas-is-monotonic',
  triggers: ['is_monotonic'],
  library: 'pandas',
  title: 'Index.is_monotonic',
  old: 'idx.is_monotonic',
  new: 'idx.is_monotonic_increasing',
  removedIn: '2.0',
  errors: [noAttr('is_monotonic')],
  link: PD20,
  message: 'is_monotonic was removed in pandas 2.0; use is_monotonic_increasing',
  fixtures: [{
    before: 'import pandas as pd\nprint(pd.Series([1, 2]).is_monotonic, pd.Index([2, 1]).is_monotonic)',
    after: 'import pandas as pd\nprint(pd.Series([1, 2]).is_monotonic_increasing, pd.Index([2, 1]).is_monotonic_increasing)',
    expect: 'True False',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node: a, nameNode: name } of ctx.attributesNamed(['is_monotonic'])) {
      if (!ctx.qname(a)) yield { node: a, edits: [replaceNode(name, 'is_monotonic_increasing')] };
    }
  },
});

const readCsvSqueeze = rule({
  id: 'pandas-read-csv-squeeze',
  triggers: ['squeeze'],
  library: 'pandas',
  title: 'read_csv(squeeze=True)',
  old: 'pd.read_csv(f, squeeze=True)',
  new: "pd.read_csv(f).squeeze('columns')",
  removedIn: '2.0',
  errors: [err('TypeError', /unexpected keyword argument 'squeeze'/)],
  link: PD20,
  message: "read_csv(squeeze=True) was removed in pandas 2.0; call .squeeze('columns') on the result",
  fixtures: [{
    before: "import io\nimport pandas as pd\ns = pd.read_csv(io.StringIO('a\\n1\\n2\\n'), squeeze=True)\nprint(type(s).__name__, s.sum())",
    after: "import io\nimport pandas as pd\ns = pd.read_csv(io.StringIO('a\\n1\\n2\\n')).squeeze('columns')\nprint(type(s).__name__, s.sum())",
    expect: 'Series 3',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['pandas.read_csv', 'pandas.read_table', 'pandas.read_excel'])) {
      const args = callArgs(call)!;
      const kw = args.keywords.get('squeeze');
      if (!kw) continue;
      const v = kwValue(kw);
      if (v?.type === 'false') { yield { node: call, edits: [removeArgument(args, kw, ctx.source)] }; continue; }
      if (v?.type !== 'true') { yield { node: call }; continue; }
      yield { node: call, edits: [removeArgument(args, kw, ctx.source), { start: call.endIndex, end: call.endIndex, text: ".squeeze('columns')" }] };
    }
  },
});

const readCsvSepAndDelimiter = rule({
  id: 'pandas-read-csv-sep-and-delimiter',
  triggers: ['delimiter'],
  library: 'pandas',
  title: 'read_csv(sep=..., delimiter=...)',
  old: "pd.read_csv(f, sep=',', delimiter=';')",
  new: "pd.read_csv(f, delimiter=';')",
  removedIn: '1.3',
  errors: [err('ValueError', /Specified a sep and a delimiter; you can only specify one/)],
  link: 'https://github.com/pandas-dev/pandas/pull/41146',
  message: 'until pandas 1.3, read_csv silently ignored sep= when delimiter= was also given (delimiter won); now both raise: dropping sep= keeps what the notebook read',
  fixtures: [{
    before: "import io\nimport pandas as pd\nprint(pd.read_csv(io.StringIO('a;b\\n1;2\\n'), sep=',', delimiter=';').columns.tolist())",
    after: "import io\nimport pandas as pd\nprint(pd.read_csv(io.StringIO('a;b\\n1;2\\n'), delimiter=';').columns.tolist())",
    expect: "['a', 'b']",
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['pandas.read_csv', 'pandas.read_table', 'pandas.read_fwf'])) {
      const args = callArgs(call);
      const sep = args?.keywords.get('sep');
      const delim = args?.keywords.get('delimiter');
      if (!args || !sep || !delim || kwValue(delim)?.type === 'none') continue;
      yield { node: sep, edits: [removeArgument(args, sep, ctx.source)] };
    }
  },
});

const lookup = rule({
  id: 'pandas-lookup',
  triggers: ['lookup'],
  library: 'pandas',
  title: 'DataFrame.lookup',
  old: 'df.lookup(rows, cols)',
  new: 'df.to_numpy()[df.index.get_indexer(rows), df.columns.get_indexer(cols)]',
  removedIn: '2.0',
  autoFixable: false,
  errors: [noAttr('lookup')],
  link: PD20,
  message: 'DataFrame.lookup was removed in pandas 2.0: use df.to_numpy()[df.index.get_indexer(rows), df.columns.get_indexer(cols)] (or melt + loc)',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.lookup([0, 1], ['b', 'a']).tolist())",
    manual: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nprint(df.to_numpy()[df.index.get_indexer([0, 1]), df.columns.get_indexer(['b', 'a'])].tolist())",
    expect: '[3, 2]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['lookup'])) {
      if (ctx.nb.isPandasExpr(recv, ctx.index)) yield { node: call };
    }
  },
});

/** Reductions that raise on non-numeric columns since pandas 2.0 (numeric_only default True -> False). */
// corrwith: until 2.0 it always worked on the numeric columns (`self._get_numeric_data()`); 1.5 added
// numeric_only and 2.0 made its default False.
const NUMERIC_REDUCTIONS = ['mean', 'median', 'std', 'var', 'sem', 'skew', 'kurt', 'quantile', 'corr', 'cov', 'prod', 'corrwith'];

const numericOnly = rule({
  id: 'pandas-numeric-only',
  triggers: NUMERIC_REDUCTIONS,
  library: 'pandas',
  title: 'reductions over non-numeric columns',
  old: "df.groupby('k').mean(); df.corr(); df.fillna(df.median())",
  new: "df.groupby('k').mean(numeric_only=True); df.corr(numeric_only=True)",
  removedIn: '2.0',
  errors: [
    err('TypeError', /agg function failed \[how->\w+,dtype->object\]|Could not convert .* to numeric|Cannot convert .* to numeric|could not convert string to float|unsupported operand type\(s\) for [+/]: 'str' and/),
    err('ValueError', /could not convert string to float/),
  ],
  link: PD20,
  message: 'pandas 2.0 no longer drops non-numeric columns silently in mean/median/std/corr... of a DataFrame (or a groupby): numeric_only=True gives the numbers the notebook got before (and changes nothing for all-numeric data)',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1.0, 3.0, 5.0], 'name': ['a', 'b', 'c']})\nprint(df.groupby('k').mean().v.tolist(), df.fillna(df.median()).v.sum(), df.corr().shape)",
    after: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1.0, 3.0, 5.0], 'name': ['a', 'b', 'c']})\nprint(df.groupby('k').mean(numeric_only=True).v.tolist(), df.fillna(df.median(numeric_only=True)).v.sum(), df.corr(numeric_only=True).shape)",
    expect: '[2.0, 5.0] 9.0 (2, 2)',
    beforeError: 'TypeError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'x': [1.0, 2.0, 4.0], 'y': [2.0, 4.0, 8.5], 'zone': ['RL', 'RM', 'RL']})\nprint(df.corrwith(df['x']).round(3).tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'x': [1.0, 2.0, 4.0], 'y': [2.0, 4.0, 8.5], 'zone': ['RL', 'RM', 'RL']})\nprint(df.corrwith(df['x'], numeric_only=True).round(3).tolist())",
    expect: '[1.0, 1.0]',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(NUMERIC_REDUCTIONS)) {
      const args = callArgs(call);
      if (!args || args.keywords.has('numeric_only') || args.splat) continue;
      const inner = recv.type === 'call' ? methodCall(recv) : undefined;
      const grouped = (inner?.name === 'groupby') ||
        (!!inner && ['resample', 'rolling', 'expanding'].includes(inner.name) && ctx.nb.isDataFrameExpr(inner.recv, ctx.index)) ||
        (recv.type === 'subscript' && recv.childForFieldName('value')?.type === 'call' && methodCall(recv.childForFieldName('value')!)?.name === 'groupby' && recv.childForFieldName('subscript')?.type === 'list');
      if (!grouped && !ctx.nb.isDataFrameExpr(recv, ctx.index)) continue;
      yield { node: call, edits: [addArgument(args, 'numeric_only=True')] };
    }
  },
});

const AGG_FAILED = /agg function failed \[how->(\w+),dtype->object\]/;
/** Methods that take a reduction by name (`.agg('mean')`) and pass keywords on to it. */
const BY_NAME = ['agg', 'aggregate', 'transform'];

/**
 * The same pandas 2.0 change, found from the error instead of the receiver's type: "agg function
 * failed [how->mean,dtype->object]" is raised only by a groupby reduction over an object column, so
 * the reduction on the traceback's notebook line is the one to repair whatever static inference can
 * tell about its receiver (a groupby kept in a variable, a frame returned by a function), and the
 * by-name forms `.agg('mean')`, `.agg(np.mean)`, `.transform('mean')` take `numeric_only=True` too.
 */
const numericOnlyAtError = rule({
  id: 'pandas-numeric-only-at-error',
  triggers: [...NUMERIC_REDUCTIONS, ...BY_NAME],
  library: 'pandas',
  title: 'a groupby reduction over non-numeric columns, named by the error',
  old: "g = df.groupby('k'); g.mean(); df.groupby('k').agg(np.mean)",
  new: "g.mean(numeric_only=True); df.groupby('k').agg('mean', numeric_only=True)",
  removedIn: '2.0',
  trigger: 'error',
  errors: [err('TypeError', AGG_FAILED)],
  link: PD20,
  message: "pandas 2.0 no longer drops non-numeric columns silently in a groupby's mean/median/...: the reduction the error names, on the failing line, gets numeric_only=True (the columns the notebook's run aggregated)",
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1.0, 3.0, 5.0], 'name': ['a', 'b', 'c']})\ng = df.groupby('k')\nprint(g.mean().v.tolist(), df.groupby('k').agg(np.mean).v.tolist(), df.groupby('k').transform('mean').v.tolist())",
    after: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1.0, 3.0, 5.0], 'name': ['a', 'b', 'c']})\ng = df.groupby('k')\nprint(g.mean(numeric_only=True).v.tolist(), df.groupby('k').agg('mean', numeric_only=True).v.tolist(), df.groupby('k').transform('mean', numeric_only=True).v.tolist())",
    expect: '[2.0, 5.0] [2.0, 5.0] [2.0, 2.0, 5.0]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: 'agg function failed [how->mean,dtype->object]' } },
  }],
  *find(ctx) {
    const onLine = onErrorLine(ctx, AGG_FAILED);
    if (!onLine) return;
    for (const { call, name } of ctx.methodCalls([...NUMERIC_REDUCTIONS, ...BY_NAME])) {
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('numeric_only') || !onLine(call)) continue;
      if (NUMERIC_REDUCTIONS.includes(name)) {
        yield { node: call, edits: [addArgument(args, 'numeric_only=True')] };
        continue;
      }
      const f = args.positional[0];
      if (!f || args.all.length !== 1) continue;
      const named = f.type === 'string' ? stringValue(f) : undefined;
      const npName = f.type === 'attribute' && ctx.qname(f)?.startsWith('numpy.') ? f.childForFieldName('attribute')?.text : undefined;
      const how = named ?? npName;
      if (!how || !NUMERIC_REDUCTIONS.includes(how)) continue;
      yield { node: call, edits: [replaceNode(f, `'${how}', numeric_only=True`)] };
    }
  },
});

/** Column keys of `df.loc[:, K] = v` that are labels (not boolean masks, ranges or computed selections). */
function isColumnLabelKey(k: SyntaxNode): boolean {
  if (['string', 'integer', 'identifier', 'attribute', 'subscript', 'concatenated_string'].includes(k.type)) return true;
  return k.type === 'list' && k.namedChildren.length > 0 && k.namedChildren.every((c) => !!c && (c.type === 'string' || c.type === 'identifier'));
}

const fullColumnSetitem = rule({
  id: 'pandas-full-column-setitem',
  triggers: ['loc', 'iloc'],
  library: 'pandas',
  title: 'df.loc[:, col] = values sets in place (keeps the old dtype)',
  old: "df.loc[:, 'Sex'] = le.fit_transform(df['Sex'])",
  new: "df['Sex'] = le.fit_transform(df['Sex'])",
  removedIn: '2.0',
  deprecatedIn: '1.5',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.5.0.html#inplace-operation-when-setting-values-with-loc-and-iloc',
  message: "until pandas 2.0, assigning a whole column through .loc[:, col] / .iloc[:, i] replaced the column (its dtype followed the new values); now it writes into the existing array, so label-encoded text columns stay object and later numeric code fails or drifts. df[col] = values (df.isetitem(i, values)) is the old behaviour",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'s': ['a', 'b', 'a'], 'x': [1.0, 2.0, 3.0]})\ndf.loc[:, 's'] = [0, 1, 0]\ndf.iloc[:, 1] = [1, 2, 3]\nprint(df.dtypes.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'s': ['a', 'b', 'a'], 'x': [1.0, 2.0, 3.0]})\ndf['s'] = [0, 1, 0]\ndf.isetitem(1, [1, 2, 3])\nprint(df.dtypes.tolist())",
    expect: "[dtype('int64'), dtype('int64')]",
    beforeOutcome: 'differs',
  }],
  *find(ctx) {
    for (const { node: attr, nameNode } of ctx.attributesNamed(['loc', 'iloc'])) {
      const sub = attr.parent;
      if (!sub || sub.type !== 'subscript' || !sameNode(sub.childForFieldName('value'), attr)) continue;
      const asg = sub.parent;
      if (!asg || asg.type !== 'assignment' || !sameNode(asg.childForFieldName('left'), sub) || asg.parent?.type !== 'expression_statement') continue;
      const right = asg.childForFieldName('right');
      if (!right || right.type === 'assignment' || asg.childForFieldName('type')) continue;
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k && k.type !== 'comment');
      if (keys.length !== 2 || !isFullSlice(keys[0])) continue;
      const obj = attr.childForFieldName('object');
      if (!obj) continue;
      const key = keys[1];
      if (nameNode.text === 'loc') {
        if (!isColumnLabelKey(key)) continue;
        yield { node: sub, edits: [replaceNode(sub, `${obj.text}[${key.text}]`)] };
      } else {
        if (!(key.type === 'integer' || key.type === 'identifier')) continue;
        yield { node: sub, edits: [replaceNode(asg, `${obj.text}.isetitem(${key.text}, ${right.text})`)] };
      }
    }
  },
});

/** pandas calls whose boolean keywords (sort=, ignore_index=, ...) pandas 2 validates. */
const BOOL_KW_CALLS = ['concat', 'sort_values', 'sort_index', 'merge', 'join', 'groupby', 'append', 'value_counts'];

const boolKeywordTruthiness = rule({
  id: 'pandas-bool-keyword-truthiness',
  triggers: BOOL_KW_CALLS,
  library: 'pandas',
  title: "a string where a boolean keyword is expected (sort='False')",
  old: "pd.concat([train, test], sort='False')",
  new: 'pd.concat([train, test], sort=True)',
  removedIn: '2.0',
  trigger: 'error',
  errors: [err('ValueError', /The '\w+' keyword only accepts boolean values/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#other-api-changes',
  message: "pandas 2 accepts only booleans for sort= and similar keywords; older pandas used the value's truth, so a non-empty string such as 'False' meant True: the literal is replaced by the truth value the notebook's run had",
  fixtures: [{
    before: "import pandas as pd\na = pd.DataFrame({'b': [1], 'a': [2]})\nc = pd.DataFrame({'a': [3], 'c': [4]})\nprint(list(pd.concat([a, c], sort='False').columns))",
    after: "import pandas as pd\na = pd.DataFrame({'b': [1], 'a': [2]})\nc = pd.DataFrame({'a': [3], 'c': [4]})\nprint(list(pd.concat([a, c], sort=True).columns))",
    expect: "['a', 'b', 'c']",
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "The 'sort' keyword only accepts boolean values; False was passed." } },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    const kw = rt ? /The '(\w+)' keyword only accepts boolean values/.exec(rt.evalue)?.[1] : undefined;
    if (!kw) return;
    for (const { call } of ctx.callsNamed(BOOL_KW_CALLS)) {
      const node = callArgs(call)?.keywords.get(kw);
      const value = kwValue(node);
      const text = value ? stringValue(value) : undefined;
      if (!node || !value || text === undefined) continue;
      yield { node: value, edits: [replaceNode(value, text.length ? 'True' : 'False')] };
    }
  },
});

/**
 * pandas validates boolean keywords with `validate_bool_kwarg` ("For argument "inplace" expected type
 * bool, received type int."), which the era's code met with `inplace=1` / `0`: the pandas the author
 * ran used the value's truth. The integer literal becomes that truth, at the failing statement.
 */
const BOOL_ARGUMENT_INT = /For argument "(\w+)" expected type bool, received type int/;
const boolArgumentInt = rule({
  id: 'pandas-bool-argument-int',
  library: 'pandas',
  title: 'an integer where a boolean keyword is expected (inplace=1)',
  old: "df.drop(['Cabin'], axis=1, inplace=1)",
  new: "df.drop(['Cabin'], axis=1, inplace=True)",
  removedIn: '1.0',
  trigger: 'error',
  errors: [err('ValueError', BOOL_ARGUMENT_INT)],
  link: 'https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.drop.html',
  message: 'pandas checks that inplace= (and similar keywords) is a bool; the pandas this notebook ran used the truth of an integer: the literal becomes True or False',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'Cabin': [2]})\ndf.drop(['Cabin'], axis=1, inplace=1)\nprint(list(df.columns))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'Cabin': [2]})\ndf.drop(['Cabin'], axis=1, inplace=True)\nprint(list(df.columns))",
    expect: "['a']",
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'For argument "inplace" expected type bool, received type int.' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, BOOL_ARGUMENT_INT);
    if (!at || !isTracedCell(ctx)) return;
    for (const kw of ctx.nodes('keyword_argument')) {
      const value = kw.childForFieldName('value');
      if (kw.childForFieldName('name')?.text !== at.match[1] || value?.type !== 'integer' || !at.onLine(kw)) continue;
      yield { node: value, edits: [replaceNode(value, Number(value.text) ? 'True' : 'False')] };
    }
  },
});

const getDummiesUint8 = rule({
  id: 'pandas-pin-get-dummies-uint8',
  triggers: ['get_dummies'],
  library: 'pandas',
  title: 'get_dummies dtype uint8 -> bool',
  old: "pd.get_dummies(df['Embarked'])",
  new: "pd.get_dummies(df['Embarked'], dtype='uint8')",
  kind: 'score-calibration',
  changedIn: '2.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#other-api-changes',
  message: "get_dummies returned uint8 indicator columns until pandas 2.0 (now bool, printed True/False, and .values of a frame mixing them with floats is an object array): pin dtype='uint8' to keep the notebook's tables and arrays",
  fixtures: [{
    before: "import pandas as pd\nd = pd.get_dummies(pd.Series(['S', 'C', 'S']))\nprint(d.dtypes.iloc[0], d.iloc[0].tolist())",
    after: "import pandas as pd\nd = pd.get_dummies(pd.Series(['S', 'C', 'S']), dtype='uint8')\nprint(d.dtypes.iloc[0], d.iloc[0].tolist())",
    expect: 'uint8 [0, 1]',
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.25.3' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '2.0')) return;
    for (const { call } of ctx.callsTo(['pandas.get_dummies'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('dtype') || args.positional.length > 7) continue;
      yield { node: call, edits: [addArgument(args, "dtype='uint8'")], message: `get_dummies returned uint8 columns until pandas 2.0 (now bool): pinning dtype='uint8' keeps the notebook's tables (${ctx.nb.info.era.why('pandas', '2.0')})` };
    }
  },
});

const REGEX_META = /[.^$*+?{}[\]\\|()]/;

const strReplaceRegex = rule({
  id: 'pandas-str-replace-regex',
  triggers: ['replace'],
  library: 'pandas',
  title: 'str.replace default regex=True -> False',
  old: "s.str.replace('[0-9]', '')",
  new: "s.str.replace('[0-9]', '', regex=True)",
  kind: 'score-calibration',
  changedIn: '2.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#removal-of-prior-version-deprecations-changes',
  message: 'Series.str.replace treated the pattern as a regular expression until pandas 2.0 (now a literal): pin regex=True to keep the old result',
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series(['Mr. Smith 12'])\nprint(s.str.replace('[0-9]+', '').str.replace('\\\\s+$', '').tolist())",
    after: "import pandas as pd\ns = pd.Series(['Mr. Smith 12'])\nprint(s.str.replace('[0-9]+', '', regex=True).str.replace('\\\\s+$', '', regex=True).tolist())",
    expect: "['Mr. Smith']",
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.25.3' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '2.0')) return;
    for (const { call, recv } of ctx.methodCalls(['replace'])) {
      if (!(recv.type === 'attribute' && recv.childForFieldName('attribute')?.text === 'str')) continue;
      const args = callArgs(call);
      if (!args || args.keywords.has('regex') || args.positional.length < 2 || args.positional.length > 3) continue;
      const pat = stringValue(args.positional[0]);
      // Old pandas used a literal replace for single-character patterns.
      if (pat === undefined || pat.length < 2 || !REGEX_META.test(pat)) continue;
      yield { node: call, edits: [addArgument(args, 'regex=True')], message: `Series.str.replace treated the pattern as a regular expression until pandas 2.0 (now a literal): pinning regex=True keeps the old result (${ctx.nb.info.era.why('pandas', '2.0')})` };
    }
  },
});

/** Names assigned (once) from a set: `cols = set(...)` / `{...}` literal. */
function setNames(ctx: CellContext): Set<string> {
  return ctx.nb.memo('set-valued-names', () => {
    const count = new Map<string, number>();
    const sets = new Set<string>();
    for (const cell of ctx.nb.cells) {
      for (const a of cell.idx.byType.get('assignment') ?? []) {
        const l = a.childForFieldName('left');
        const r = a.childForFieldName('right');
        if (l?.type !== 'identifier' || !r) continue;
        count.set(l.text, (count.get(l.text) ?? 0) + 1);
        if (isSetExpr(r)) sets.add(l.text);
      }
    }
    for (const n of [...sets]) if (count.get(n) !== 1) sets.delete(n);
    return sets;
  });
}

function isSetExpr(n: SyntaxNode): boolean {
  if (n.type === 'set' || n.type === 'set_comprehension') return true;
  return n.type === 'call' && n.childForFieldName('function')?.text === 'set';
}

const columnsSet = rule({
  id: 'pandas-columns-set',
  triggers: ['columns', 'index'],
  library: 'pandas',
  title: 'a set as columns= / index=',
  old: 'pd.DataFrame(data, columns=set(names))',
  new: 'pd.DataFrame(data, columns=list(set(names)))',
  removedIn: '2.0',
  errors: [err('ValueError', /(columns|index) cannot be a set/)],
  link: PD20,
  message: 'pandas 2.0 rejects a set for columns=/index= (its order is arbitrary); list(...) keeps the order the old code got',
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\nnames = set(['a'])\ndf = pd.DataFrame(np.zeros((2, 1)), columns=names)\nprint(df.columns.tolist())",
    after: "import numpy as np\nimport pandas as pd\nnames = set(['a'])\ndf = pd.DataFrame(np.zeros((2, 1)), columns=list(names))\nprint(df.columns.tolist())",
    expect: "['a']",
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['pandas.DataFrame', 'pandas.Series'])) {
      const args = callArgs(call);
      for (const k of ['columns', 'index']) {
        const v = kwValue(args?.keywords.get(k));
        // The set-valued names (a walk of every assignment in the notebook) only once a name is passed:
        // the triggers are in most cells, such calls in few.
        if (v && (isSetExpr(v) || (v.type === 'identifier' && setNames(ctx).has(v.text)))) yield { node: v, edits: [replaceNode(v, `list(${v.text})`)] };
      }
    }
  },
});

/** `df['col']` / `df.col`: the column name the Series carries, when it is written literally. */
function columnName(ctx: CellContext, recv: SyntaxNode): string | undefined {
  if (recv.type === 'subscript') {
    const value = recv.childForFieldName('value');
    // s.str[0] keeps the Series' name.
    if (value && accessorOf(value) === 'str') return columnName(ctx, value.childForFieldName('object')!);
    const keys = recv.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
    return keys.length === 1 ? stringValue(keys[0]) : undefined;
  }
  if (recv.type === 'attribute') {
    const obj = recv.childForFieldName('object');
    // s.dt.year keeps the Series' name.
    if (obj && accessorOf(obj) === 'dt') return columnName(ctx, obj.childForFieldName('object')!);
    return obj && ctx.nb.isDataFrameExpr(obj, ctx.index) ? recv.childForFieldName('attribute')?.text : undefined;
  }
  if (recv.type === 'call') {
    // A Series method that returns a Series of the same name (df['Name'].map(f), .fillna(x),
    // .str.lower()): the name is the column's.
    const fn = recv.childForFieldName('function');
    const obj = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
    const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
    if (!obj || !method) return undefined;
    if (accessorOf(obj) === 'str') return NAME_KEEPING_STR.has(method) ? columnName(ctx, obj.childForFieldName('object')!) : undefined;
    return NAME_KEEPING.has(method) ? columnName(ctx, obj) : undefined;
  }
  return undefined;
}

/** Series methods whose result keeps the Series' name (DataFrame.apply(axis=1) is not reached: its receiver is a frame, not a column). */
const NAME_KEEPING = new Set(['map', 'apply', 'fillna', 'astype', 'dropna', 'round', 'abs', 'replace', 'clip', 'copy', 'sort_values', 'sort_index', 'head', 'tail', 'where', 'mask', 'ffill', 'bfill', 'interpolate']);
/** `.str` methods whose result is a Series of the same name. */
const NAME_KEEPING_STR = new Set(['lower', 'upper', 'strip', 'lstrip', 'rstrip', 'title', 'capitalize', 'replace', 'slice', 'get', 'len', 'contains', 'startswith', 'endswith']);

/** 'str' / 'dt' for `<expr>.str` / `<expr>.dt`, else undefined. */
function accessorOf(n: SyntaxNode): string | undefined {
  const a = n.type === 'attribute' ? n.childForFieldName('attribute')?.text : undefined;
  return a === 'str' || a === 'dt' ? a : undefined;
}

const valueCountsNames = rule({
  id: 'pandas-value-counts-names',
  triggers: ['value_counts'],
  library: 'pandas',
  title: "value_counts() index and name ('index' column after reset_index)",
  old: "df['c'].value_counts().reset_index()  # columns: index, c",
  new: "df['c'].value_counts().rename_axis(None).rename('c').reset_index()",
  removedIn: '2.0',
  // 'index' after reset_index(); the column's own name after to_frame() / pd.DataFrame(...).
  errors: [err('KeyError', /^'index'$|\['index'\]|^'[^']+'$/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#value-counts-sets-the-resulting-name-to-count',
  message: "value_counts() results are named 'count' with an index named after the column since pandas 2.0; before, reset_index() gave the columns 'index' and the column name: rename_axis(None).rename(col) keeps the old names",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nt = df['c'].value_counts().reset_index()\nprint(t['index'].tolist(), t['c'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nt = df['c'].value_counts().rename_axis(None).rename('c').reset_index()\nprint(t['index'].tolist(), t['c'].tolist())",
    expect: "['a', 'b'] [2, 1]",
    beforeError: 'KeyError',
  }, {
    before: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nt = pd.DataFrame(df['c'].value_counts())\nprint(t['c'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nt = pd.DataFrame(df['c'].value_counts().rename_axis(None).rename('c'))\nprint(t['c'].tolist())",
    expect: '[2, 1]',
    beforeError: 'KeyError',
  }, {
    // The counts of a transformed column (map, .str methods keep the Series' name).
    before: "import pandas as pd\ndf = pd.DataFrame({'Name': ['Smith, Mr. A', 'Smith, Mrs. B', 'Jones, Mr. C']})\nt = df['Name'].map(lambda x: x.split(',')[0].lower()).value_counts().reset_index().rename(columns={'index': '_Name', 'Name': 'counts'})\nu = df.Name.str.lower().value_counts().reset_index()\nprint(t['_Name'].tolist(), t['counts'].tolist(), list(u.columns))",
    after: "import pandas as pd\ndf = pd.DataFrame({'Name': ['Smith, Mr. A', 'Smith, Mrs. B', 'Jones, Mr. C']})\nt = df['Name'].map(lambda x: x.split(',')[0].lower()).value_counts().rename_axis(None).rename('Name').reset_index().rename(columns={'index': '_Name', 'Name': 'counts'})\nu = df.Name.str.lower().value_counts().rename_axis(None).rename('Name').reset_index()\nprint(t['_Name'].tolist(), t['counts'].tolist(), list(u.columns))",
    expect: "['smith', 'jones'] [2, 1] ['index', 'Name']",
    beforeError: 'KeyError',
  }, {
    // The result kept in a variable and reset in a later statement.
    before: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nvc = df['c'].value_counts()\nt = vc.reset_index()\nprint(t['index'].tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'c': ['a', 'b', 'a']})\nvc = df['c'].value_counts().rename_axis(None).rename('c')\nt = vc.reset_index()\nprint(t['index'].tolist())",
    expect: "['a', 'b']",
    beforeError: 'KeyError',
  }, {
    // A grouped column's counts: the index was and is (group keys, column); only the name changed.
    before: "import pandas as pd\ndf = pd.DataFrame({'g': ['x', 'x', 'y'], 'c': [1, 1, 2]})\nt = pd.DataFrame(df.groupby('g')['c'].value_counts())\nprint(t['c'].tolist(), list(t.index.names))",
    after: "import pandas as pd\ndf = pd.DataFrame({'g': ['x', 'x', 'y'], 'c': [1, 1, 2]})\nt = pd.DataFrame(df.groupby('g')['c'].value_counts().rename('c'))\nprint(t['c'].tolist(), list(t.index.names))",
    expect: "[2, 1] ['g', 'c']",
    beforeError: 'KeyError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['value_counts'])) {
      const name = columnName(ctx, recv);
      if (name === undefined || /['\\\n]/.test(name)) continue;
      // Only where the names show: the chain goes on to reset_index() or to_frame().
      let cur: SyntaxNode = call;
      let reaches = false;
      for (let i = 0; i < 4; i++) {
        const attr = cur.parent;
        if (attr?.type !== 'attribute') break;
        const m = attr.childForFieldName('attribute')?.text;
        if (m === 'rename_axis') { reaches = false; break; }
        if (m === 'reset_index' || m === 'to_frame') { reaches = true; break; }
        const next = attr.parent;
        if (next?.type !== 'call') break;
        cur = next;
      }
      // pd.DataFrame(s.value_counts()) names its column after the Series: 'count' now.
      if (!reaches) reaches = framedByDataFrame(ctx, call);
      // vc = s.value_counts() ... vc.reset_index() (later, maybe in another cell): the names show there.
      if (!reaches && call.parent?.type === 'assignment' && call.parent.childForFieldName('right')?.startIndex === call.startIndex) {
        const left = call.parent.childForFieldName('left');
        if (left?.type === 'identifier') reaches = namesShowLater(ctx, left.text, call);
      }
      if (!reaches) continue;
      // SeriesGroupBy.value_counts: its index was always (group keys, column), a MultiIndex; only the name changed.
      const grouped = recv.type === 'subscript' && calledMethod(recv.childForFieldName('value')) === 'groupby';
      yield { node: call, edits: [{ start: call.endIndex, end: call.endIndex, text: grouped ? `.rename('${name}')` : `.rename_axis(None).rename('${name}')` }] };
    }
  },
});

/** The method a call node calls (`x.groupby(...)` -> 'groupby'). */
function calledMethod(n: SyntaxNode | null | undefined): string | undefined {
  const fn = n?.type === 'call' ? n.childForFieldName('function') : undefined;
  return fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
}

/** `pd.DataFrame(<node>)` with the node as the first positional argument. */
function framedByDataFrame(ctx: CellContext, node: SyntaxNode): boolean {
  if (node.parent?.type !== 'argument_list' || node.parent.parent?.type !== 'call') return false;
  const outer = node.parent.parent;
  return ctx.qname(outer.childForFieldName('function')) === 'pandas.DataFrame' && callArgs(outer)?.positional[0]?.startIndex === node.startIndex;
}

/**
 * Does a variable assigned a value_counts() result reach reset_index() / to_frame() / pd.DataFrame(...)
 * after its assignment (its only one), where the result's names show?
 */
function namesShowLater(ctx: CellContext, name: string, assigned: SyntaxNode): boolean {
  const uses = ctx.nb.identifiers(name);
  const bindings = uses.filter(({ node }) => node.parent?.type === 'assignment' && node.parent.childForFieldName('left')?.startIndex === node.startIndex);
  if (bindings.length !== 1) return false;
  return uses.some(({ node, cell }) => {
    if (cell < ctx.index || (cell === ctx.index && node.startIndex <= assigned.startIndex)) return false;
    const p = node.parent;
    if (p?.type === 'attribute' && p.childForFieldName('object')?.startIndex === node.startIndex) {
      const m = p.childForFieldName('attribute')?.text;
      return (m === 'reset_index' || m === 'to_frame') && p.parent?.type === 'call';
    }
    return p?.type === 'argument_list' && p.parent?.type === 'call' && ctx.nb.qname(p.parent.childForFieldName('function')!, cell) === 'pandas.DataFrame' && callArgs(p.parent)?.positional[0]?.startIndex === node.startIndex;
  });
}

const MULTIDIM = /Multi-dimensional indexing \(e\.g\. `obj\[:, None\]`\) is no longer supported/;

const multidimIndex = rule({
  id: 'pandas-series-multidim-indexing',
  // A key that is `None` or numpy's newaxis (under any import name) is required.
  triggers: ['newaxis'],
  gate: { source: ['None'] },
  library: 'pandas',
  title: 'Series[:, None] / Series[:, np.newaxis]',
  old: "df['y'][:, np.newaxis]",
  new: "df['y'].to_numpy()[:, np.newaxis]",
  removedIn: '2.0',
  errors: [err('ValueError', MULTIDIM)],
  link: PD20,
  message: 'indexing a Series like a 2-D array was removed in pandas 2.0; convert to a numpy array first (the old result was that array)',
  fixtures: [{
    before: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'y': [1.0, 2.0]})\nprint(df['y'][:, np.newaxis].shape, df.y[:, None].shape)",
    after: "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'y': [1.0, 2.0]})\nprint(df['y'].to_numpy()[:, np.newaxis].shape, df.y.to_numpy()[:, None].shape)",
    expect: '(2, 1) (2, 1)',
    beforeError: 'ValueError',
  }, {
    // A Series the static scan cannot see (a function's parameter): the error names the line; np.asarray
    // is exact for a Series and for an array alike.
    before: "import numpy as np\nimport pandas as pd\ndef col(df, c):\n    return df[c][:, np.newaxis]\nprint(col(pd.DataFrame({'y': [1.0, 2.0]}), 'y').tolist())",
    after: "import numpy as np\nimport pandas as pd\ndef col(df, c):\n    return np.asarray(df[c])[:, np.newaxis]\nprint(col(pd.DataFrame({'y': [1.0, 2.0]}), 'y').tolist())",
    expect: '[[1.0], [2.0]]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'Multi-dimensional indexing (e.g. `obj[:, None]`) is no longer supported. Convert to a numpy array before indexing instead.' } },
  }],
  *find(ctx) {
    const onLine = onErrorLine(ctx, MULTIDIM);
    for (const sub of ctx.nodes('subscript')) {
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (keys.length < 2 || !keys.some((k) => k.type === 'none' || ctx.qname(k) === 'numpy.newaxis')) continue;
      const v = sub.childForFieldName('value');
      if (!v) continue;
      if (ctx.nb.isPandasExpr(v, ctx.index) && !ctx.nb.isDataFrameExpr(v, ctx.index)) {
        yield { node: sub, edits: [{ start: v.endIndex, end: v.endIndex, text: '.to_numpy()' }] };
        continue;
      }
      const fn = v.type === 'call' ? v.childForFieldName('function') : null;
      if (!onLine?.(sub) || (fn && ctx.qname(fn) === 'numpy.asarray')) continue;
      const np = ctx.moduleRef('numpy', 'np');
      if (!np) continue;
      yield { node: sub, edits: [replaceNode(v, `${np.name}.asarray(${v.text})`), ...(np.edit ? [np.edit] : [])] };
    }
  },
});


const TUPLE_SUBSET = /Cannot subset columns with a tuple with more than one element/;

/** `X.groupby(...)`, or a name only ever assigned from one (`g = df.groupby('k')`). */
function isGroupByExpr(ctx: CellContext, node: SyntaxNode): boolean {
  if (node.type === 'call') return methodCall(node)?.name === 'groupby';
  if (node.type !== 'identifier') return false;
  return namesOnlyAssigned(ctx, 'groupby-names', (r) => r.type === 'call' && methodCall(r)?.name === 'groupby').has(node.text);
}

const groupbyTupleColumns = rule({
  id: 'pandas-groupby-tuple-columns',
  // The groupby may be a name assigned in another cell, or known from the error only: any subscript.
  gate: { nodeTypes: ['subscript'] },
  library: 'pandas',
  title: "groupby(...)['a', 'b'] (columns as a tuple)",
  old: "df.groupby('k')['a', 'b'].mean()",
  new: "df.groupby('k')[['a', 'b']].mean()",
  removedIn: '2.0',
  deprecatedIn: '1.0',
  errors: [err('ValueError', TUPLE_SUBSET)],
  link: PD20,
  message: "selecting several columns of a groupby with a tuple (g['a', 'b']) was removed in pandas 2.0; use a list: g[['a', 'b']]",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'a': [1.0, 3.0, 5.0], 'b': [2, 4, 6]})\ng = df.groupby('k')\nprint(df.groupby('k')['a', 'b'].max().to_dict('list'), g['a', 'b'].sum().shape)",
    after: "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'a': [1.0, 3.0, 5.0], 'b': [2, 4, 6]})\ng = df.groupby('k')\nprint(df.groupby('k')[['a', 'b']].max().to_dict('list'), g[['a', 'b']].sum().shape)",
    expect: "{'a': [3.0, 5.0], 'b': [4, 6]} (2, 2)",
    beforeError: 'ValueError',
  }, {
    // A groupby the static scan cannot see (a parameter): the error names the line.
    before: "import pandas as pd\ndef summary(gb):\n    return gb['a', 'b'].max()\nprint(summary(pd.DataFrame({'k': [1, 1], 'a': [1, 2], 'b': [3, 4]}).groupby('k')).values.tolist())",
    after: "import pandas as pd\ndef summary(gb):\n    return gb[['a', 'b']].max()\nprint(summary(pd.DataFrame({'k': [1, 1], 'a': [1, 2], 'b': [3, 4]}).groupby('k')).values.tolist())",
    expect: '[[2, 4]]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'Cannot subset columns with a tuple with more than one element. Use a list instead.' } },
  }],
  *find(ctx) {
    const errorLine = onErrorLine(ctx, TUPLE_SUBSET);
    const onLine = (n: SyntaxNode) => !!errorLine && errorLine(n);
    // Two keys or more are separated by a comma in the text unless the parser made the comma up (a
    // MISSING node): checked first, before reading the keys of every subscript of the cell.
    const madeUp = ctx.nodes('MISSING').length > 0;
    for (const sub of ctx.nodes('subscript')) {
      if (!madeUp && !sub.text.includes(',')) continue;
      const keys = sub.childrenForFieldName('subscript').filter((k): k is SyntaxNode => !!k);
      if (keys.length < 2 || keys.some((k) => k.type === 'slice')) continue;
      const last = keys[keys.length - 1];
      if (last.nextSibling?.type === ',') continue;
      const v = sub.childForFieldName('value');
      if (!v) continue;
      const strings = keys.every((k) => stringValue(k) !== undefined);
      if (!isGroupByExpr(ctx, v) && !(strings && onLine(sub))) continue;
      yield { node: sub, edits: [{ start: keys[0].startIndex, end: keys[0].startIndex, text: '[' }, { start: last.endIndex, end: last.endIndex, text: ']' }] };
    }
  },
});

const SERIES_RESULT_METHODS = new Set(['value_counts', 'mean', 'median', 'sum', 'count', 'size', 'max', 'min', 'std', 'var',
  'nunique', 'cumsum', 'diff', 'pct_change', 'sort_values', 'head', 'tail', 'dropna', 'fillna', 'abs', 'round', 'rank',
  'map', 'astype', 'isnull', 'isna', 'notnull', 'notna', 'corrwith', 'apply', 'agg', 'aggregate', 'prod', 'skew', 'kurt']);
const NOT_PANDAS_ATTRS = new Set(['values', 'shape', 'columns', 'index', 'dtypes', 'str', 'dt', 'T', 'size', 'ndim', 'array']);

/** A pandas object or groupby, through chains of pandas methods, column access and selections. */
function isPandasChain(ctx: CellContext, node: SyntaxNode): boolean {
  if (ctx.nb.isPandasExpr(node, ctx.index) || isGroupByExpr(ctx, node)) return true;
  if (node.type === 'call') {
    const m = methodCall(node);
    return !!m && (SERIES_RESULT_METHODS.has(m.name) || m.name === 'groupby') && isPandasChain(ctx, m.recv);
  }
  if (node.type === 'attribute') {
    const obj = node.childForFieldName('object');
    return !!obj && !NOT_PANDAS_ATTRS.has(node.childForFieldName('attribute')?.text ?? '') && isPandasChain(ctx, obj);
  }
  if (node.type === 'subscript') {
    const v = node.childForFieldName('value');
    return !!v && isPandasChain(ctx, v);
  }
  return false;
}

const seriesArgmaxLabel = rule({
  id: 'pandas-series-argmax-label',
  triggers: ['argmax', 'argmin'],
  library: 'pandas',
  title: 'Series.argmax / argmin returned the label',
  old: 's.value_counts().argmax()',
  new: 's.value_counts().idxmax()',
  kind: 'score-calibration',
  changedIn: '1.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#deprecations',
  message: 'Series.argmax/argmin were aliases of idxmax/idxmin (they returned the index label) until pandas 1.0, where they became positional: idxmax/idxmin keep the old result',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'port': ['S', 'C', 'S', None], 'fare': [7.0, 70.0, 8.0, 9.0]}, index=[10, 11, 12, 13])\nmode = df.port.value_counts().argmax()\nprint(mode, df['fare'].argmax(), df.groupby('port').fare.mean().argmin())",
    after: "import pandas as pd\ndf = pd.DataFrame({'port': ['S', 'C', 'S', None], 'fare': [7.0, 70.0, 8.0, 9.0]}, index=[10, 11, 12, 13])\nmode = df.port.value_counts().idxmax()\nprint(mode, df['fare'].idxmax(), df.groupby('port').fare.mean().idxmin())",
    expect: 'S 11 S',
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.23.4' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '1.0')) return;
    for (const { call, recv, name, nameNode } of ctx.methodCalls(['argmax', 'argmin'])) {
      const args = callArgs(call);
      if (!args || args.positional.length || args.splat || [...args.keywords.keys()].some((k) => k !== 'skipna')) continue;
      if (!isPandasChain(ctx, recv) || ctx.nb.isDataFrameExpr(recv, ctx.index) || isGroupByExpr(ctx, recv)) continue;
      yield { node: call, edits: [replaceNode(nameNode, name === 'argmax' ? 'idxmax' : 'idxmin')], message: `Series.${name} returned the index label until pandas 1.0 (now the position): idx${name.slice(3)} keeps the old result (${ctx.nb.info.era.why('pandas', '1.0')})` };
    }
  },
});

const datetimeIndexWeek = rule({
  id: 'pandas-datetimeindex-week',
  triggers: ['week', 'weekofyear'],
  library: 'pandas',
  title: 'DatetimeIndex.week / .weekofyear',
  old: 'pd.DatetimeIndex(df.datetime).week',
  new: "pd.DatetimeIndex(df.datetime).isocalendar().week.to_numpy('int64')",
  removedIn: '2.0',
  deprecatedIn: '1.1',
  errors: [err('AttributeError', /'DatetimeIndex' object has no attribute '(week|weekofyear)'/)],
  link: PD20,
  message: "DatetimeIndex.week/.weekofyear were removed in pandas 2.0; isocalendar().week is a Series indexed by the dates (it would align on assignment), so take its values: .isocalendar().week.to_numpy('int64')",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'datetime': ['2011-01-08 10:00', '2011-03-01 01:00']})\ndf['week'] = pd.DatetimeIndex(df['datetime']).week\nidx = pd.DatetimeIndex(df.datetime)\nprint(df.week.tolist(), list(idx.weekofyear), df.week.dtype)",
    after: "import pandas as pd\ndf = pd.DataFrame({'datetime': ['2011-01-08 10:00', '2011-03-01 01:00']})\ndf['week'] = pd.DatetimeIndex(df['datetime']).isocalendar().week.to_numpy('int64')\nidx = pd.DatetimeIndex(df.datetime)\nprint(df.week.tolist(), list(idx.isocalendar().week.to_numpy('int64')), df.week.dtype)",
    expect: '[1, 9] [np.int64(1), np.int64(9)] int64',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const isDtiCall = (r: SyntaxNode, cell: number) => {
      const fn = r.type === 'call' ? r.childForFieldName('function') : null;
      return !!fn && ctx.nb.qname(fn, cell) === 'pandas.DatetimeIndex';
    };
    const dtiNames = namesOnlyAssigned(ctx, 'datetimeindex-names', isDtiCall);
    for (const { node: a, nameNode: name, obj } of ctx.attributesNamed(['week', 'weekofyear'])) {
      // Already rewritten (the run's error still names this line): `x.isocalendar().week`.
      if (obj.type === 'call' && methodCall(obj)?.name === 'isocalendar') continue;
      const isDti = isDtiCall(obj, ctx.index) || (obj.type === 'identifier' && dtiNames.has(obj.text)) ||
        ctx.nb.evidenceType(obj, ctx.index) === 'DatetimeIndex';
      if (!isDti) continue;
      yield { node: a, edits: [replaceNode(name, "isocalendar().week.to_numpy('int64')")] };
    }
  },
});


const strExtractExpand = rule({
  id: 'pandas-str-extract-expand',
  triggers: ['extract'],
  library: 'pandas',
  title: 'str.extract default expand=None (False) -> True',
  old: "df.Name.str.extract(' ([A-Za-z]+)\\.')",
  new: "df.Name.str.extract(' ([A-Za-z]+)\\.', expand=False)",
  kind: 'score-calibration',
  changedIn: '0.23',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.23.0.html#deprecations',
  message: 'Series.str.extract returned a Series for a single capture group (expand=None, treated as False) until pandas 0.23, where the default became expand=True (a DataFrame): pin expand=False to keep the old result',
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'Name': ['Braund, Mr. Owen', 'Cumings, Mrs. John', 'Heikkinen, Miss. Laina']})\ndf['Title'] = df.Name.str.extract(' ([A-Za-z]+)\\.')\nt = df['Name'].str.extract(' ([A-Za-z]+)\\.')\nprint(type(t).__name__, t.tolist() if t.ndim == 1 else t.shape, df.Title.tolist())",
    after: "import pandas as pd\ndf = pd.DataFrame({'Name': ['Braund, Mr. Owen', 'Cumings, Mrs. John', 'Heikkinen, Miss. Laina']})\ndf['Title'] = df.Name.str.extract(' ([A-Za-z]+)\\.', expand=False)\nt = df['Name'].str.extract(' ([A-Za-z]+)\\.', expand=False)\nprint(type(t).__name__, t.tolist() if t.ndim == 1 else t.shape, df.Title.tolist())",
    expect: "Series ['Mr', 'Mrs', 'Miss'] ['Mr', 'Mrs', 'Miss']",
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.20.3' } } },
  }],
  *find(ctx) {
    if (!ctx.nb.info.era.predates('pandas', '0.23')) return;
    for (const { call, recv } of ctx.methodCalls(['extract'])) {
      if (!(recv.type === 'attribute' && recv.childForFieldName('attribute')?.text === 'str')) continue;
      const args = callArgs(call);
      // extract(pat, flags=0, expand=None): a third positional argument is expand.
      if (!args || args.splat || args.keywords.has('expand') || args.positional.length < 1 || args.positional.length > 2) continue;
      yield { node: call, edits: [addArgument(args, 'expand=False')], message: `Series.str.extract returned a Series for one capture group until pandas 0.23 (expand=None meant False; the default is now True, a DataFrame): pinning expand=False keeps the old result (${ctx.nb.info.era.why('pandas', '0.23')})` };
    }
  },
});

export const pandasRules: Rule[] = [
  ix, append, asMatrix, getSetValue, fromCsv, convertObjects, rollingFns, ewmFns, sortRule, orderRule, sortIndexBy,
  plottingModule, panel, nestedRenamer, badLines, iteritems, mad, keywordOnly, dtWeek, numericIndex, pdNp, pdDatetime,
  utilTesting, reindexAxis, dtypeCounts, validRule, clipUpperLower, setOption, resampleHow, levelReductions,
  seriesNonzero, lineTerminator, timeGrouper, isMonotonic, readCsvSqueeze, readCsvSepAndDelimiter, lookup, numericOnly, numericOnlyAtError, strReplaceRegex, getDummiesUint8, fullColumnSetitem, boolKeywordTruthiness, boolArgumentInt, columnsSet, valueCountsNames, multidimIndex,
  groupbyTupleColumns, seriesArgmaxLabel, datetimeIndexWeek, strExtractExpand,
];


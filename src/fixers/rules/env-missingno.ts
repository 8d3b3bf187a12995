/**
 * missingno is not packaged for Debian, so `import missingno as msno` stops a notebook at its first
 * cell although the library only draws: `msno.matrix(df)`, `msno.bar(df)`, `msno.heatmap(df)`,
 * `msno.dendrogram(df)` make figures of where values are missing, and nothing the notebook computes
 * comes from them (the oracle does not judge pictures). The repair draws the same information with
 * what the environment has, so the rest of the notebook runs: the bar of non-null counts per column
 * with pandas (`df.notnull().sum().plot.bar()`, missingno's `bar`), the nullity matrix and the
 * nullity correlation with matplotlib's `imshow` when the notebook has `plt` (otherwise the bar), and
 * the import goes. Only when every use of the module is one of those four calls on a frame; anything
 * else (`msno.nullity_filter`, the module passed around) is left to the report.
 *
 * Recognised from the ModuleNotFoundError, with its uses in every cell (errorScope 'notebook').
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { deleteStatement, err, rule } from './helpers.js';
import { callArgs, paren, replaceNode } from './tree.js';

const NO_MISSINGNO = /No module named 'missingno'/;
const PLOTS = new Set(['matrix', 'bar', 'heatmap', 'dendrogram']);

/** The notebook's names for the module, when every use of them is a supported plot call; else undefined. */
function plotOnlyNames(ctx: CellContext): string[] | undefined {
  return ctx.nb.memo('missingno-names', () => {
    const names: string[] = [];
    for (const [local, list] of ctx.nb.bindings) {
      if (!list.some((b) => b.qname === 'missingno')) continue;
      if (list.some((b) => b.qname !== 'missingno')) return undefined;
      names.push(local);
    }
    if (!names.length) return undefined;
    for (const name of names) {
      for (const { node } of ctx.nb.identifiers(name)) {
        const p = node.parent;
        if (p?.type === 'aliased_import' || p?.type === 'dotted_name' || p?.type === 'import_statement') continue;
        const call = p?.type === 'attribute' && p.childForFieldName('object')?.id === node.id ? p.parent : undefined;
        const method = p?.childForFieldName('attribute')?.text;
        if (!call || call.type !== 'call' || call.childForFieldName('function')?.id !== p!.id || !method || !PLOTS.has(method)) return undefined;
        if (!frameArgument(call)) return undefined;
      }
    }
    return names;
  });
}

/** The frame a plot call draws (its first positional argument, or `df=`). */
function frameArgument(call: SyntaxNode): SyntaxNode | undefined {
  const args = callArgs(call);
  if (!args || args.splat) return undefined;
  return args.positional[0] ?? args.keywords.get('df')?.childForFieldName('value') ?? undefined;
}

/** What draws the same information with pandas / matplotlib. */
function substitute(method: string, frame: string, figsize: string | undefined, plt: boolean): string {
  const bar = `${frame}.notnull().sum().plot.bar(${figsize ? `figsize=${figsize}` : ''})`;
  if (!plt) return bar;
  if (method === 'matrix') return `plt.imshow(${frame}.notnull(), aspect='auto', interpolation='none', cmap='gray')`;
  if (method === 'heatmap') return `plt.imshow(${frame}.isnull().corr(), cmap='RdBu', vmin=-1, vmax=1)`;
  return bar;
}

export const envMissingnoSubstitute: Rule = rule({
  id: 'env-missingno-substitute',
  // No identifier trigger: the calls go through the notebook's alias (msno), named nowhere else.
  library: 'environment',
  title: 'missingno plots (library not in the environment) drawn with pandas / matplotlib',
  old: 'import missingno as msno\nmsno.bar(df)',
  new: 'df.notnull().sum().plot.bar()',
  trigger: 'error',
  errorScope: 'notebook',
  errors: [err('ModuleNotFoundError', NO_MISSINGNO)],
  link: 'https://packages.debian.org/search?keywords=missingno',
  message: 'missingno is not in the environment (Debian does not package it); its plots only show where values are missing, so they are drawn with pandas / matplotlib instead and the import goes',
  fixtures: [{
    before: "import pandas as pd\nimport matplotlib.pyplot as plt\nimport missingno as msno\ndf = pd.DataFrame({'a': [1, None, 3], 'b': [None, None, 1.0]})\nmsno.bar(df, figsize=(6, 3))\nmsno.matrix(df.sample(3, random_state=0))\nprint(df.notnull().sum().tolist())",
    after: "import pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.DataFrame({'a': [1, None, 3], 'b': [None, None, 1.0]})\ndf.notnull().sum().plot.bar(figsize=(6, 3))\nplt.imshow(df.sample(3, random_state=0).notnull(), aspect='auto', interpolation='none', cmap='gray')\nprint(df.notnull().sum().tolist())",
    expect: '[2, 1]',
    beforeError: 'ModuleNotFoundError',
    context: { runtime: { ename: 'ModuleNotFoundError', evalue: "No module named 'missingno'" } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const rt = ctx.nb.info.runtime;
    if (!rt || !NO_MISSINGNO.test(rt.evalue)) return;
    const names = plotOnlyNames(ctx);
    if (!names) return;
    // plt bound by this cell or one above it (a notebook importing pyplot only further down gets the bar).
    const plt = ctx.nb.bindings.get('plt')?.some((b) => b.qname === 'matplotlib.pyplot' && b.cell <= ctx.index) ?? false;
    const edits: TextEdit[] = [];
    for (const stmt of ctx.nodes('import_statement')) {
      const items = stmt.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
      const dn = (n: SyntaxNode) => (n.type === 'aliased_import' ? n.childForFieldName('name') : n)?.text;
      if (items.length && items.every((n) => dn(n) === 'missingno')) edits.push(deleteStatement(ctx, stmt));
    }
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      const obj = fn?.type === 'attribute' ? fn.childForFieldName('object') : undefined;
      if (!obj || obj.type !== 'identifier' || !names.includes(obj.text)) continue;
      const frame = frameArgument(call);
      if (!frame) continue;
      const figsize = callArgs(call)?.keywords.get('figsize')?.childForFieldName('value')?.text;
      edits.push(replaceNode(call, substitute(fn!.childForFieldName('attribute')!.text, paren(frame), figsize, plt)));
    }
    if (edits.length) yield { node: ctx.root, edits };
  },
});

/**
 * A `drop` of labels that nothing in the notebook makes: the author's kernel held them from cells the
 * notebook no longer has (deleted, or rewritten after they ran), so the drop worked there and raises
 * `KeyError: "['x'] not found in axis"` from a fresh kernel. Every other mention of the label is
 * another drop (or `del`): no cell creates, reads or renames it. The frame the author went on with
 * lacked those labels either way, so `errors='ignore'` gives the same frame: the smallest edit that
 * reproduces the author's state. Not a library change but a notebook's hidden state (as a name no
 * cell binds is); recognised from the runtime error, on the line the traceback points at, and kept
 * only when the cell's stored outputs then agree (generate-and-verify).
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, callArgs, stringValue } from './tree.js';
import { onFrameLines } from './traceback.js';

/** The labels of pandas' message: `"['a', 'b'] not found in axis"` or, from an Index, `"['a' 'b'] not found in axis"`. */
export function absentLabels(evalue: string): string[] {
  const m = /\[(.*)\] not found in axis/s.exec(evalue);
  if (!m) return [];
  return [...m[1]!.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1] ?? x[2] ?? '');
}

/** Is this literal an argument of a `.drop(...)` call, or the key of a `del x[...]`? */
function inDropOrDel(n: SyntaxNode): boolean {
  for (let p: SyntaxNode | null = n.parent; p; p = p.parent) {
    if (p.type === 'call') {
      const fn = p.childForFieldName('function');
      return fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'drop';
    }
    if (p.type === 'delete_statement') return true;
    if (p.type.endsWith('_statement') || p.type === 'module' || p.type === 'block') return false;
  }
  return false;
}

export const dataDropAbsentLabels: Rule = rule({
  id: 'data-drop-absent-labels',
  // Not a library change: the data the author's kernel held (as the data-path rules are about the data's files).
  library: 'data',
  title: 'a drop of labels no cell makes (the author kernel had them)',
  old: "df.drop(['gone_col'], axis=1)",
  new: "df.drop(['gone_col'], axis=1, errors='ignore')",
  trigger: 'error',
  errors: [err('KeyError', /not found in axis/)],
  link: 'https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.drop.html',
  message: "these labels are dropped here but no cell of the notebook makes them: the author's kernel had them from cells the notebook no longer holds; errors='ignore' leaves the frame the author went on with",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\ndf.drop(['b', 'Old_Feature'], axis=1, inplace=True)\nprint(list(df.columns))",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\ndf.drop(['b', 'Old_Feature'], axis=1, inplace=True, errors='ignore')\nprint(list(df.columns))",
    expect: "['a']",
    beforeError: 'KeyError',
    context: { runtime: { ename: 'KeyError', evalue: `"['Old_Feature'] not found in axis"` } },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    const labels = rt ? absentLabels(rt.evalue) : [];
    if (!labels.length) return;
    // Every mention of each absent label, in any cell, is inside a drop or a del.
    for (const cell of ctx.nb.cells) {
      for (const s of cell.tree.rootNode.descendantsOfType('string')) {
        const v = stringValue(s);
        if (v !== undefined && labels.includes(v) && !inDropOrDel(s!)) return;
      }
    }
    const onLine = onFrameLines(rt!.frames, ctx.index, ctx.root);
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'drop' || !onLine(call)) continue;
      const args = callArgs(call);
      if (!args || args.keywords.has('errors') || args.splat) continue;
      // The drop that names an absent label (a literal in its arguments).
      const named = call.descendantsOfType('string').some((s) => { const v = stringValue(s); return v !== undefined && labels.includes(v); });
      if (named) yield { node: call, edits: [addArgument(args, "errors='ignore'")] };
    }
  },
});

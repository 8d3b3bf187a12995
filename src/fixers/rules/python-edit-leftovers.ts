/**
 * Text a cell cannot have run with: the author edited it after its recorded run (the stored count and
 * outputs stay), or pasted it from a web page. Python 3 never accepted either, so no version change
 * is involved (environment rules: how the author worked, not a library release); the repair is what
 * the recorded run shows the cell did.
 *
 * - A no-break space (U+00A0) in code, outside strings and comments: pasted from a web page or a PDF.
 *   To the author it was a space; Python 3 stops with "invalid non-printable character U+00A0".
 * - A `from module import` with no names after it (the author was typing an import, then moved it):
 *   it imports nothing, so the line goes.
 */
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';

const LEFTOVER_LINK = 'https://docs.python.org/3/reference/lexical_analysis.html#whitespace-between-tokens';

/** Whether an offset of the cell lies in a string or a comment (the author's text, left as written). */
function inText(ctx: CellContext): (offset: number) => boolean {
  const ranges = [...ctx.nodes('string'), ...ctx.nodes('comment')].map((n) => [n.startIndex, n.endIndex] as const);
  return (offset) => ranges.some(([a, b]) => offset >= a && offset < b);
}

const nbsp = rule({
  id: 'py-nbsp-in-code',
  gate: { source: ['\u00a0'] },
  library: 'environment',
  title: 'no-break space (U+00A0) in code',
  old: 'x\u00a0= 1',
  new: 'x = 1',
  errors: [err('SyntaxError', /invalid non-printable character U\+00A0/)],
  link: LEFTOVER_LINK,
  message: 'a no-break space (U+00A0, pasted from a web page) is not whitespace to Python; outside strings and comments it becomes a space',
  fixtures: [{
    before: "x\u00a0= 1\n\u00a0\nprint(x, ord('a\u00a0b'[1]))  # \u00a0",
    after: "x = 1\n \nprint(x, ord('a\u00a0b'[1]))  # \u00a0",
    expect: '1 160',
    beforeError: 'SyntaxError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const src = ctx.cell.source;
    const text = inText(ctx);
    const edits: TextEdit[] = [];
    for (let i = src.indexOf('\u00a0'); i >= 0; i = src.indexOf('\u00a0', i + 1)) {
      if (!text(i)) edits.push({ start: i, end: i + 1, text: ' ' });
    }
    if (edits.length) yield { node: ctx.root, edits };
  },
});

const DANGLING = /^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t\u00a0]*(?:#.*)?$/gm;

const danglingImport = rule({
  id: 'py-dangling-from-import',
  gate: { source: ['import'] },
  library: 'environment',
  title: '`from module import` with no names',
  old: 'from sklearn.model_selection import \nsearch = GridSearchCV(model, grid)',
  new: 'search = GridSearchCV(model, grid)',
  errors: [err('SyntaxError', /invalid syntax|Expected one or more names after 'import'|trailing comma not allowed/)],
  link: 'https://docs.python.org/3/reference/simple_stmts.html#the-import-statement',
  message: 'a `from ... import` with no names imports nothing and cannot have run: the author edited the cell after its recorded run; the line goes',
  fixtures: [{
    before: 'from math import sqrt\nfrom math import \nprint(sqrt(4))',
    after: 'from math import sqrt\nprint(sqrt(4))',
    expect: '2.0',
    beforeError: 'SyntaxError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const src = ctx.cell.source;
    // Built on the first match only: nearly every cell with an import has no dangling one, and
    // listing its strings and comments walks its whole tree twice (one walk per node type).
    let text: ((offset: number) => boolean) | undefined;
    const edits: TextEdit[] = [];
    for (const m of src.matchAll(DANGLING)) {
      if ((text ??= inText(ctx))(m.index)) continue;
      const end = m.index + m[0].length;
      edits.push({ start: m.index, end: src[end] === '\n' ? end + 1 : end, text: '' });
    }
    if (edits.length) yield { node: ctx.root, edits };
  },
});

export const pythonEditLeftoverRules: Rule[] = [nbsp, danglingImport];

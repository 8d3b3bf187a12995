/**
 * Text a cell cannot have run with: the author edited it after its recorded run (the stored count and
 * outputs stay), or pasted it from a web page. Python 3 never accepted either, so no version change
 * is involved (environment rules: how the author worked, not a library release); the repair is what
 * the recorded run shows the cell did.
 *
 * - A no-break space (U+00A0) in code, outside strings and comments: pasted from a web page or a PDF.
 *   To the author it was a space; Python 3 stops with "invalid non-printable character U+00A0".
 * - An invisible control or zero-width character in code (U+0000-U+001F but tab, newline, carriage
 *   return and form feed; U+007F; U+200B-U+200D, U+2060, U+FEFF), outside strings and comments: a
 *   keystroke or paste leftover no Python version ran as code ("invalid non-printable character").
 *   It has no width, so it goes.
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

/** Every match of a one-character pattern outside strings and comments, replaced. */
function* replaceInCode(ctx: CellContext, re: RegExp, by: string): Generator<RuleMatch> {
  const text = inText(ctx);
  const edits: TextEdit[] = [];
  for (const m of ctx.cell.source.matchAll(re)) if (!text(m.index)) edits.push({ start: m.index, end: m.index + m[0].length, text: by });
  if (edits.length) yield { node: ctx.root, edits };
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
    yield* replaceInCode(ctx, /\u00a0/g, ' ');
  },
});

/** Invisible characters no Python tokenizer reads as code (tab, newline, CR and form feed are whitespace). */
const INVISIBLE = ['\u0000', '\u0001', '\u0002', '\u0003', '\u0004', '\u0005', '\u0006', '\u0007', '\u0008', '\u000b', '\u000e', '\u000f',
  '\u0010', '\u0011', '\u0012', '\u0013', '\u0014', '\u0015', '\u0016', '\u0017', '\u0018', '\u0019', '\u001a', '\u001b', '\u001c', '\u001d', '\u001e', '\u001f',
  '\u007f', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const INVISIBLE_RE = new RegExp(`[${INVISIBLE.join('')}]`, 'g');

const invisible = rule({
  id: 'py-invisible-char-in-code',
  gate: { source: INVISIBLE },
  library: 'environment',
  title: 'invisible control or zero-width character in code',
  old: 'f(\u001dx)',
  new: 'f(x)',
  errors: [err('SyntaxError', /invalid non-printable character U\+(00[01][0-9A-F]|007F|200[B-D]|2060|FEFF)/)],
  link: LEFTOVER_LINK,
  message: 'an invisible control or zero-width character (a keystroke or paste leftover) is not code to any Python; outside strings and comments it goes',
  fixtures: [{
    before: "x = \u001d1\u200b\nprint(x, len('a\u001db'))  # \u200b",
    after: "x = 1\nprint(x, len('a\u001db'))  # \u200b",
    expect: '1 3',
    beforeError: 'SyntaxError',
  }],
  *find(ctx): Generator<RuleMatch> {
    yield* replaceInCode(ctx, INVISIBLE_RE, '');
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

export const pythonEditLeftoverRules: Rule[] = [nbsp, invisible, danglingImport];

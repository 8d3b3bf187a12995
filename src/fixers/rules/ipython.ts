/**
 * IPython syntax that is not Python (`%matplotlib inline`, `!ls`, `df.head?`, `x = !cmd`, cell
 * magics) is masked before parsing so it does not turn into ERROR nodes that block rewrites.
 * Masking keeps every offset: a masked line becomes a comment (or `pass#...` so an indented block
 * keeps a statement) of exactly the same length, so edits computed on the masked text apply to the
 * original text unchanged. Masked ranges are never edited.
 */

export interface MaskedSource {
  /** Same length as the original; IPython-only parts replaced. */
  text: string;
  /** [start, end) ranges (original offsets) that were masked. */
  masked: Array<[number, number]>;
  /** false for cells whose cell magic makes them non-Python (%%bash, %%writefile, %%html, ...). */
  python: boolean;
}

/** Cell magics whose body is Python. */
const PYTHON_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'debug', 'python', 'python3', 'pypy', 'px', 'memit']);

const AUTOMAGIC = /^(?:matplotlib|pylab|load_ext|reload_ext|autoreload|aimport)\s+[A-Za-z0-9_]/;
const HELP = /^(?:\?\??[A-Za-z_][\w.]*(?:\(\))?|[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\(\))?\?\??)\s*$/;
const ASSIGN_FROM_MAGIC = /^((?:[A-Za-z_][\w.]*\s*,\s*)*[A-Za-z_][\w.]*\s*=\s*)[!%]/;

/**
 * Lines that start a logical line (not inside a string, brackets or after a backslash), as
 * [start, end) offsets of the line without its newline.
 */
export function logicalLineStarts(src: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let depth = 0;
  let quote: string | null = null; // "'", '"', "'''", '"""'
  let lineStart = 0;
  let startsLogical = true;
  let continued = false;
  let i = 0;
  const n = src.length;
  while (i <= n) {
    if (i === n || src[i] === '\n') {
      if (startsLogical) out.push([lineStart, i]);
      // A single-quoted string cannot span lines (unless escaped newline, handled below).
      if (quote && quote.length === 1) quote = null;
      startsLogical = !quote && depth === 0 && !continued;
      continued = false;
      lineStart = i + 1;
      i += 1;
      continue;
    }
    const c = src[i];
    if (quote) {
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (src.startsWith(quote, i)) {
        i += quote.length;
        quote = null;
        continue;
      }
      i += 1;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i += 1;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      continued = true;
      i += 1;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = src.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth -= 1;
    i += 1;
  }
  return out;
}

export function maskIPython(src: string): MaskedSource {
  const masked: Array<[number, number]> = [];
  let text = src;
  const replace = (start: number, end: number, withText: string) => {
    text = text.slice(0, start) + withText + text.slice(end);
    masked.push([start, end]);
  };
  let bodyStart = 0;
  // Cell magic on the first line.
  const first = /^[ \t]*%%([A-Za-z_][\w]*)/.exec(src);
  if (first) {
    if (!PYTHON_CELL_MAGICS.has(first[1])) return { text: src, masked: [], python: false };
    const nl = src.indexOf('\n');
    const end = nl < 0 ? src.length : nl;
    replace(0, end, '#'.padEnd(end, ' ').slice(0, end));
    bodyStart = end;
  }
  for (const [start, end] of logicalLineStarts(src)) {
    if (start < bodyStart) continue;
    const line = src.slice(start, end);
    const indent = /^[ \t]*/.exec(line)![0].length;
    const content = line.slice(indent);
    if (!content) continue;
    const s = start + indent;
    const e = end;
    if (content[0] === '%' || content[0] === '!' || AUTOMAGIC.test(content) || (content[0] !== '#' && HELP.test(content) && content.includes('?'))) {
      const len = e - s;
      // `pass#rest` keeps a statement (for magic-only blocks) when there is room; otherwise a comment.
      const repl = len >= 5 ? 'pass#' + ' '.repeat(len - 5) : '#' + ' '.repeat(len - 1);
      replace(s, e, repl);
      continue;
    }
    const assign = ASSIGN_FROM_MAGIC.exec(content);
    if (assign) {
      const rs = s + assign[1].length;
      replace(rs, e, '0'.padEnd(e - rs, ' '));
    }
  }
  return { text, masked, python: true };
}

/** True when [start, end) touches a masked range (edits there are dropped). */
export function overlapsMasked(masked: Array<[number, number]>, start: number, end: number): boolean {
  for (const [ms, me] of masked) {
    if (start < me && end > ms) return true;
    if (start === end && start > ms && start < me) return true;
  }
  return false;
}

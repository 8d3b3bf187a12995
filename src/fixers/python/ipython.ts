/**
 * IPython syntax that is not Python (`%matplotlib inline`, `!ls`, `df.head?`, `x = !cmd`, cell
 * magics, automagics such as `matplotlib inline`), found once and masked before parsing so it does
 * not turn into ERROR nodes. One scan, one list of magics, two renderings:
 *
 * - maskIPython keeps every offset: a masked line becomes a comment (or `pass#...` so an indented
 *   block keeps a statement) of exactly the same length, so edits computed on the masked text apply
 *   to the original unchanged (the rule engine; masked ranges are never edited).
 * - maskIPythonLines keeps every line: a masked line becomes `pass` at its indentation (`x = None`
 *   for `x = !cmd`), so parse positions map back to the cell's lines (def-use, patch validation).
 *
 * Only lines that start a logical line are IPython: a `%` continuing an expression or inside a
 * triple-quoted string is Python.
 */

/** Cell magics whose body is Python that runs in the kernel; any other cell magic makes the cell non-Python. */
export const PYTHON_CELL_MAGICS: ReadonlySet<string> = new Set([
  'time', 'timeit', 'capture', 'prun', 'memit', 'mprun', 'debug', 'python', 'python3', 'ipython', 'pypy', 'px', 'tensorflow_version',
]);

/** Line magics IPython runs without `%` (automagic) that the era's notebooks used that way. */
const AUTOMAGIC = /^(?:matplotlib|pylab|load_ext|reload_ext|autoreload|aimport)\s+[A-Za-z0-9_]/;
const HELP = /^(?:\?\??[A-Za-z_][\w.]*(?:\(\))?|[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\(\))?\?\??)\s*$/;
const ASSIGN_FROM_MAGIC = /^((?:[A-Za-z_][\w.]*\s*,\s*)*[A-Za-z_][\w.]*\s*=\s*)[!%]/;
const CELL_MAGIC = /^[ \t]*%%([A-Za-z_]\w*)/;

export type IPythonKind = 'line-magic' | 'cell-magic' | 'shell' | 'help' | 'magic-assignment';

/** One IPython line of a cell. */
interface IPythonLine {
  /** 0-based physical line. */
  line: number;
  /** [start, end) offsets of the IPython part: from the indentation (or after `x = `) to the end of the line. */
  start: number;
  end: number;
  /** start, counted from the beginning of its line. */
  column: number;
  kind: IPythonKind;
  /** The cell magic that heads the cell (its body is Python). */
  header?: true;
}

/**
 * Lines that start a logical line (not inside a string, brackets or after a backslash), as
 * [start, end) offsets of the line without its newline.
 */
export function logicalLineRanges(src: string): Array<[number, number]> {
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

/** For each physical line: does a logical line start there? */
export function logicalLineStarts(lines: string[]): boolean[] {
  const starts = new Set(logicalLineRanges(lines.join('\n')).map(([s]) => s));
  let offset = 0;
  return lines.map((l) => {
    const start = starts.has(offset);
    offset += l.length + 1;
    return start;
  });
}

/** The kind of IPython syntax a logical line's content (indentation removed) is, if any; for an assignment, the kept prefix. */
function classify(content: string): { kind: IPythonKind; keep: number } | undefined {
  if (content.startsWith('%%')) return { kind: 'cell-magic', keep: 0 };
  if (content.startsWith('%') || AUTOMAGIC.test(content)) return { kind: 'line-magic', keep: 0 };
  if (content.startsWith('!') && !content.startsWith('!=')) return { kind: 'shell', keep: 0 };
  if (content[0] !== '#' && content.includes('?') && HELP.test(content)) return { kind: 'help', keep: 0 };
  const assign = ASSIGN_FROM_MAGIC.exec(content);
  return assign ? { kind: 'magic-assignment', keep: assign[1]!.length } : undefined;
}

/**
 * Text every cell with an IPython line has somewhere (classify): `%` or `!` or an automagic's name
 * after a line's indentation, a `?` (help), `=` then `!` or `%` (assignment from a magic). Most
 * cells have none of it and are not scanned line by line.
 */
const MAYBE_IPYTHON = /^[ \t]*(?:[%!]|matplotlib|pylab|load_ext|reload_ext|autoreload|aimport)|\?|=\s*[!%]/m;

/** The cell's IPython lines; for a cell a non-Python cell magic heads, only that line and the magic's name. */
function scan(src: string): { lines: IPythonLine[]; nonPython?: string } {
  if (!MAYBE_IPYTHON.test(src)) return { lines: [] };
  const lineOf = new Map<number, number>();
  let offset = 0;
  src.split('\n').forEach((l, k) => { lineOf.set(offset, k); offset += l.length + 1; });
  const lines: IPythonLine[] = [];
  let bodyStart = 0;
  // A cell magic on the first line that is not blank (IPython drops leading blank lines).
  const lead = /^(?:[ \t]*\n)*/.exec(src)![0].length;
  const first = CELL_MAGIC.exec(src.slice(lead));
  if (first) {
    const nl = src.indexOf('\n', lead);
    bodyStart = nl < 0 ? src.length : nl;
    lines.push({ line: lineOf.get(lead)!, start: lead, end: bodyStart, column: 0, kind: 'cell-magic', header: true });
    if (!PYTHON_CELL_MAGICS.has(first[1]!)) return { lines, nonPython: first[1]! };
  }
  for (const [start, end] of logicalLineRanges(src)) {
    if (start < bodyStart) continue;
    const line = src.slice(start, end);
    const indent = /^[ \t]*/.exec(line)![0].length;
    const found = classify(line.slice(indent));
    if (found) lines.push({ line: lineOf.get(start)!, start: start + indent + found.keep, end, column: indent + found.keep, kind: found.kind });
  }
  return { lines };
}

/** Offset just after the cell magic that heads the cell (`%%time`), which must stay its first line; 0 when there is none. */
export function afterCellMagic(src: string): number {
  const header = scan(src).lines.find((l) => l.header);
  if (!header) return 0;
  return header.end < src.length ? header.end + 1 : src.length;
}

export interface MaskedSource {
  /** Same length as the original; IPython-only parts replaced. */
  text: string;
  /** [start, end) ranges (original offsets) that were masked. */
  masked: Array<[number, number]>;
  /** false for cells whose cell magic makes them non-Python (%%bash, %%writefile, %%html, ...). */
  python: boolean;
}

/** The cell with its IPython syntax masked by text of the same length (see the file's comment). */
export function maskIPython(src: string): MaskedSource {
  const { lines, nonPython } = scan(src);
  if (nonPython !== undefined) return { text: src, masked: [], python: false };
  let text = src;
  for (const l of lines) {
    const len = l.end - l.start;
    // `pass#rest` keeps a statement (for magic-only blocks) when there is room; otherwise a comment;
    // the value of `x = !cmd` becomes `0`.
    const repl = l.kind === 'magic-assignment' ? '0'.padEnd(len, ' ')
      : l.header ? '#'.padEnd(len, ' ')
        : len >= 5 ? 'pass#' + ' '.repeat(len - 5) : '#' + ' '.repeat(len - 1);
    text = text.slice(0, l.start) + repl + text.slice(l.end);
  }
  return { text, masked: lines.map((l) => [l.start, l.end]), python: true };
}

/** True when [start, end) touches a masked range (edits there are dropped). */
export function overlapsMasked(masked: Array<[number, number]>, start: number, end: number): boolean {
  for (const [ms, me] of masked) {
    if (start < me && end > ms) return true;
    if (start === end && start > ms && start < me) return true;
  }
  return false;
}

export interface MaskedLine {
  /** 0-based line in the cell. */
  line: number;
  kind: IPythonKind;
  /** The whole physical line as written. */
  text: string;
}

export interface MaskResult {
  code: string;
  masked: MaskedLine[];
  /** Set when the whole cell is a non-Python cell magic (%%bash, %%html, %%writefile, ...). */
  cellMagic?: string;
}

/** The cell with its IPython lines replaced by `pass` (see the file's comment); line count kept. */
export function maskIPythonLines(source: string): MaskResult {
  const lines = source.split('\n');
  const { lines: found, nonPython } = scan(source);
  if (nonPython !== undefined) {
    const masked = lines.flatMap((text, line) => (text.trim() !== '' ? [{ line, kind: 'cell-magic' as const, text }] : []));
    return { code: lines.map(() => '').join('\n'), masked, cellMagic: nonPython };
  }
  const masked: MaskedLine[] = [];
  for (const l of found) {
    const text = lines[l.line]!;
    masked.push({ line: l.line, kind: l.kind, text });
    lines[l.line] = l.header ? 'pass' : l.kind === 'magic-assignment' ? `${text.slice(0, l.column)}None` : `${/^\s*/.exec(text)![0]}pass`;
  }
  return { code: lines.join('\n'), masked };
}

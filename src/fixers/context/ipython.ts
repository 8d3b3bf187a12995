/**
 * Masking IPython syntax (line magics, cell magics, shell escapes, help) so a cell can be parsed
 * as plain Python. Line count is preserved (each masked line becomes `pass` at its indentation,
 * or `name = None` for `name = !cmd`), so parse positions map back to the cell. Only lines that
 * start a logical line are masked: a `%` continuing an expression or inside a triple-quoted
 * string is left alone.
 */

export interface MaskedLine {
  /** 0-based line in the cell. */
  line: number;
  kind: 'line-magic' | 'cell-magic' | 'shell' | 'help' | 'magic-assignment';
  text: string;
}

export interface MaskResult {
  code: string;
  masked: MaskedLine[];
  /** Set when the whole cell is a non-Python cell magic (%%bash, %%html, %%writefile, ...). */
  cellMagic?: string;
}

/** Cell magics whose body is Python that runs in the kernel. */
const PYTHON_BODY_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun', 'memit', 'mprun', 'debug', 'python', 'python3', 'ipython', 'tensorflow_version']);

/** Per-line lexical state: is the NEXT line a fresh logical line? */
export function logicalLineStarts(lines: string[]): boolean[] {
  const starts: boolean[] = [];
  let depth = 0;
  let triple: string | null = null;
  let continued = false;
  for (const line of lines) {
    starts.push(!continued && triple === null && depth === 0);
    let i = 0;
    while (i < line.length) {
      if (triple) {
        const end = line.indexOf(triple, i);
        // skip escaped delimiters
        if (end < 0) { i = line.length; break; }
        let bs = 0;
        for (let k = end - 1; k >= i && line[k] === '\\'; k--) bs++;
        if (bs % 2 === 1) { i = end + 1; continue; }
        triple = null;
        i = end + 3;
        continue;
      }
      const ch = line[i]!;
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        if (line.startsWith(ch.repeat(3), i)) { triple = ch.repeat(3); i += 3; continue; }
        // single-line string: find the closing quote
        let j = i + 1;
        while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      i++;
    }
    continued = /\\\s*$/.test(line) && triple === null;
  }
  return starts;
}

export function maskIpython(source: string): MaskResult {
  const lines = source.split('\n');
  const masked: MaskedLine[] = [];
  const firstCode = lines.findIndex((l) => l.trim() !== '');
  if (firstCode >= 0) {
    const m = /^\s*%%(\w+)/.exec(lines[firstCode]!);
    if (m) {
      const name = m[1]!;
      if (!PYTHON_BODY_CELL_MAGICS.has(name)) {
        lines.forEach((text, line) => text.trim() !== '' && masked.push({ line, kind: 'cell-magic', text }));
        return { code: lines.map(() => '').join('\n'), masked, cellMagic: name };
      }
      masked.push({ line: firstCode, kind: 'cell-magic', text: lines[firstCode]! });
      lines[firstCode] = 'pass';
    }
  }
  const starts = logicalLineStarts(lines);
  const out = lines.map((text, line) => {
    if (!starts[line]) return text;
    const indent = /^\s*/.exec(text)![0];
    const body = text.slice(indent.length);
    if (body.startsWith('%%')) {
      masked.push({ line, kind: 'cell-magic', text });
      return `${indent}pass`;
    }
    if (body.startsWith('%')) {
      masked.push({ line, kind: 'line-magic', text });
      return `${indent}pass`;
    }
    if (body.startsWith('!') && !body.startsWith('!=')) {
      masked.push({ line, kind: 'shell', text });
      return `${indent}pass`;
    }
    if (/^\?{1,2}[\w.]+\s*$/.test(body) || /^[\w.]+(\(\))?\?{1,2}\s*$/.test(body)) {
      masked.push({ line, kind: 'help', text });
      return `${indent}pass`;
    }
    const asg = /^([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[!%]/.exec(body);
    if (asg && !/^[^=]*==/.test(body)) {
      masked.push({ line, kind: 'magic-assignment', text });
      return `${indent}${asg[1]} = None`;
    }
    return text;
  });
  return { code: out.join('\n'), masked };
}

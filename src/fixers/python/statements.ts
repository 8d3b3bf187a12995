/**
 * The last top-level statement of a cell, read from its parse tree the way IPython reads a cell:
 * indentation common to all lines removed, IPython syntax masked (and said), a trailing `;` noted.
 * What the statement means for a result (does it have a value?) is the caller's business.
 */
import { parsePython, type SyntaxNode } from './parser.js';
import { maskIPythonLines, type IPythonKind } from './ipython.js';

export interface TopStatement {
  /** The statement as written (dedented). */
  text: string;
  /** Its tree-sitter node type: 'expression_statement', 'import_statement', 'for_statement', ... ('ERROR' when it does not parse). */
  type: string;
  /** For an expression statement, its expression's node type ('call', 'assignment', 'attribute', ...). */
  expression?: string;
  /** For a call: the function as written (`plt.show`), whether it is a method (`x.f(...)`), its keyword arguments (name -> value as written). */
  callee?: string;
  method?: boolean;
  keywords?: Record<string, string>;
  /** For a call: its positional arguments as written. */
  positional?: string[];
  /** The IPython syntax the statement is (masked before parsing), if it is; 'cell-magic' for a whole non-Python cell. */
  ipython?: IPythonKind;
  /** Followed by `;`: IPython then shows no result. */
  semicolon: boolean;
}

/** The source less the indentation common to its code lines (IPython removes it before compiling). */
function dedent(source: string): string[] {
  const code = source.split('\n').filter((l) => l.trim() && !/^\s*#/.test(l));
  const indent = Math.min(...code.map((l) => /^\s*/.exec(l)![0].length));
  return source.split('\n').map((l) => (Number.isFinite(indent) && indent > 0 ? l.slice(Math.min(indent, /^\s*/.exec(l)![0].length)) : l));
}

export function lastTopLevelStatement(source: string): TopStatement | undefined {
  const lines = dedent(source);
  const { code, masked, cellMagic } = maskIPythonLines(lines.join('\n'));
  if (cellMagic !== undefined) {
    const last = masked[masked.length - 1];
    return last && { text: last.text.trim(), type: 'expression_statement', ipython: 'cell-magic', semicolon: false };
  }
  const tree = parsePython(code);
  try {
    const node = tree.rootNode.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').pop();
    if (!node) return undefined;
    const maskedRows = new Map(masked.map((m) => [m.line, m.kind]));
    const start = node.startPosition, end = node.endPosition;
    const rows = lines.slice(start.row, end.row + 1);
    // A masked row is shorter or longer than what it stands for: take it whole.
    if (!maskedRows.has(end.row)) rows[rows.length - 1] = rows[rows.length - 1]!.slice(0, end.column);
    rows[0] = rows[0]!.slice(start.column);
    const out: TopStatement = { text: rows.join('\n'), type: node.type, semicolon: /^[ \t]*;/.test(code.slice(node.endIndex)) };
    const ipython = maskedRows.get(start.row);
    if (ipython) out.ipython = ipython;
    const expr = node.type === 'expression_statement' ? node.namedChildren[0] : undefined;
    if (expr) {
      out.expression = expr.type;
      const fn = expr.type === 'call' ? expr.childForFieldName('function') : null;
      if (fn) {
        out.callee = fn.text;
        out.method = fn.type === 'attribute';
        const args = expr.childForFieldName('arguments');
        out.positional = (args?.namedChildren ?? []).filter((a): a is SyntaxNode => !!a && a.type !== 'keyword_argument' && a.type !== 'comment').map((a) => a.text);
        out.keywords = Object.fromEntries((args?.namedChildren ?? [])
          .filter((a): a is SyntaxNode => a?.type === 'keyword_argument')
          .map((a) => [a.childForFieldName('name')?.text ?? '', a.childForFieldName('value')?.text ?? '']));
      }
    }
    return out;
  } finally {
    tree.delete();
  }
}

/**
 * A literal the author changed after running its cell. A cell that binds a name to a literal and
 * shows it (`feature_names = [...]` then `feature_names`) printed the value its source held when it
 * ran. A stored result that differs from the literal in the source now means the source was edited
 * after the run (a feature added to the list, a parameter changed), and every stored value computed
 * from it afterwards came from the old literal: no library change explains that drift, and no pin can
 * move it.
 *
 * The stored result is itself Python (the repr of a list, tuple, dict or set of strings and numbers).
 * Put back as the literal, it is a drift candidate for the cells it feeds, kept only if the stored
 * outputs then agree (generate-and-verify): the record decides, and the report shows the edit.
 */
import { sourceText, type CodeCell, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { parsePython, type SyntaxNode } from '../python/parser.js';
import { analyzeNotebook, dependentCells } from '../python/defuse.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import type { TextEdit } from './types.js';

export const EDITED_LITERAL = 'edited-literal';

/** Candidates (one per shown literal that differs from its stored result) in the cells feeding `target`. */
export async function editedLiteralPatches(nb: Notebook, original: Notebook | undefined, target: number): Promise<Array<{ patch: Patch; label: string }>> {
  if (!original) return [];
  const du = analyzeNotebook(nb);
  const shown = new Map<number, string>();
  original.cells.forEach((c, i) => {
    if (c.cell_type !== 'code' || i > target || nb.cells[i]?.cell_type !== 'code') return;
    const result = storedResult(c as CodeCell);
    if (result !== undefined && (i === target || dependentCells(du, i).has(target))) shown.set(i, result);
  });
  if (!shown.size) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const out: Array<{ patch: Patch; label: string }> = [];
    for (const cell of cells.filter((c) => shown.has(c.index))) {
      const found = shownLiteral(cell.tree.rootNode);
      if (!found) continue;
      const stored = shown.get(cell.index)!;
      if (!differsFromStored(found.literal, stored)) continue;
      const edits = new Map<number, TextEdit[]>();
      addCellEdit(edits, cell.index, { start: found.literal.startIndex, end: found.literal.endIndex, text: stored.trim() });
      out.push({
        label: `${found.name} as cell ${cell.index}'s stored result shows it`,
        patch: {
          fixType: 'score-calibration',
          source: { kind: 'rule', ruleIds: [EDITED_LITERAL] },
          edits: cellReplacements(nb, edits),
          summary: `cell ${cell.index}: the stored result shows ${found.name} as the author ran it (the literal was edited after the run): the stored value put back`,
        },
      });
    }
    return out;
  } finally {
    disposeCells(cells);
  }
}

/** The text/plain of the cell's stored execute_result, or undefined. */
function storedResult(c: CodeCell): string | undefined {
  const text = c.outputs.find((o) => o.output_type === 'execute_result')?.data?.['text/plain'];
  return text === undefined ? undefined : sourceText(text as string | string[]);
}

/**
 * `name = <literal>` ... `name` (the cell's last statement shows the name its last top-level
 * assignment bound to a literal): the literal node and the name.
 */
function shownLiteral(root: SyntaxNode): { name: string; literal: SyntaxNode } | undefined {
  const top = root.namedChildren.filter((n): n is SyntaxNode => !!n && n.type !== 'comment');
  const last = top.at(-1);
  const shownName = last?.type === 'expression_statement' && last.namedChildCount === 1 && last.namedChildren[0]?.type === 'identifier' ? last.namedChildren[0].text : undefined;
  if (!shownName) return undefined;
  for (const stmt of top.slice(0, -1).reverse()) {
    const a = stmt.type === 'expression_statement' ? stmt.namedChildren[0] : undefined;
    if (a?.type !== 'assignment' && a?.type !== 'augmented_assignment') continue;
    if (a.childForFieldName('left')?.text !== shownName) continue;
    const right = a.childForFieldName('right');
    // Only a plain `name = literal` as the last binding: anything else computes the value.
    return a.type === 'assignment' && right && canonical(right) !== undefined ? { name: shownName, literal: right } : undefined;
  }
  return undefined;
}

/** True when the stored repr parses as a literal whose value differs from `literal`'s. */
function differsFromStored(literal: SyntaxNode, stored: string): boolean {
  const now = canonical(literal);
  const tree = parsePython(stored.trim());
  try {
    const stmts = tree.rootNode.namedChildren;
    const expr = stmts.length === 1 && stmts[0]?.type === 'expression_statement' && stmts[0].namedChildCount === 1 ? stmts[0].namedChildren[0] : undefined;
    const then = expr && !tree.rootNode.hasError ? canonical(expr) : undefined;
    return then !== undefined && now !== undefined && then !== now;
  } finally {
    tree.delete();
  }
}

/** A literal's value as a canonical string (quotes and spacing aside), or undefined if not a plain literal. */
export function canonical(n: SyntaxNode): string | undefined {
  switch (n.type) {
    case 'string': {
      const m = /^([rRuU]?)('''|"""|'|")([\s\S]*)\2$/.exec(n.text);
      if (!m || (n.text.includes('\\') && !m[1])) return undefined; // escapes: not worth decoding
      return JSON.stringify(m[3]);
    }
    case 'integer': case 'float': {
      const v = Number(n.text.replace(/_/g, ''));
      return Number.isFinite(v) ? String(v) : undefined;
    }
    case 'true': case 'false': case 'none':
      return n.type;
    case 'unary_operator': {
      const arg = n.childForFieldName('argument');
      const v = arg && (arg.type === 'integer' || arg.type === 'float') ? canonical(arg) : undefined;
      return v === undefined ? undefined : n.child(0)?.type === '-' ? String(-Number(v)) : v;
    }
    case 'parenthesized_expression':
      return n.namedChildCount === 1 && n.namedChildren[0] ? canonical(n.namedChildren[0]) : undefined;
    case 'list': case 'tuple': case 'set': {
      const items = n.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map(canonical);
      return items.every((x) => x !== undefined) ? `${n.type}(${items.join(',')})` : undefined;
    }
    case 'dictionary': {
      const pairs = n.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map((p) => {
        if (p.type !== 'pair') return undefined;
        const k = p.childForFieldName('key'), v = p.childForFieldName('value');
        const ks = k && canonical(k), vs = v && canonical(v);
        return ks !== undefined && vs !== undefined ? `${ks}:${vs}` : undefined;
      });
      return pairs.every((x) => x !== undefined) ? `dict(${pairs.sort().join(',')})` : undefined;
    }
    default:
      return undefined;
  }
}

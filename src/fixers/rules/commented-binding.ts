/**
 * A binding the author commented out after running it. `#estimators = {}` above
 * `estimators[usage] = search.best_estimator_`: the author ran the initializer once, then commented
 * it out so that re-running the cell would not reset what earlier runs collected. Their kernel held
 * the name; a fresh run raises `NameError` for a name no cell binds. The notebook's own code is the
 * evidence of what the name was: a comment line that, uncommented, is a statement binding exactly
 * that name (an assignment, an import) is restored. Only when no cell binds the name otherwise;
 * the failing cell's own comments first, then the nearest cells above, then below; at most
 * MAX_CANDIDATES. Unproven (the author may have commented it out for a reason), so a candidate is
 * kept only when the stored outputs then agree (`needsAgreement`).
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { analyzeCell } from '../python/defuse.js';

const MAX_CANDIDATES = 2;

export interface CommentedBinding {
  patch: Patch;
  label: string;
}

/** The comment lines of a cell that, uncommented, bind `name`: [line index, the restored line]. */
function bindingComments(source: string, name: string): Array<[number, string]> {
  const lines = source.split('\n');
  const out: Array<[number, string]> = [];
  const mentions = new RegExp(`\\b${name}\\b`);
  lines.forEach((line, k) => {
    const m = /^(\s*)#+ ?(.*)$/.exec(line);
    if (!m || !mentions.test(m[2]!) || !/=|\bimport\b/.test(m[2]!)) return;
    const code = m[2]!.trim();
    // One statement on its own: it must parse alone and bind the name at top level.
    const du = analyzeCell(code);
    if (du.hasSyntaxErrors || !du.defines.includes(name)) return;
    // The comment's indentation is the block's (a commented line inside a loop keeps its place).
    for (const restored of [m[1]! + code, m[1]! + m[2]!]) {
      const next = [...lines.slice(0, k), restored, ...lines.slice(k + 1)].join('\n');
      if (!analyzeCell(next).hasSyntaxErrors) { out.push([k, restored]); return; }
    }
  });
  return out;
}

export function commentedBindingPatches(nb: Notebook, failingCell: number, name: string): CommentedBinding[] {
  const code = nb.cells.map((c, i) => ({ c, i })).filter(({ c }) => c.cell_type === 'code').map(({ i }) => i);
  const above = code.filter((i) => i < failingCell).reverse();
  const below = code.filter((i) => i > failingCell);
  const out: CommentedBinding[] = [];
  for (const cell of [failingCell, ...above, ...below]) {
    const source = sourceText(nb.cells[cell]?.source);
    for (const [line, restored] of bindingComments(source, name)) {
      if (out.length >= MAX_CANDIDATES) return out;
      const lines = source.split('\n');
      lines[line] = restored;
      const why = `the author commented out the binding of ${name} after running it; no other cell binds it`;
      out.push({
        patch: {
          fixType: 'error-repair',
          source: { kind: 'rule', ruleIds: ['commented-binding'] },
          edits: [{ cell, op: 'replace', newSource: lines.join('\n') }],
          summary: `cell ${cell}: uncomment \`${restored.trim()}\` (line ${line + 1}): ${why}`,
        },
        label: `uncomment \`${restored.trim()}\` in cell ${cell}`,
      });
    }
  }
  return out;
}

/**
 * `# nbmodernize: ignore[PD001,SK012]` in a cell silences those rules in that cell; a bare
 * `# nbmodernize: ignore` silences every rule there. The author's word wins over the rules: a
 * silenced finding is reported as suppressed and never applied. Per cell rather than per line
 * (unlike ruff's noqa) because a notebook's unit of authorship and of rewriting is the cell.
 */
import type { ParsedCell } from './context.js';
import { parseSelector, type Selector } from './selection.js';
import type { Rule } from './types.js';

export interface Suppression {
  /** The directive's text as written, reported with each finding it silences. */
  comment: string;
  /** Empty: every rule. */
  selectors: Selector[];
}

const DIRECTIVE = /^#\s*nbmodernize:\s*ignore\b(?:\[([^\]]*)\])?/i;
const cache = new WeakMap<ParsedCell, Suppression[]>();

/** The cell's directives, read from its comment nodes (a substring test first: most cells have none). */
export function cellSuppressions(cell: ParsedCell): Suppression[] {
  let out = cache.get(cell);
  if (out) return out;
  out = [];
  if (/nbmodernize/i.test(cell.text)) {
    for (const node of cell.idx.byType.get('comment') ?? []) {
      const m = DIRECTIVE.exec(node.text);
      if (!m) continue;
      const selectors: Selector[] = [];
      for (const s of (m[1] ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
        // An unknown code in a comment silences nothing rather than failing the whole scan.
        try { selectors.push(parseSelector(s)); } catch { /* not a rule */ }
      }
      if (m[1] !== undefined && !selectors.length) continue;
      out.push({ comment: m[0], selectors });
    }
  }
  cache.set(cell, out);
  return out;
}

/** Forget a disposed cell's directives (engine.ts disposeCell). */
export function releaseSuppressions(cell: ParsedCell): void {
  cache.delete(cell);
}

/** The directive that silences `rule` in this cell, if any. */
export function suppressedBy(cell: ParsedCell, rule: Rule): string | undefined {
  for (const s of cellSuppressions(cell)) {
    if (!s.selectors.length || s.selectors.some((sel) => sel.matches(rule))) return s.comment;
  }
  return undefined;
}

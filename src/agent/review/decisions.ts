/**
 * Accept / reject: what a set of decisions does to the notebook (pure; unit-tested). A cell's
 * changes are replayed in the order they were made onto its original source; an accepted change
 * whose earlier change in the same cell was rejected is re-applied on its own when its edit still
 * fits exactly ("rebased"), else it cannot apply ("blocked") and the reviewer is told.
 */
import { reapplyEdit } from '../../core/cell-diff.js';
import type { ReviewChange } from './changes.js';

export type Decision = 'accepted' | 'rejected';
/** What a change does to the notebook under the current decisions. */
export type Effect = 'applied' | 'rebased' | 'blocked' | 'rejected';
export type Decisions = ReadonlyMap<string, Decision>;

export interface Dependent {
  id: string;
  /** same-cell: made on top of this one's text; same-fix: the other cells of one patch; found-after: a later loop fix, found by a run that got past this one. */
  why: 'same-cell' | 'same-fix' | 'found-after';
}

type Change = Pick<ReviewChange, 'id' | 'fix' | 'step' | 'cell' | 'before' | 'after'>;

/** Every change starts accepted: the modernization as it was. */
export function acceptAll(changes: readonly Pick<ReviewChange, 'id'>[]): Map<string, Decision> {
  return new Map(changes.map((c) => [c.id, 'accepted' as const]));
}

/** What depends on a change: shown when it is rejected. */
export function dependentsOf(changes: readonly Change[], id: string): Dependent[] {
  const at = changes.findIndex((c) => c.id === id);
  if (at < 0) return [];
  const c = changes[at]!;
  const out: Dependent[] = [];
  changes.forEach((o, i) => {
    if (o.id === id) return;
    if (o.fix === c.fix) out.push({ id: o.id, why: 'same-fix' });
    else if (i > at && o.cell === c.cell) out.push({ id: o.id, why: 'same-cell' });
    // The static pass (step 0) applied everything at once before any run: nothing was found "after" one of its changes.
    else if (i > at && c.step > 0 && o.step > c.step) out.push({ id: o.id, why: 'found-after' });
  });
  return out;
}

export interface Resolution {
  /** Cell index -> its source under the decisions (only cells some change touched). */
  sources: Map<number, string>;
  effects: Map<string, Effect>;
}

export function resolve(originalSource: (cell: number) => string, changes: readonly Change[], decisions: Decisions): Resolution {
  const sources = new Map<number, string>();
  const effects = new Map<string, Effect>();
  for (const c of changes) {
    const current = sources.get(c.cell) ?? originalSource(c.cell);
    if ((decisions.get(c.id) ?? 'accepted') === 'rejected') {
      effects.set(c.id, 'rejected');
      sources.set(c.cell, current);
      continue;
    }
    if (current === c.before) {
      effects.set(c.id, 'applied');
      sources.set(c.cell, c.after);
      continue;
    }
    const rebased = reapplyEdit(c.before, c.after, current);
    effects.set(c.id, rebased === null ? 'blocked' : 'rebased');
    sources.set(c.cell, rebased ?? current);
  }
  return { sources, effects };
}

/**
 * The changes a `--reject` list names: a rule id (`pandas-ix`), a code (`PD001`), a code prefix
 * (`PD`, `PD0`), a model name, or `llm` for every model-made change. Unmatched names are returned
 * so the caller can say so.
 */
export function matchChanges(changes: readonly Pick<ReviewChange, 'id' | 'sourceKind' | 'source' | 'rules'>[], names: readonly string[]): { ids: Set<string>; unmatched: string[] } {
  const ids = new Set<string>();
  const unmatched: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const upper = name.toUpperCase();
    const hits = changes.filter((c) => (c.sourceKind === 'llm'
      ? name === 'llm' || name === c.source
      : c.rules.some((r) => r.id === name || (r.code !== undefined && codeSelects(upper, r.code)))));
    if (!hits.length) unmatched.push(name);
    for (const h of hits) ids.add(h.id);
  }
  return { ids, unmatched };
}

/** `PD001` selects itself; `PD` and `PD0` every code under them (the letters must be a whole library prefix, as in ruff). */
function codeSelects(selector: string, code: string): boolean {
  const m = /^([A-Z]+)(\d{0,3})$/.exec(selector);
  return m !== null && code.replace(/\d+$/, '') === m[1] && code.startsWith(selector);
}

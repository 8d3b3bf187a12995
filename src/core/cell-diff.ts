/** Diffs of cell sources (the one module importing `diff`): unified, word-level, and re-applying one edit elsewhere. */
import { applyPatch, createTwoFilesPatch, diffWordsWithSpace, structuredPatch } from 'diff';

export function cellDiff(cell: number, before: string, after: string, label = 'cell'): string {
  const b = before.endsWith('\n') ? before : `${before}\n`;
  const a = after.endsWith('\n') ? after : `${after}\n`;
  return createTwoFilesPatch(`a/${label} ${cell}`, `b/${label} ${cell}`, b, a, '', '', { context: 3 });
}

/** One run of text in a word-level diff: kept (`=`), only in the old text (`-`), only in the new (`+`). */
export interface WordSegment { op: '=' | '-' | '+'; text: string }

/** Word-level diff (whitespace kept, so the segments concatenate back to either text). */
export function wordDiff(before: string, after: string): WordSegment[] {
  return diffWordsWithSpace(before, after).map((p) => ({ op: p.added ? '+' : p.removed ? '-' : '=', text: p.value }));
}

/**
 * The edit that turned `before` into `after`, applied to `onto` (a text where an earlier edit of
 * the same cell was left out). The lines the edit removes must be there exactly (no fuzz), but
 * not its neighbours: two rules often rewrite adjacent lines of one cell. Null when it does not apply.
 */
export function reapplyEdit(before: string, after: string, onto: string): string | null {
  if (before === onto) return after;
  const patch = structuredPatch('a', 'b', `${before}\n`, `${after}\n`, '', '', { context: 0 });
  const out = applyPatch(`${onto}\n`, patch, { fuzzFactor: 0 });
  return out === false ? null : out.slice(0, -1);
}

/**
 * Cells from an earlier kernel session. An execution count that two cells share means the author
 * restarted the kernel: one of them ran in an earlier session and was not run again in the last one,
 * whose kernel therefore never had its effects (a `train.loc[train.Sex == 'male', 'Sex'] = 0` run
 * before the restart; the cells the author ran after it printed `Sex_female`/`Sex_male` dummies of
 * the text column). Run top to bottom here, such a cell changes what a recorded cell below it shows.
 *
 * Which of the two ran last cannot be read off the counts alone; the guess is the one later in the
 * file (authors re-run downwards), and the stored outputs decide: for a drift, the earlier-session
 * cells above the drifted one, when at least one of them changes what it (or a cell feeding it)
 * reads, become comments, and the candidate is kept only if the run then agrees with the record.
 * A cell that holds only comments shows nothing the oracle judges, so the stale outputs of those
 * cells (produced in the earlier session) are not held against the run.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { storedCounts } from './execution-order.js';
import { NOT_RUN_MARK } from './oracle/stored-outputs.js';
import { upstreamReads } from './later-run-cells.js';

export const EARLIER_SESSION = 'earlier-session';

/** Cells whose execution count another cell later in the file shares (the earlier session's, by the guess above). */
export function earlierSessionCells(original: Notebook): Set<number> {
  const byCount = new Map<number, number[]>();
  for (const [cell, n] of storedCounts(original)) byCount.set(n, [...(byCount.get(n) ?? []), cell]);
  const out = new Set<number>();
  for (const cells of byCount.values()) {
    if (cells.length < 2) continue;
    cells.sort((a, b) => a - b);
    for (const c of cells.slice(0, -1)) out.add(c);
  }
  return out;
}

function commentedOut(source: string, why: string): string {
  return [`${NOT_RUN_MARK}${why}`, ...source.split('\n').map((l) => (l.trim() ? `# ${l}` : l))].join('\n');
}

/** The candidate for a drift in `target`, or undefined when no earlier-session cell above it changes what it reads. */
export function earlierSessionPatch(work: Notebook, original: Notebook, target: number): { patch: Patch; label: string } | undefined {
  const counts = storedCounts(original);
  const own = counts.get(target);
  const stale = [...earlierSessionCells(original)].filter((c) => c < target && work.cells[c]?.cell_type === 'code').sort((a, b) => a - b);
  if (own === undefined || !stale.length) return undefined;
  const du = analyzeNotebook(work);
  const above = [...du.byCell.keys()].filter((c) => c < target).sort((a, b) => a - b);
  const reads = upstreamReads(du.byCell, counts, above, target, own);
  const changing = stale.filter((c) => {
    const cell = du.byCell.get(c);
    return !!cell && [...cell.defines, ...cell.mutates].some((n) => reads.has(n));
  });
  if (!changing.length) return undefined;
  const twin = (c: number): number | undefined => [...counts].find(([other, n]) => other > c && n === counts.get(c))?.[0];
  const edits = stale.map((c) => ({
    cell: c,
    op: 'replace' as const,
    newSource: commentedOut(sourceText(work.cells[c]!.source), `it ran in an earlier kernel session (count [${counts.get(c)}] belongs to cell ${twin(c)} too, run after a restart)`),
  }));
  return {
    label: `earlier kernel session: cells ${stale.join(', ')} not run`,
    patch: {
      fixType: 'score-calibration',
      source: { kind: 'rule', ruleIds: [EARLIER_SESSION] },
      edits,
      summary: `cells ${stale.join(', ')} ran in an earlier kernel session (their execution counts recur in later cells: the author restarted), and cell${changing.length > 1 ? 's' : ''} ${changing.join(', ')} change${changing.length > 1 ? '' : 's'} what cell ${target} reads: not run, as in the author's last session`,
    },
  };
}

/**
 * A cell the author ran more than once. Re-running a cell that updates a value from itself
 * (`df[c] = boxcox1p(df[c], 0.5)` over the skewed columns, `x = np.log1p(x)`, `df.drop(...,
 * inplace=True)` of a frame it reads) changes the state again each time; the author's kernel held
 * the result of every run, a top-to-bottom run holds one. The stored counts leave a trace: each run
 * takes a count, and only the last one is stored, so the counts missing just below a cell's own
 * (`[54]` on the cell above, `[59]` on it: 55-58 went somewhere) are where earlier runs of it may
 * have gone (or other cells the notebook no longer holds: the record decides).
 *
 * For a drift, each cell feeding the drifted one (or the drifted cell itself) that updates a name it
 * reads in place, and whose count has such a gap below it, gives candidates that run it again 1, 2,
 * ... times (at most the gap, at most MAX_EXTRA_RUNS), as a cell inserted just before it (its stored
 * outputs are from its last run). Like every drift
 * candidate, one is kept only when the stored outputs then agree (generate-verify.ts), fewest runs first.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { codeCellIndices, storedCounts } from './execution-order.js';
import { upstreamReads } from './later-run-cells.js';
import type { Candidate } from './generate-verify.js';

/** The most extra runs tried for one cell (each is a trial: a re-run from that cell). */
export const MAX_EXTRA_RUNS = 3;
/** The most cells given candidates for one drift, nearest to it first. */
const MAX_CELLS = 2;

export const RUN_AGAIN_MARK = '# nbmodernize: run again: ';

/** How many counts just below `n` no cell of the notebook holds. */
function gapBelow(n: number, held: ReadonlySet<number>): number {
  let g = 0;
  for (let m = n - 1; m >= 1 && !held.has(m); m--) g++;
  return g;
}

export function repeatedRunCandidates(original: Notebook, work: Notebook, target: number, runOrder?: number[]): Candidate[] {
  const counts = storedCounts(original);
  const own = counts.get(target);
  if (own === undefined) return [];
  const order = runOrder ?? codeCellIndices(work);
  const pos = order.indexOf(target);
  if (pos < 0) return [];
  const du = analyzeNotebook(work);
  const reads = upstreamReads(du.byCell, counts, order.slice(0, pos), target, own);
  const held = new Set(counts.values());
  const out: Candidate[] = [];
  let cells = 0;
  for (let k = pos; k >= 0 && cells < MAX_CELLS; k--) {
    const cell = order[k]!;
    const n = counts.get(cell);
    const c = du.byCell.get(cell);
    if (n === undefined || n > own || !c) continue;
    // Updates from itself: what it changes in place, or rebinds from its own value, and reads; a
    // value a cell before it made (a loop variable of its own is not one).
    const uses = new Set(c.uses);
    const before = new Set(order.slice(0, k).flatMap((b) => du.byCell.get(b)?.defines ?? []));
    const updated = [...new Set([...c.mutates, ...c.defines])].filter((x) => uses.has(x) && before.has(x) && (cell === target || reads.has(x)));
    if (!updated.length) continue;
    const gap = gapBelow(n, held);
    if (gap === 0) continue;
    cells++;
    const source = sourceText(work.cells[cell]?.source);
    for (let extra = 1; extra <= Math.min(gap, MAX_EXTRA_RUNS); extra++) {
      const why = `the author ran cell ${cell} [${n}] ${extra + 1} times (counts ${n - gap}-${n - 1} are on no cell of the notebook), and it updates ${updated.slice(0, 3).join(', ')} from itself`;
      out.push({
        patch: {
          fixType: 'score-calibration',
          source: { kind: 'rule', ruleIds: ['execution-order'] },
          edits: [{ cell, op: 'insert', position: 'before', newSource: [`${RUN_AGAIN_MARK}${why}`, ...Array.from({ length: extra }, () => source)].join('\n\n') }],
          summary: `run cell ${cell} ${extra === 1 ? 'once' : `${extra} times`} more just before it (its stored outputs are from its last run): ${why}`,
        },
        label: `run again: cell ${cell} ${extra + 1} times in all`,
      });
    }
  }
  return out;
}

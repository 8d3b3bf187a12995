/**
 * The page's model (pure): the notebook as cells, each changed cell's original and current source
 * as a word-level diff, and per change its source, trigger, decision, effect and dependents; the
 * outputs before (stored) and after (the last run) with the drifted numbers the oracle found.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import { wordDiff, type WordSegment } from '../../core/cell-diff.js';
import { outputText } from '../audit/drift.js';
import type { ReviewChange } from './changes.js';
import { dependentsOf, type Decision, type Decisions, type Dependent, type Effect, type Resolution } from './decisions.js';
import type { LastRun } from './reviewed-notebook.js';

export interface DriftedValue { original: number | null; new: number | null }

export interface CellView {
  index: number;
  type: string;
  source: string;
  /** Only for cells some change touched: original -> current, word by word. */
  diff?: WordSegment[];
  changes: string[];
  outputsBefore?: string;
  outputsAfter?: string;
  /** False when the last run did not run this cell's current code. */
  outputsCurrent: boolean;
  drift: DriftedValue[];
}

export interface ChangeView extends ReviewChange {
  decision: Decision;
  effect: Effect;
  words: WordSegment[];
  dependents: Dependent[];
}

export interface ReviewView {
  name: string;
  original: string;
  outDir: string;
  cells: CellView[];
  changes: ChangeView[];
  run: { from: LastRun['from']; verdict: LastRun['verdict']; reason: string; current: boolean } | null;
}

export function reviewView(x: {
  name: string; originalPath: string; outDir: string; original: Notebook; changes: readonly ReviewChange[]; decisions: Decisions; resolution: Resolution;
  lastRun: LastRun | null; drift: ReadonlyArray<{ cell: number | null; original: number | null; new: number | null; ok: boolean; unjudged?: string }>;
}): ReviewView {
  const { resolution, lastRun } = x;
  let current = lastRun !== null;
  const cells: CellView[] = x.original.cells.map((cell, index) => {
    const before = sourceText(cell.source);
    const src = resolution.sources.get(index) ?? before;
    const ran = lastRun?.executed.cells[index];
    const outputsCurrent = ran !== undefined && sourceText(ran.source) === src;
    if (cell.cell_type === 'code' && !outputsCurrent) current = false;
    const changes = x.changes.filter((c) => c.cell === index).map((c) => c.id);
    return {
      index, type: cell.cell_type, source: src, changes, outputsCurrent,
      ...(changes.length ? { diff: wordDiff(before, src) } : {}),
      ...(cell.cell_type === 'code' ? { outputsBefore: outputText(cell.outputs ?? []) } : {}),
      ...(ran?.cell_type === 'code' ? { outputsAfter: outputText(ran.outputs ?? []) } : {}),
      drift: x.drift.filter((d) => d.cell === index && !d.ok && !d.unjudged).map((d) => ({ original: d.original, new: d.new })),
    };
  });
  return {
    name: x.name, original: x.originalPath, outDir: x.outDir, cells,
    changes: x.changes.map((c) => ({
      ...c, decision: x.decisions.get(c.id) ?? 'accepted', effect: resolution.effects.get(c.id) ?? 'applied',
      words: wordDiff(c.before, c.after), dependents: dependentsOf(x.changes, c.id),
    })),
    run: lastRun ? { from: lastRun.from, verdict: lastRun.verdict, reason: lastRun.reason, current } : null,
  };
}

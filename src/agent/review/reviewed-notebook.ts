/**
 * What "Write" produces (pure; unit-tested): `<name>.reviewed.ipynb` — the original's cells with
 * the decided sources, the outputs of the last run of exactly that code, each touched cell marked
 * in `metadata.nbmodernize` — and the review.json decision record.
 */
import { sourceText, toLines, type Notebook } from '../../core/notebook.js';
import { REVIEW_RECORD_SCHEMA_VERSION, type ReviewRecord } from '../../core/review-record.js';
import { toolVersion } from '../../core/version.js';
import type { ReviewChange } from './changes.js';
import type { Decisions, Resolution } from './decisions.js';

export interface LastRun {
  from: 'modernize' | 'review';
  executed: Notebook;
  verdict: 'reproduced' | 'not-reproduced' | 'failed';
  reason: string;
}

export function reviewedNotebook(x: { original: Notebook; changes: readonly ReviewChange[]; decisions: Decisions; resolution: Resolution; lastRun: LastRun | null }): { notebook: Notebook; current: boolean } {
  const { resolution, lastRun } = x;
  const nb = structuredClone(x.original);
  // The last run counts only if it ran exactly this code; otherwise its outputs of a changed cell would belong to other code.
  const current = lastRun !== null && nb.cells.every((c, i) => (resolution.sources.get(i) ?? sourceText(c.source)) === sourceText(lastRun.executed.cells[i]?.source));
  nb.cells.forEach((cell, i) => {
    const src = resolution.sources.get(i);
    if (src !== undefined) cell.source = toLines(src);
    const ran = lastRun?.executed.cells[i];
    if (cell.cell_type === 'code' && lastRun) {
      // A cell keeps the outputs of the last run when that run ran this very code; otherwise it has none.
      const same = ran?.cell_type === 'code' && sourceText(ran.source) === sourceText(cell.source);
      cell.outputs = same ? structuredClone(ran.outputs) : [];
      cell.execution_count = same ? ran.execution_count : null;
    }
    const mine = x.changes.filter((c) => c.cell === i);
    if (!mine.length) return;
    const kept = mine.filter((c) => resolution.effects.get(c.id) === 'applied' || resolution.effects.get(c.id) === 'rebased');
    cell.metadata = {
      ...cell.metadata,
      nbmodernize: {
        changed: sourceText(cell.source) !== sourceText(x.original.cells[i]!.source),
        ...(kept.length ? { fixType: kept.at(-1)!.fixType, sources: kept.map((c) => c.source) } : {}),
        review: mine.map((c) => ({ id: c.id, source: c.source, decision: x.decisions.get(c.id) ?? 'accepted', effect: resolution.effects.get(c.id) })),
      },
    };
  });
  nb.metadata.nbmodernize = {
    ...((x.original.metadata.nbmodernize as object | undefined) ?? {}),
    reviewed: true,
    ...(lastRun ? { verdict: current ? lastRun.verdict : 'not-run', verdictFrom: lastRun.from } : {}),
  };
  return { notebook: nb, current };
}

export function decisionRecord(x: {
  changes: readonly ReviewChange[]; decisions: Decisions; resolution: Resolution; lastRun: LastRun | null; current: boolean;
  files: ReviewRecord['notebook']; at: Date;
}): ReviewRecord {
  const decisions = x.changes.map((c) => ({
    id: c.id, cell: c.cell, step: c.step, fixType: c.fixType, sourceKind: c.sourceKind, source: c.source,
    codes: c.rules.flatMap((r) => (r.code ? [r.code] : [])),
    decision: x.decisions.get(c.id) ?? 'accepted',
    effect: x.resolution.effects.get(c.id) ?? 'applied',
  }));
  return {
    schemaVersion: REVIEW_RECORD_SCHEMA_VERSION,
    tool: { name: 'nbmodernize', version: toolVersion() },
    notebook: x.files,
    reviewedAt: x.at.toISOString(),
    decisions,
    totals: {
      changes: decisions.length,
      accepted: decisions.filter((d) => d.decision === 'accepted').length,
      rejected: decisions.filter((d) => d.decision === 'rejected').length,
      blocked: decisions.filter((d) => d.effect === 'blocked').length,
    },
    run: x.lastRun ? { from: x.lastRun.from, verdict: x.lastRun.verdict, reason: x.lastRun.reason, current: x.current } : null,
  };
}

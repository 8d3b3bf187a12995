/**
 * One review: the changes, the reviewer's decisions, the last run (modernize's final run until a
 * re-run replaces it), and the three things a reviewer does: decide, re-run, write. The page's
 * server and the non-interactive CLI both drive this; neither holds review state of its own.
 */
import path from 'node:path';
import { serializeNotebook, sourceText, toLines, writeFileAtomic, type Notebook } from '../../core/notebook.js';
import { upgradeToV45 } from '../../core/notebook-schema.js';
import type { ReviewRecord } from '../../core/review-record.js';
import type { ExecEvent } from '../../executor/run-notebook.js';
import { outputText } from '../audit/drift.js';
import type { ReviewInput } from './changes.js';
import { acceptAll, resolve, type Decision, type Resolution } from './decisions.js';
import { decisionRecord, reviewedNotebook, type LastRun } from './reviewed-notebook.js';
import type { Rerun } from './rerun.js';
import { reviewView, type ReviewView } from './view.js';

export type RunEvent =
  | { type: 'run-start' }
  | { type: 'cell'; index: number; status: string; durationMs: number | null; error?: { ename: string; evalue: string }; outputs: string }
  | { type: 'run-end'; view: ReviewView }
  | { type: 'run-failed'; message: string };

type Drift = ReviewInput['report']['comparisons'];

export class ReviewSession {
  readonly decisions: Map<string, Decision>;
  private lastRun: LastRun | null;
  private drift: Drift;
  private running: Promise<void> | undefined;

  constructor(readonly input: ReviewInput, private readonly rerunner?: Rerun) {
    this.decisions = acceptAll(input.changes);
    const r = input.report;
    // The modernized notebook holds the outputs of modernize's final run only when there was one.
    this.lastRun = r.finalRun ? { from: 'modernize', executed: input.modernized, verdict: r.verdict, reason: r.reason } : null;
    this.drift = r.comparisons;
  }

  /**
   * Takes up the decisions of an earlier review (its review.json) for the changes it names with
   * the same source; returns how many were taken. The outputs of its run are not: re-run to see them.
   */
  restore(previous: ReviewRecord): number {
    let n = 0;
    for (const d of previous.decisions) {
      const c = this.input.changes.find((x) => x.id === d.id);
      if (!c || c.source !== d.source || c.cell !== d.cell) continue;
      this.decisions.set(c.id, d.decision);
      n += 1;
    }
    return n;
  }

  get isRunning(): boolean { return this.running !== undefined; }
  get canRerun(): boolean { return this.rerunner !== undefined; }

  resolution(): Resolution {
    const { original, changes } = this.input;
    return resolve((cell) => sourceText(original.cells[cell]?.source), changes, this.decisions);
  }

  /** The page's model, with modernize's own verdict (the page's only verdict when modernize stopped without a final run). */
  view(): ReviewView & { running: boolean; canRerun: boolean; modernize: { verdict: string; reason: string } } {
    const { input } = this;
    return {
      ...reviewView({ name: input.name, originalPath: input.originalPath, outDir: input.outDir, original: input.original, changes: input.changes, decisions: this.decisions, resolution: this.resolution(), lastRun: this.lastRun, drift: this.drift }),
      running: this.isRunning, canRerun: this.canRerun, modernize: { verdict: input.report.verdict, reason: input.report.reason },
    };
  }

  /** Unknown ids are refused as a whole, so a stale page cannot half-apply a decision. */
  decide(ids: readonly string[], decision: Decision): void {
    const unknown = ids.filter((id) => !this.decisions.has(id));
    if (unknown.length) throw new Error(`no such change: ${unknown.join(', ')}`);
    for (const id of ids) this.decisions.set(id, decision);
  }

  /** The original with the decided sources, no outputs: what a re-run executes. */
  decidedNotebook(): Notebook {
    const nb = structuredClone(this.input.original);
    for (const [cell, src] of this.resolution().sources) nb.cells[cell]!.source = toLines(src);
    for (const c of nb.cells) if (c.cell_type === 'code') {
      c.outputs = [];
      c.execution_count = null;
    }
    return nb;
  }

  /** Re-executes the decided code; one at a time. Events go to `emit` as they happen. */
  async rerun(emit: (e: RunEvent) => void): Promise<void> {
    if (!this.rerunner) throw new Error('re-run is not available in this session');
    if (this.running) throw new Error('a re-run is already under way');
    const rerunner = this.rerunner;
    const body = async () => {
      emit({ type: 'run-start' });
      try {
        const out = await rerunner(this.decidedNotebook(), (e: ExecEvent) => {
          if (e.type !== 'cell-end') return;
          const { record } = e;
          emit({ type: 'cell', index: record.index, status: record.status, durationMs: record.durationMs, outputs: outputText(e.outputs), ...(record.error ? { error: { ename: record.error.ename, evalue: record.error.evalue } } : {}) });
        });
        this.lastRun = { from: 'review', executed: out.executed, verdict: out.verdict.verdict, reason: out.verdict.reason };
        this.drift = out.verdict.oracle.comparisons;
      } catch (err) {
        emit({ type: 'run-failed', message: err instanceof Error ? err.message : String(err) });
        return;
      }
      this.running = undefined;
      emit({ type: 'run-end', view: this.view() });
    };
    this.running = body().finally(() => (this.running = undefined));
    await this.running;
  }

  /** `<name>.reviewed.ipynb` and review.json in the output dir; the original and the modernized notebook are left as they are. */
  write(at = new Date()): { notebook: string; record: string; content: ReviewRecord; reviewed: Notebook } {
    const { input } = this;
    const resolution = this.resolution();
    const { notebook, current } = reviewedNotebook({ original: input.original, changes: input.changes, decisions: this.decisions, resolution, lastRun: this.lastRun });
    const files = {
      original: input.originalPath,
      modernized: path.join(input.outDir, `${input.name}.modernized.ipynb`),
      reviewed: path.join(input.outDir, `${input.name}.reviewed.ipynb`),
    };
    const content = decisionRecord({ changes: input.changes, decisions: this.decisions, resolution, lastRun: this.lastRun, current, files, at });
    const reviewed = upgradeToV45(notebook);
    writeFileAtomic(files.reviewed, serializeNotebook(reviewed));
    const record = path.join(input.outDir, 'review.json');
    writeFileAtomic(record, JSON.stringify(content, null, 2) + '\n');
    return { notebook: files.reviewed, record, content, reviewed };
  }
}

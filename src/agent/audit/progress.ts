/**
 * The audit's progress as text: a one-line bar for terminals (done/total, reproduced so far, ETA,
 * spend, what runs now) and one plain line per finished notebook for logs and CI. Pure: the CLI
 * decides where and when to print.
 */
import type { AuditEvent } from './runner.js';
import type { AuditRecord } from './record.js';
import { causeLabel } from './taxonomy.js';

function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export class AuditProgress {
  total = 0;
  done = 0;
  reproduced = 0;
  failed = 0;
  spentUsd = 0;
  private todo = 0;
  private finishedHere = 0;
  private readonly startedAt: number;
  private readonly running = new Map<string, { label: string; detail: string }>();

  constructor(private readonly jobs: number, private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  private count(r: AuditRecord): void {
    this.done += 1;
    if (r.verdict === 'reproduced') this.reproduced += 1;
    if (r.verdict === 'failed') this.failed += 1;
    this.spentUsd += r.llm.costUsd;
  }

  /** Feed an event; returns the plain line to print for it, if any. */
  update(e: AuditEvent): string | undefined {
    switch (e.type) {
      case 'plan':
        this.total = e.total;
        this.todo = e.todo;
        for (const r of e.records) this.count(r);
        return `audit: ${e.total} notebooks${e.alreadyDone ? `, ${e.alreadyDone} already done` : ''}${e.crashedBefore ? `, ${e.crashedBefore} recorded as crashed` : ''}, ${e.todo} to run, ${this.jobs} at once`;
      case 'started':
        this.running.set(e.job.id, { label: e.job.id, detail: 'starting' });
        return undefined;
      case 'progress': {
        const r = this.running.get(e.job.id);
        if (!r) return undefined;
        const p = e.progress;
        r.detail = p.phase === 'cell' ? `cell ${p.cell}/${p.of}` : p.phase === 'fixing' ? `fix ${p.fixes}` : p.phase;
        return undefined;
      }
      case 'finished':
      case 'crashed': {
        const r = e.record;
        this.running.delete(r.id);
        this.count(r);
        this.finishedHere += 1;
        return this.finishedLine(r);
      }
      case 'released':
        this.running.delete(e.job.id);
        if (e.reason && e.reason !== 'interrupted') return `[${this.done}/${this.total}] ${e.reason}  ${e.job.id}`;
        return `[${this.done}/${this.total}] interrupted  ${e.job.id} (will run again on --resume)`;
    }
  }

  finishedLine(r: AuditRecord): string {
    const mark = r.verdict === 'reproduced' ? '✓' : r.verdict === 'failed' ? '!' : '✗';
    const before = r.before && r.before.verdict !== r.verdict ? ` (as-is: ${r.before.verdict})` : '';
    const why = r.verdict === 'reproduced' ? '' : r.taxonomy ? `  ${r.taxonomy.exceptionClass} · ${causeLabel(r.taxonomy.cause)}` : '';
    const fixes = r.fixes.length ? `  ${r.fixes.length} fix${r.fixes.length === 1 ? '' : 'es'}` : '';
    const cost = r.llm.costUsd ? `  $${r.llm.costUsd.toFixed(2)}` : '';
    return `[${this.done}/${this.total}] ${mark} ${r.verdict}${before}  ${r.id}  ${fmtDuration(r.wallMs)}${fixes}${cost}${why}`;
  }

  /** Seconds left, from this session's pace (null until something finished here). */
  etaMs(): number | null {
    if (!this.finishedHere) return null;
    const elapsed = this.now() - this.startedAt;
    const left = Math.max(0, this.todo - this.finishedHere);
    return (elapsed / this.finishedHere) * left;
  }

  /** The live line, fit to `width` columns. */
  bar(width = 100): string {
    const frac = this.total ? this.done / this.total : 0;
    const eta = this.etaMs();
    // The numbers always fit; the bar shrinks first, then what is running gets cut.
    const stats = `${this.done}/${this.total}  reproduced ${this.reproduced}  ETA ${eta === null ? '–' : fmtDuration(eta)}  $${this.spentUsd.toFixed(2)}`;
    const barWidth = Math.max(0, Math.min(24, width - stats.length - 1));
    const filled = Math.round(frac * barWidth);
    const head = barWidth >= 5 ? `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)} ${stats}` : stats;
    const now = [...this.running.values()].map((r) => `${r.label} (${r.detail})`).join(', ');
    const line = now ? `${head}  ▶ ${now}` : head;
    return line.length > width ? `${line.slice(0, Math.max(head.length, width - 1))}…` : line;
  }
}

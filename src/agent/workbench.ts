/**
 * The code the loop is changing: the working notebook, the run order an execution-order repair
 * chose, what was tried, and the attempts so far (the LLM's history). Applying a patch here is the
 * only way the working notebook changes; each application goes out as one `fix` event.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import type { FixRecord } from '../core/modernize-report.js';
import type { Patch } from '../core/patch.js';
import type { AttemptSummary } from '../fixers/context/index.js';
import { applyPatchEdits, patchedOrder, syntaxProblems, validatePatch, withPatchedSources, type ValidationResult } from '../fixers/llm/index.js';
import type { Emit } from './events.js';
import { candidateKey, type Candidate, type TrialRecord } from './generate-verify.js';

export class Workbench {
  runOrder: number[] | undefined;
  readonly attempts: AttemptSummary[] = [];
  private readonly tried = new Set<string>();
  private fixes = 0;

  constructor(public work: Notebook, private readonly emit: Emit) {}

  /** Fixes after the static pass (what the max-fixes budget counts). */
  get fixCount(): number { return this.fixes; }

  /** The code version: sources and run order. */
  get codeKey(): string { return JSON.stringify([this.work.cells.map((c) => c.source), this.runOrder ?? null]); }

  markTried(c: Candidate): void { this.tried.add(candidateKey(c)); }

  /** Not tried before, and it changes the code (a patch that changes nothing would loop forever). */
  isNew = (c: Candidate): boolean => {
    if (this.tried.has(candidateKey(c))) return false;
    if (c.order) return JSON.stringify(c.order) !== JSON.stringify(this.runOrder);
    const { sources } = applyPatchEdits(this.work, c.patch.edits);
    if (patchedOrder(this.work, this.runOrder, c.patch.edits)) return true;
    return [...sources].some(([cell, src]) => sourceText(this.work.cells[cell]?.source) !== src);
  };

  /** Runs `body` with a candidate applied, then puts the code back as it was. */
  async trying<T>(c: Candidate, body: () => Promise<T>): Promise<T> {
    const saved = { work: this.work, runOrder: this.runOrder };
    const order = c.order ?? patchedOrder(this.work, this.runOrder, c.patch.edits);
    this.work = withPatchedSources(this.work, applyPatchEdits(this.work, c.patch.edits).sources, c.patch.edits);
    if (order) this.runOrder = order;
    try {
      return await body();
    } finally {
      this.work = saved.work;
      this.runOrder = saved.runOrder;
    }
  }

  apply(patch: Patch, step: number, trigger: string, error?: { ename: string; evalue: string }, extra: Partial<FixRecord> & { order?: number[] } = {}): FixRecord {
    const { order, ...more } = extra;
    this.tried.add(candidateKey({ label: '', patch, ...(order ? { order } : {}) }));
    // Structural edits (insert, move) change the run order; the cells keep their numbers.
    const moved = patchedOrder(this.work, this.runOrder, patch.edits);
    if (order ?? moved) this.runOrder = order ?? moved;
    const { sources } = applyPatchEdits(this.work, patch.edits);
    const changes = [...sources].map(([cell, after]) => ({ cell, before: sourceText(this.work.cells[cell]?.source), after }));
    this.work = withPatchedSources(this.work, sources, patch.edits);
    const source = patch.source.kind === 'rule' ? patch.source.ruleIds.join('+') : patch.source.model;
    const cells = [...new Set([...sources.keys(), ...patch.edits.flatMap((e) => (e.op === 'move' ? [e.cell] : []))])].sort((a, b) => a - b);
    const fix: FixRecord = { step, type: patch.fixType, source, sourceKind: patch.source.kind, cell: cells[0] ?? -1, cells, summary: patch.summary, trigger, ...more };
    if (step > 0) {
      this.fixes += 1;
      this.attempts.push({ fixType: patch.fixType, source, cells, summary: patch.summary, outcome: 'pending' });
    }
    this.emit({ type: 'fix', fix, edits: patch.edits, changes, ...(error ? { error } : {}) });
    return fix;
  }

  /** The candidate generate-and-verify kept, applied with every trial's outcome on record. */
  applyKept(kept: { candidate: Candidate; trials: readonly TrialRecord[] }, step: number, trigger: string, error?: { ename: string; evalue: string }): FixRecord {
    const c = kept.candidate;
    return this.apply(c.patch, step, trigger, error, {
      candidates: kept.trials.map((t) => ({ label: t.label, summary: t.summary, outcome: t.outcome.rank, detail: t.outcome.detail, kept: t.kept })),
      ...(c.order ? { order: c.order, summary: `${c.patch.summary} (run order: ${c.order.join(', ')})` } : {}),
    });
  }

  /** Rejected before running: never proposed again. */
  reject(patch: Patch): void {
    this.tried.add(candidateKey({ label: '', patch }));
  }

  /** Rules are trusted to be syntactically safe only in what they add; LLM patches were checked by proposePatch. */
  async check(patch: Patch, forbiddenPaths: string[]): Promise<ValidationResult> {
    const check = await validatePatch(patch, this.work, { forbiddenPaths, ...(this.runOrder ? { order: this.runOrder } : {}) });
    if (check.ok || patch.source.kind !== 'rule') return check;
    // A rule may fix one Python 2 construct in a cell that still has others: judge it on what it added.
    const stillBroken = await Promise.all(patch.edits.map(async (e) => (await syntaxProblems(sourceText(this.work.cells[e.cell]?.source), e.cell)).length > 0));
    check.problems = check.problems.filter((p) => !((p.kind === 'syntax' || p.kind === 'python2') && stillBroken.some(Boolean)));
    check.reasons = check.problems.map((p) => (p.cell >= 0 ? `cell ${p.cell}: ${p.message}` : p.message));
    check.ok = check.problems.length === 0;
    return check;
  }
}

/**
 * The changes a modernization made, as a reviewer sees them: one per (fix, cell), in the order
 * they were applied, read from the output dir `modernize` (or an audit's notebook dir) wrote:
 * report.json (where the original is), trajectory.jsonl (the `fix` events with before/after and
 * the `llm` events with the model's prompt and reply), the modernized notebook (final run's outputs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { NbmError, ExitCode, UsageError, errorMessage } from '../../core/errors.js';
import { readNotebookFile, type Notebook } from '../../core/notebook.js';
import { ModernizeReport } from '../../core/modernize-report.js';
import { ReviewRecord } from '../../core/review-record.js';
import type { FixType } from '../../core/patch.js';
import { codeOf, findRule } from '../../fixers/rules/index.js';

export interface RuleRef { id: string; code?: string; library?: string }

export interface ReviewChange {
  /** Stable within one output dir: `c1`, `c2`, ... in the order the changes were applied. */
  id: string;
  /** Which fix event it came from (several cells changed by one patch share it). */
  fix: number;
  /** 0: the static pass before the first run; n: the loop's n-th fix. */
  step: number;
  cell: number;
  fixType: FixType;
  sourceKind: 'rule' | 'llm';
  /** As report.json has it: rule ids joined by "+", or the model name. */
  source: string;
  rules: RuleRef[];
  summary: string;
  /** What the fix addressed: "static scan", an error signature, a drifted value. */
  trigger: string;
  error?: { ename: string; evalue: string };
  before: string;
  after: string;
  /** For LLM changes: what the model was shown and what it answered (when the trajectory has them). */
  llm?: { prompt?: string; replies: string[] };
}

export interface ReviewInput {
  outDir: string;
  name: string;
  originalPath: string;
  original: Notebook;
  /** The modernized notebook with the outputs of modernize's final run. */
  modernized: Notebook;
  report: ModernizeReport;
  changes: ReviewChange[];
  /** Values two clean runs disagreed on (excused from the verdict, as in modernize). */
  unstable: string[];
  /** review.json of an earlier review of this dir, when there is a valid one. */
  previous?: ReviewRecord;
}

export function readReviewInput(outDir: string, opts: { original?: string } = {}): ReviewInput {
  const reportFile = path.join(outDir, 'report.json');
  if (!fs.existsSync(reportFile)) throw new UsageError(`${outDir} has no report.json: it is not the output dir of modernize`, 'run: nbmodernize modernize NOTEBOOK --out-dir DIR, then review DIR');
  let report: ModernizeReport;
  try {
    report = ModernizeReport.parse(JSON.parse(fs.readFileSync(reportFile, 'utf8')));
  } catch (err) {
    throw new NbmError(`${reportFile} is not a modernize report: ${errorMessage(err)}`, ExitCode.malformedNotebook, 'malformed-report');
  }
  const originalPath = opts.original ?? report.notebook.path;
  if (!fs.existsSync(originalPath)) throw new UsageError(`the original notebook ${originalPath} is not there any more`, 'give it with --original FILE');
  const name = path.basename(report.notebook.path).replace(/\.ipynb$/i, '');
  const modernizedFile = path.join(outDir, `${name}.modernized.ipynb`);
  const events = readTrajectory(path.join(outDir, 'trajectory.jsonl'));
  if (events.some((e) => e.type === 'fix' && String(e.fix?.source).includes('execution-order'))) {
    throw new UsageError('this modernization moved cells (an execution-order repair); review does not handle moved cells yet', 'read changes.diff instead');
  }
  // A model's patch that inserted, moved or deleted cells: the same limit.
  if (events.some((e) => e.type === 'fix' && (e.edits ?? []).some((x: any) => x.op === 'insert' || x.op === 'move' || x.op === 'delete'))) {
    throw new UsageError('this modernization inserted, moved or deleted cells (a model\'s structural edit); review does not handle those yet', 'read changes.diff instead');
  }
  return {
    outDir, name, originalPath, report,
    original: readNotebookFile(originalPath).notebook,
    modernized: readNotebookFile(modernizedFile).notebook,
    changes: changesFromTrajectory(events),
    unstable: events.filter((e) => e.type === 'rerun' || e.type === 'unseeded' || e.type === 'ill-conditioned' || e.type === 'stale-inputs').flatMap((e) => e.unstable ?? []),
    ...previousReview(path.join(outDir, 'review.json')),
  };
}

function previousReview(file: string): { previous?: ReviewRecord } {
  try {
    const parsed = ReviewRecord.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? { previous: parsed.data } : {};
  } catch {
    return {};
  }
}

function readTrajectory(file: string): any[] {
  if (!fs.existsSync(file)) throw new UsageError(`${path.dirname(file)} has no trajectory.jsonl`, 'review needs the full output dir of modernize');
  const out: any[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch { /* a torn last line after a crash */ }
  }
  return out;
}

/** One change per cell of each `fix` event, with the LLM exchange of the same step. */
export function changesFromTrajectory(events: any[]): ReviewChange[] {
  const changes: ReviewChange[] = [];
  const llmByStep = new Map<number, { prompt?: string; replies: string[] }>();
  let fixIndex = 0;
  for (const e of events) {
    if (e.type === 'llm') {
      llmByStep.set(e.step, { ...(e.prompt ? { prompt: e.prompt } : {}), replies: (e.calls ?? []).map((c: any) => c.reply).filter((r: unknown): r is string => typeof r === 'string') });
      continue;
    }
    if (e.type !== 'fix') continue;
    fixIndex += 1;
    const f = e.fix;
    const rules: RuleRef[] = f.sourceKind === 'rule' ? String(f.source).split('+').map(ruleRef) : [];
    const llm = f.sourceKind === 'llm' ? llmByStep.get(f.step) : undefined;
    for (const c of e.changes ?? []) {
      changes.push({
        id: `c${changes.length + 1}`, fix: fixIndex, step: f.step, cell: c.cell, fixType: f.type, sourceKind: f.sourceKind, source: f.source,
        rules, summary: f.summary, trigger: f.trigger, ...(e.error ? { error: e.error } : {}), before: c.before, after: c.after, ...(llm ? { llm } : {}),
      });
    }
  }
  return changes;
}

function ruleRef(id: string): RuleRef {
  const rule = findRule(id);
  const code = rule ? codeOf(rule) : undefined;
  return rule ? { id: rule.id, ...(code ? { code } : {}), library: rule.library } : { id };
}

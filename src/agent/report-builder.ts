/**
 * report.json, built by listening to the loop's events (the same stream the trajectory and the
 * CLI see): fixes and what the next run showed, re-executions, LLM usage, the first run, the stop
 * and the verdict. What only the caller knows (environment, sandbox, cell executions) comes at the end.
 */
import type { FixType } from '../core/patch.js';
import type { FixRecord, ModernizeReport, StopReason } from '../core/modernize-report.js';
import { MODERNIZE_REPORT_SCHEMA_VERSION } from '../core/modernize-report.js';
import { toolVersion } from '../core/version.js';
import type { RunResult } from '../core/run-result.js';
import type { AgentEvent } from './events.js';
import { attemptOutcome } from './decisions.js';
import type { VerdictResult } from './verdict.js';

export class ReportBuilder {
  readonly fixes: FixRecord[] = [];
  readonly reexecutions: ModernizeReport['reexecutions'] = [];
  readonly llm = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, promptTokensMax: 0 };
  /** Cell -> fix type and every source that changed it (marks in the modernized notebook). */
  readonly changedBy = new Map<number, { fixType: FixType; sources: string[] }>();
  baseline: ModernizeReport['baseline'] = { status: 'not-run' };
  fullRuns = 0;
  staticFindings = 0;
  stop?: { reason: StopReason; detail: string };
  verdict?: VerdictResult;
  /** Sum of cell durations over every execution, and the last execution's status and first error (the audit's record). */
  readonly executions = { cellMs: 0, lastStatus: undefined as string | undefined, lastError: undefined as { cell: number; ename: string; evalue: string } | undefined };
  private executionsSeen = 0;

  on = (e: AgentEvent): void => {
    switch (e.type) {
      case 'static-pass':
        this.staticFindings = e.findingsBefore;
        break;
      case 'run':
        if (e.mode !== 'incremental') this.fullRuns += 1;
        break;
      case 'execution': {
        const bad = e.cells.find((c) => c.error);
        if (this.executionsSeen++ === 0) this.baseline = { status: e.status, ...(bad?.error ? { error: { cell: bad.index, ename: bad.error.ename, evalue: bad.error.evalue } } : {}) };
        for (const c of e.cells) this.executions.cellMs += c.durationMs ?? 0;
        this.executions.lastStatus = e.status;
        this.executions.lastError = bad?.error ? { cell: bad.index, ename: bad.error.ename, evalue: String(bad.error.evalue ?? '').slice(0, 500) } : undefined;
        break;
      }
      case 'diagnosis': {
        const last = this.fixes.at(-1);
        if (last) last.outcome ??= attemptOutcome(e.diagnosis).fix;
        break;
      }
      case 'fix':
        this.fixes.push({ ...e.fix });
        for (const { cell } of e.changes) {
          const prev = this.changedBy.get(cell);
          this.changedBy.set(cell, { fixType: e.fix.type, sources: [...(prev?.sources ?? []), e.fix.source] });
        }
        break;
      case 'reexecution':
        // Trials of candidates are in the trajectory; the report lists the loop's own re-runs.
        if (e.candidate === undefined) this.reexecutions.push({ step: e.step, mode: e.mode, fromCell: e.fromCell, reason: e.reason });
        break;
      case 'llm':
        this.llm.calls += e.calls.length;
        for (const c of e.calls) {
          this.llm.inputTokens += c.usage.inputTokens;
          this.llm.outputTokens += c.usage.outputTokens;
        }
        this.llm.costUsd += e.costUsd;
        this.llm.promptTokensMax = Math.max(this.llm.promptTokensMax, e.promptTokens);
        break;
      case 'stop':
        this.stop = { reason: e.reason, detail: e.detail };
        break;
      case 'verdict':
        this.verdict = e.verdict;
        break;
    }
  };

  build(x: {
    notebookPath: string;
    startedAt: Date;
    finalRun?: RunResult;
    expected: boolean;
    incremental: boolean;
    cellExecutions: number;
    llm: { provider: string | null; model: string | null; note: string };
    environment: ModernizeReport['environment'];
    sandbox: string | null;
  }): ModernizeReport {
    const { verdict, stop } = this;
    return {
      schemaVersion: MODERNIZE_REPORT_SCHEMA_VERSION,
      tool: { name: 'nbmodernize', version: toolVersion() },
      notebook: { path: x.notebookPath, output: null },
      // A sandbox or provider failure says nothing about the notebook: "failed" (could not evaluate).
      verdict: verdict?.verdict ?? (stop?.reason === 'sandbox-error' || stop?.reason === 'llm-error' ? 'failed' : 'not-reproduced'),
      reason: verdict?.reason ?? stop?.detail ?? '',
      stopReason: stop?.reason ?? 'no-fix-available',
      oracle: verdict?.oracle.oracle ?? (x.expected ? 'expected-score' : 'stored-outputs'),
      comparisons: verdict?.oracle.comparisons ?? [],
      baseline: this.baseline,
      finalRun: x.finalRun ? { status: x.finalRun.status, wallMs: x.finalRun.wallMs, errorCell: x.finalRun.error?.cell ?? null } : null,
      staticFindings: this.staticFindings,
      fixes: this.fixes,
      cellExecutions: x.cellExecutions,
      fullRuns: this.fullRuns,
      incremental: x.incremental,
      reexecutions: this.reexecutions,
      llm: { provider: x.llm.provider, model: x.llm.model, ...this.llm, note: x.llm.note },
      environment: x.environment,
      sandbox: x.sandbox,
      startedAt: x.startedAt.toISOString(),
      wallMs: Date.now() - x.startedAt.getTime(),
      artifacts: {},
    };
  }
}

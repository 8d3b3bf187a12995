/** The loop's limits, checked before every fix. Each one maps to a stop reason. */
import type { StopReason } from '../core/modernize-report.js';

export interface Budgets {
  maxFixes: number;
  /** Max LLM spend for this notebook (USD). */
  spendCapUsd: number;
  /** Max wall time of the whole modernization (seconds). */
  maxWallS: number;
}

export const DEFAULT_BUDGETS: Budgets = { maxFixes: 16, spendCapUsd: 1.0, maxWallS: 3600 };

export function budgetStop(b: Budgets, state: { fixes: number; spentUsd: number; startedAt: number }): StopReason | undefined {
  if (state.fixes >= b.maxFixes) return 'max-fixes';
  if (state.spentUsd >= b.spendCapUsd) return 'spend-cap';
  if (wallSpent(b, state.startedAt)) return 'max-wall-time';
  return undefined;
}

/** The wall budget is used up (fixes and skips both stop on it). */
export function wallSpent(b: Budgets, startedAt: number): boolean {
  return (Date.now() - startedAt) / 1000 >= b.maxWallS;
}

/**
 * "No progress": the same error signature after two different patches. The first time we
 * escalate (rules -> LLM, or a whole-cell LLM rewrite with the history); the second time we stop.
 */
export class ProgressTracker {
  private readonly patchesPerSignature = new Map<string, number>();
  escalated = new Set<string>();

  /** Call after a run with the current diagnosis signature, when a patch was applied for it before. */
  record(signature: string): 'ok' | 'escalate' | 'stop' {
    const n = (this.patchesPerSignature.get(signature) ?? 0) + 1;
    this.patchesPerSignature.set(signature, n);
    if (n < 2) return 'ok';
    if (!this.escalated.has(signature)) {
      this.escalated.add(signature);
      return 'escalate';
    }
    return n >= 3 ? 'stop' : 'ok';
  }
}

/** The defaults with what the caller set (undefined leaves a default in place). */
export function resolveBudgets(given: Partial<Budgets> = {}): Budgets {
  return { ...DEFAULT_BUDGETS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}

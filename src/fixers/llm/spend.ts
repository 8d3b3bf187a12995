/**
 * Spend tracking and the per-notebook cap. Create one SpendTracker per notebook (and sum the
 * summaries for the run); wrap the provider in a MeteredProvider so every call is checked
 * before it is sent and counted after it returns.
 */
import { LlmError } from './errors.js';
import { PRICING, type PricingTable, worstCaseCost } from './pricing.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';

export interface SpendSummary {
  calls: number;
  failedCalls: number;
  /** Calls refused by the cap (never sent). */
  refusedCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  /** Calls answered by a model missing from the pricing table (counted at $0). */
  unpricedCalls: number;
  latencyMs: number;
}

export function emptySpend(): SpendSummary {
  return {
    calls: 0, failedCalls: 0, refusedCalls: 0, inputTokens: 0, outputTokens: 0,
    cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, unpricedCalls: 0, latencyMs: 0,
  };
}

/** Sum per-notebook summaries into a per-run one. */
export function sumSpend(...items: SpendSummary[]): SpendSummary {
  const out = emptySpend();
  for (const s of items) {
    for (const k of Object.keys(out) as Array<keyof SpendSummary>) out[k] += s[k];
  }
  return out;
}

export interface SpendTrackerOptions {
  /** Per-notebook cap in USD; undefined = no cap. */
  capUsd?: number;
  /** Per-notebook cap on calls; undefined = no cap. */
  maxCalls?: number;
  /**
   * 'worst-case' (default): refuse a call when spent + its worst-case cost (prompt uncached,
   * the full maxTokens used) would exceed the cap, so the cap is never overshot.
   * 'spent': refuse only once the money already spent reaches the cap.
   */
  estimate?: 'worst-case' | 'spent';
  pricing?: PricingTable;
}

export class SpendTracker {
  private s: SpendSummary = emptySpend();

  constructor(readonly options: SpendTrackerOptions = {}) {}

  get summary(): SpendSummary {
    return { ...this.s };
  }

  get remainingUsd(): number | undefined {
    return this.options.capUsd === undefined ? undefined : Math.max(0, this.options.capUsd - this.s.costUsd);
  }

  /** Throws LlmError('budget') when this call may not be made. */
  check(req: LlmRequest, model: string): void {
    const { capUsd, maxCalls } = this.options;
    if (maxCalls !== undefined && this.s.calls + this.s.failedCalls >= maxCalls) {
      this.s.refusedCalls++;
      throw new LlmError('budget', `LLM call cap reached: ${maxCalls} calls per notebook`);
    }
    if (capUsd === undefined) return;
    const chars = req.system.length + req.messages.reduce((n, m) => n + m.content.length + (m.toolCalls ? JSON.stringify(m.toolCalls).length : 0), 0) + (req.tools ? JSON.stringify(req.tools).length : 0);
    const next = (this.options.estimate ?? 'worst-case') === 'worst-case'
      ? worstCaseCost(model, chars, req.maxTokens, this.options.pricing ?? PRICING).costUsd
      : 0;
    const spent = this.s.costUsd;
    if (spent >= capUsd || spent + next > capUsd) {
      this.s.refusedCalls++;
      throw new LlmError(
        'budget',
        `LLM spend cap reached: $${spent.toFixed(4)} spent of $${capUsd.toFixed(4)} per notebook` +
          (next > 0 ? `; the next call could cost up to $${next.toFixed(4)}` : ''),
      );
    }
  }

  record(res: LlmResponse): void {
    this.s.calls++;
    this.s.inputTokens += res.usage.inputTokens;
    this.s.outputTokens += res.usage.outputTokens;
    this.s.cacheReadTokens += res.usage.cacheReadTokens ?? 0;
    this.s.cacheWriteTokens += res.usage.cacheWriteTokens ?? 0;
    this.s.costUsd += res.costUsd;
    this.s.latencyMs += res.latencyMs;
    if (!res.priced) this.s.unpricedCalls++;
  }

  recordFailure(): void {
    this.s.failedCalls++;
  }
}

/** A provider that asks the tracker before each call and records each answer. */
export class MeteredProvider implements LlmProvider {
  constructor(readonly inner: LlmProvider, readonly tracker: SpendTracker) {}

  get provider(): string { return this.inner.provider; }
  get model(): string { return this.inner.model; }
  get tools(): boolean { return this.inner.tools === true; }

  async complete(req: LlmRequest): Promise<LlmResponse> {
    this.tracker.check(req, this.inner.model);
    let res: LlmResponse;
    try {
      res = await this.inner.complete(req);
    } catch (err) {
      this.tracker.recordFailure();
      throw err;
    }
    this.tracker.record(res);
    return res;
  }
}

/**
 * Per-model prices in US dollars per million tokens. Prices change: this table is a snapshot
 * (PRICING_AS_OF) and callers may pass overrides. A model that is not in the table costs 0 and is
 * reported with `priced: false`, so a local model never looks free by accident in the report.
 */
import type { LlmUsage } from './types.js';

export interface ModelPrice {
  /** $/Mtok of uncached input. */
  input: number;
  /** $/Mtok of output. */
  output: number;
  /** $/Mtok of input read from the cache (defaults to input). */
  cacheRead?: number;
  /** $/Mtok of input written to the cache (defaults to input). */
  cacheWrite?: number;
}

export const PRICING_AS_OF = '2025-10';

/** Keys are model names or prefixes; the longest prefix that ends at a '-' boundary wins. */
export const PRICING: Readonly<Record<string, ModelPrice>> = {
  // OpenAI (cached input is a discount; no separate write charge)
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'o3': { input: 2, output: 8, cacheRead: 0.5 },
  'o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // Anthropic (cache writes cost 1.25x input, reads 0.1x)
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  // Newer generations listed by the installed SDK; priced at their tier's price (Sonnet has been
  // $3/$15 and Opus 4.5 $5/$25): verify against the provider's price page, or pass overrides.
  'claude-sonnet-4-6': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
};

export type PricingTable = Readonly<Record<string, ModelPrice>>;

/** The price of a model: exact name first, then the longest prefix followed by '-' (dated snapshots). */
export function priceFor(model: string, table: PricingTable = PRICING): ModelPrice | undefined {
  const m = model.trim().toLowerCase();
  if (table[m]) return table[m];
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (m.startsWith(key + '-') && (!best || key.length > best.length)) best = key;
  }
  return best ? table[best] : undefined;
}

export interface Cost {
  costUsd: number;
  priced: boolean;
}

export function costOf(model: string, usage: LlmUsage, table: PricingTable = PRICING): Cost {
  const price = priceFor(model, table);
  if (!price) return { costUsd: 0, priced: false };
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - read - write);
  const dollars =
    plain * price.input +
    read * (price.cacheRead ?? price.input) +
    write * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return { costUsd: dollars / 1e6, priced: true };
}

/**
 * Worst-case cost of a call before it is made: every prompt token uncached (estimated at ~4
 * characters per token) and the full output allowance used.
 */
export function worstCaseCost(model: string, promptChars: number, maxTokens: number, table: PricingTable = PRICING): Cost {
  return costOf(model, { inputTokens: Math.ceil(promptChars / 4), outputTokens: maxTokens }, table);
}

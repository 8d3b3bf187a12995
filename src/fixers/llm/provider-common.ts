/** Options and helpers shared by the SDK-backed providers (no SDK import here). */
import type { PricingTable } from './pricing.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

export interface ProviderOptions {
  model: string;
  /** Passed explicitly: the providers never read process.env (the SDK defaults are bypassed). */
  apiKey?: string;
  /** Any compatible server, e.g. http://127.0.0.1:8000/v1 for a local OpenAI-compatible model. */
  baseURL?: string;
  /** Per-attempt timeout. Default 120 s. */
  timeoutMs?: number;
  /** Our retry policy (the SDK's own retries are off). */
  retry?: Partial<RetryPolicy>;
  pricing?: PricingTable;
  /** Clock for latency; injectable for tests. */
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

/** A key placeholder for keyless local servers (the SDKs refuse to start without one). */
export const NO_KEY = 'nbmodernize-no-key';

export function retryPolicy(opts: ProviderOptions): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...(opts.retry ?? {}) };
}

/** A tool call's arguments as an object; text that is not a JSON object is kept as `badInput` (the tool answers with an error). */
export function parseToolInput(raw: unknown): { input: Record<string, unknown>; badInput?: string } {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return { input: raw as Record<string, unknown> };
  if (typeof raw === 'string') {
    try {
      const v = JSON.parse(raw || '{}');
      if (v && typeof v === 'object' && !Array.isArray(v)) return { input: v };
    } catch {
      /* below */
    }
    return { input: {}, badInput: raw };
  }
  return { input: {}, badInput: JSON.stringify(raw ?? null) };
}

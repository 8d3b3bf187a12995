/**
 * Options and helpers shared by the SDK-backed providers (no SDK import here: each SDK is imported
 * by its own provider module only, so a rules-only run loads neither). Both SDKs are generated from
 * the same template, so loading them, calling through our retry policy, mapping their errors and
 * building the response are the same logic; only the wire formats differ, and stay in the providers.
 */
import { LlmError, httpError, type HeaderSource } from './errors.js';
import { costOf, type PricingTable } from './pricing.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetry } from './retry.js';
import type { CallOptions, LlmProvider, LlmRequest, LlmResponse, LlmToolCall, LlmUsage } from './types.js';

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

/**
 * What both SDK-backed providers are: one model, asked through its SDK with tool calls (Anthropic's
 * tool_use blocks, OpenAI's function calling; a compatible server without them answers 400 and the
 * agent falls back to replies).
 */
export abstract class SdkProvider<O extends ProviderOptions> implements LlmProvider {
  abstract readonly provider: string;
  readonly model: string;
  readonly tools = true;

  constructor(protected readonly opts: O) {
    this.model = opts.model;
  }

  abstract complete(req: LlmRequest, call?: CallOptions): Promise<LlmResponse>;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

/** A key placeholder for keyless local servers (the SDKs refuse to start without one). */
export const NO_KEY = 'nbmodernize-no-key';

/** The client options both SDKs take alike: the key passed explicitly (never read from the env), our timeout, the SDK's own retries off. */
export function sdkClientOptions(opts: ProviderOptions, defaultBaseURL: string): { apiKey: string; baseURL: string; timeout: number; maxRetries: 0 } {
  return {
    apiKey: opts.apiKey || NO_KEY,
    baseURL: opts.baseURL || defaultBaseURL,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: 0,
  };
}

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

type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

/** The error classes both SDKs export, under the same names, on their default export. */
export interface SdkErrorClasses {
  APIUserAbortError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: ErrorClass<Error & { status: number | undefined; headers: HeaderSource }>;
}

/** An SDK and its client, made on the first call and kept (a failed load is tried again on the next call). */
export function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: T | undefined;
  return async () => (made ??= await make());
}

/**
 * One request through the SDK under our retry policy: the SDK is connected inside the attempt and
 * its errors become LlmErrors, which withRetry knows how to retry (an abort is never retried).
 */
export function sendWithRetry<S extends SdkErrorClasses, C, T>(
  provider: string,
  opts: ProviderOptions,
  connect: () => Promise<{ SDK: S; client: C }>,
  send: (client: C, options: { signal: AbortSignal } | undefined) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<{ value: T; attempts: number }> {
  return withRetry(async () => {
    const { SDK, client } = await connect();
    try {
      return await send(client, signal ? { signal } : undefined);
    } catch (err) {
      throw toLlmError(err, provider, SDK);
    }
  }, retryPolicy(opts), signal);
}

function toLlmError(err: unknown, provider: string, SDK: SdkErrorClasses): unknown {
  // Before APIConnectionError: an abort is not a connection failure and must not be retried.
  if (err instanceof SDK.APIUserAbortError) return new LlmError('interrupted', `${provider}: the call was interrupted`, { provider });
  if (err instanceof SDK.APIConnectionTimeoutError) return new LlmError('timeout', `${provider}: request timed out`, { provider });
  if (err instanceof SDK.APIConnectionError) return new LlmError('connection', `${provider}: connection failed: ${err.message}`, { provider });
  if (err instanceof SDK.APIError) return httpError(provider, err.status, err.message, err.headers);
  if (err instanceof SyntaxError) return new LlmError('malformed-reply', `${provider}: the server's reply is not valid JSON: ${err.message}`, { provider });
  return err;
}

/** Milliseconds since this call, on the provider's clock (injectable for tests). */
export function stopwatch(opts: ProviderOptions): () => number {
  const now = opts.now ?? Date.now;
  const started = now();
  return () => now() - started;
}

/** What a provider read from its own wire format, for providerResponse. */
export interface ProviderReply {
  text: string;
  usage: LlmUsage;
  /** The model the server names; when it names none, the one asked for. */
  model: unknown;
  attempts: number;
  truncated: boolean;
  toolCalls: LlmToolCall[];
}

/** The response as every SDK-backed provider returns it: priced from the table, timed by `elapsed`. */
export function providerResponse(
  from: { provider: string; model: string; pricing: PricingTable | undefined; elapsed: () => number },
  reply: ProviderReply,
): LlmResponse {
  const model = typeof reply.model === 'string' && reply.model ? reply.model : from.model;
  const cost = costOf(model, reply.usage, from.pricing);
  return {
    text: reply.text,
    usage: reply.usage,
    model,
    provider: from.provider,
    costUsd: cost.costUsd,
    priced: cost.priced,
    latencyMs: from.elapsed(),
    attempts: reply.attempts,
    ...(reply.truncated ? { truncated: true } : {}),
    ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}),
  };
}

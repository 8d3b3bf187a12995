/**
 * Bounded retries with exponential backoff and full jitter, honouring the server's Retry-After.
 * The SDKs' own retries are switched off (maxRetries: 0) so this is the single, testable policy:
 * `sleep` and `random` are injectable, and every wait is reported through `onRetry`.
 */
import { LlmError } from './errors.js';
import { log } from '../../core/log.js';

export interface RetryPolicy {
  /** Retries after the first attempt (so at most maxRetries + 1 requests). */
  maxRetries: number;
  /** First backoff step; doubles each retry. */
  baseDelayMs: number;
  /** Cap of one computed backoff step. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1). */
  random?: () => number;
  onRetry?: (info: { attempt: number; delayMs: number; error: LlmError }) => void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** A timer that an abort clears at once (a pending 60 s Retry-After timer would keep the process alive). */
export const realSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(interrupted(0));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The wait before retry number `retry` (1-based). */
export function backoffDelay(policy: RetryPolicy, retry: number, error: LlmError): number {
  if (error.details.retryAfterMs !== undefined) return error.details.retryAfterMs;
  const random = policy.random ?? Math.random;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  // "Equal jitter": never less than half the step, so backoff still grows.
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Run `fn` until it succeeds, a non-retryable error occurs, or retries run out. Errors that are
 * not LlmError are rethrown unchanged (they are bugs, not transient failures).
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  signal?: AbortSignal,
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    // An abort during a backoff wait must not start another attempt.
    if (signal?.aborted) throw interrupted(attempt - 1);
    try {
      return { value: await fn(attempt), attempts: attempt };
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      err.details.attempts = attempt;
      if (!err.retryable || attempt > policy.maxRetries) throw err;
      const ra = err.details.retryAfterMs;
      if (ra !== undefined && ra > policy.maxRetryAfterMs) {
        throw new LlmError(err.llmKind, `${err.message} (server asked to wait ${Math.round(ra / 1000)} s, more than the ${Math.round(policy.maxRetryAfterMs / 1000)} s allowed)`, err.details);
      }
      const delayMs = backoffDelay(policy, attempt, err);
      log.info(`llm: ${err.llmKind} on attempt ${attempt}, retrying in ${delayMs} ms`);
      policy.onRetry?.({ attempt, delayMs, error: err });
      await (policy.sleep ? abortable(policy.sleep(delayMs), signal) : realSleep(delayMs, signal));
    }
  }
}

function interrupted(attempts: number): LlmError {
  return new LlmError('interrupted', 'llm: the call was interrupted', { attempts });
}

/** `p`, or an interruption as soon as `signal` aborts (a backoff may be minutes: Retry-After). */
function abortable(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(interrupted(0));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

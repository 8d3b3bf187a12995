/**
 * Typed LLM errors. Provider modules translate their SDK's errors into `LlmError` so nothing
 * above them needs to know an SDK; `retryable` decides what the retry loop may try again.
 */
import { ExitCode, NbmError } from '../../core/errors.js';

export type LlmErrorKind =
  | 'auth'
  | 'bad-request'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'malformed-reply'
  | 'budget'
  | 'replay-exhausted'
  /** The caller aborted the call (Ctrl-C, SIGTERM, an AbortSignal): never retried. */
  | 'interrupted';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['rate-limit', 'server', 'timeout', 'connection']);

export class LlmError extends NbmError {
  constructor(
    readonly llmKind: LlmErrorKind,
    message: string,
    readonly details: {
      status?: number;
      /** Server-requested wait before the next attempt (Retry-After / retry-after-ms). */
      retryAfterMs?: number;
      provider?: string;
      attempts?: number;
    } = {},
  ) {
    super(
      message,
      llmKind === 'budget' ? ExitCode.budgetExceeded : ExitCode.environment,
      `llm-${llmKind}`,
      llmKind === 'auth' ? 'check the API key (OPENAI_API_KEY / ANTHROPIC_API_KEY) and the base URL' : undefined,
    );
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.llmKind);
  }
}

export function isLlmError(err: unknown, kind?: LlmErrorKind): err is LlmError {
  return err instanceof LlmError && (kind === undefined || err.llmKind === kind);
}

/** Minimal view of a fetch Headers object or a plain record, so tests need no SDK. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | undefined> | undefined | null;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as any).get === 'function') return (headers as any).get(name) ?? undefined;
  const rec = headers as Record<string, string | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  return key ? rec[key] : undefined;
}

/**
 * Server-requested wait in ms: `retry-after-ms` (OpenAI), then `Retry-After` as seconds or an
 * HTTP date. `now` is injectable for tests.
 */
export function retryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = header(headers, 'retry-after');
  if (ra === undefined || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Math.round(Number(ra) * 1000));
  const date = Date.parse(ra);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/** The kind of an HTTP error status (shared by both providers). */
export function kindForStatus(status: number | undefined): LlmErrorKind {
  if (status === undefined) return 'connection';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate-limit';
  if (status >= 500) return 'server';
  return 'bad-request';
}

/** Build an LlmError from an HTTP failure; the message never includes request headers or keys. */
export function httpError(provider: string, status: number | undefined, message: string, headers?: HeaderSource): LlmError {
  const kind = kindForStatus(status);
  const ra = retryAfterMs(headers);
  const short = message.replace(/\s+/g, ' ').slice(0, 400);
  return new LlmError(kind, `${provider}: HTTP ${status ?? '?'} (${kind}): ${short}`, {
    status,
    provider,
    ...(ra !== undefined ? { retryAfterMs: ra } : {}),
  });
}

/**
 * Choosing a provider from an environment OBJECT and the CLI flags (only src/cli reads
 * process.env; it passes it here). With no key and no base URL the answer is `null` with a
 * reason: the loop then runs rules only and says why.
 */
import { UsageError } from '../../core/errors.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import { RecordingProvider, ReplayProvider } from './record-replay.js';
import type { RetryPolicy } from './retry.js';
import type { LlmProvider } from './types.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface LlmFlags {
  /** --llm openai|anthropic|none; undefined = pick from the environment. */
  llm?: string;
  /** --no-llm */
  noLlm?: boolean;
  /** --model NAME */
  model?: string;
  /** A base URL flag/config value; overrides *_BASE_URL from the environment. */
  baseUrl?: string;
  /** --llm-timeout S, in ms: per attempt (a local model on a CPU server needs more than the default 120 s). */
  timeoutMs?: number;
  /** --llm-max-tokens N: the output limit of every request (both SDKs); the spend cap's worst case uses it too. */
  maxTokens?: number;
  /** --llm-mode tools|reply: a tool conversation, or one reply in the reply contract (default). */
  mode?: string;
  retry?: Partial<RetryPolicy>;
  /** --record-llm FILE */
  recordLlm?: string;
  /** --replay-llm FILE: answer from the file, no network, no key needed. */
  replayLlm?: string;
}

export interface ProviderChoice {
  provider: LlmProvider | null;
  kind: 'openai' | 'anthropic' | 'replay' | 'none';
  /** One line for the log and the report: why this provider, or why rules only. */
  reason: string;
  model?: string;
  /** The base URL in use (never the key). */
  baseUrl?: string;
  /** --llm-max-tokens, for the requests the fixer builds (the SDKs send it as max_tokens / max_completion_tokens). */
  maxTokens?: number;
  /** --llm-mode (default reply). */
  mode?: 'reply' | 'tools';
}

export const DEFAULT_MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

export function providerFromEnv(env: Env, flags: LlmFlags = {}): ProviderChoice {
  if (flags.noLlm) return { provider: null, kind: 'none', reason: 'rules only: --no-llm was given' };
  const want = flags.llm?.toLowerCase();
  if (want !== undefined && !['openai', 'anthropic', 'none'].includes(want)) {
    throw new UsageError(`unknown --llm ${JSON.stringify(flags.llm)}`, 'use --llm openai, --llm anthropic or --llm none');
  }
  if (want === 'none') return { provider: null, kind: 'none', reason: 'rules only: --llm none was given' };
  if (flags.mode !== undefined && flags.mode !== 'tools' && flags.mode !== 'reply') {
    throw new UsageError(`unknown --llm-mode ${JSON.stringify(flags.mode)}`, 'use --llm-mode reply (one reply per fix, the default) or --llm-mode tools (a tool conversation)');
  }

  if (flags.replayLlm) {
    const provider = new ReplayProvider(flags.replayLlm);
    return { provider, kind: 'replay', model: provider.model, reason: `replaying LLM answers from ${flags.replayLlm} (no network)`, ...maxTokensOf(flags) };
  }

  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  const anthropicKey = nonEmpty(env.ANTHROPIC_API_KEY);
  const openaiBase = nonEmpty(env.OPENAI_BASE_URL);
  const anthropicBase = nonEmpty(env.ANTHROPIC_BASE_URL);
  const flagBase = nonEmpty(flags.baseUrl);

  let kind = want as 'openai' | 'anthropic' | undefined;
  if (!kind) {
    // Auto: a key beats a bare base URL; OpenAI before Anthropic when both are set; a base URL
    // flag alone means an OpenAI-compatible server.
    if (openaiKey) kind = 'openai';
    else if (anthropicKey) kind = 'anthropic';
    else if (openaiBase || flagBase) kind = 'openai';
    else if (anthropicBase) kind = 'anthropic';
  }
  if (!kind) {
    return {
      provider: null,
      kind: 'none',
      reason: 'rules only: no LLM configured (set OPENAI_API_KEY or ANTHROPIC_API_KEY, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL for a local server)',
    };
  }
  const key = kind === 'openai' ? openaiKey : anthropicKey;
  const base = flagBase ?? (kind === 'openai' ? openaiBase : anthropicBase);
  const KEY = kind === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const BASE = kind === 'openai' ? 'OPENAI_BASE_URL' : 'ANTHROPIC_BASE_URL';
  if (!key && !base) {
    return { provider: null, kind: 'none', reason: `rules only: --llm ${kind} needs ${KEY} or ${BASE}, and neither is set` };
  }
  const model = nonEmpty(flags.model) ?? DEFAULT_MODELS[kind];
  const common = {
    model,
    ...(key ? { apiKey: key } : {}),
    ...(base ? { baseURL: base } : {}),
    ...(flags.timeoutMs ? { timeoutMs: flags.timeoutMs } : {}),
    ...(flags.retry ? { retry: flags.retry } : {}),
  };
  let provider: LlmProvider = kind === 'openai' ? new OpenAiProvider(common) : new AnthropicProvider(common);
  if (flags.recordLlm) provider = new RecordingProvider(provider, flags.recordLlm);
  const where = base ? ` at ${base}` : '';
  const auth = key ? `${KEY} set` : `no key, ${BASE} set`;
  return {
    provider,
    kind,
    model,
    ...(base ? { baseUrl: base } : {}),
    ...maxTokensOf(flags),
    reason: `LLM: ${kind} model ${model}${where} (${auth})${flags.mode === 'tools' ? ', tool mode' : ''}${flags.timeoutMs ? `, timeout ${flags.timeoutMs / 1000} s` : ''}${flags.recordLlm ? `, recording to ${flags.recordLlm}` : ''}`,
  };
}

/** What the fixer takes from the flags for every request: the output limit and the mode. */
function maxTokensOf(flags: LlmFlags): { maxTokens?: number; mode?: 'reply' | 'tools' } {
  return { ...(flags.maxTokens ? { maxTokens: flags.maxTokens } : {}), ...(flags.mode === 'tools' ? { mode: 'tools' as const } : {}) };
}

/**
 * The one module that imports `openai`. Speaks Chat Completions, so it works against OpenAI and
 * any OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio, ...) chosen by baseURL.
 */
// Types only here: the SDK itself is loaded on the first call, so a rules-only run never loads it.
import type OpenAI from 'openai';
import { LlmError, httpError } from './errors.js';
import { costOf } from './pricing.js';
import { DEFAULT_TIMEOUT_MS, NO_KEY, type ProviderOptions, retryPolicy } from './provider-common.js';
import { withRetry } from './retry.js';
import type { CallOptions, LlmMessage, LlmProvider, LlmRequest, LlmResponse, LlmToolCall } from './types.js';
import { parseToolInput } from './provider-common.js';

export interface OpenAiProviderOptions extends ProviderOptions {
  /**
   * Which output-length parameter to send. OpenAI's newer models want max_completion_tokens;
   * many compatible servers only know max_tokens. Default: max_completion_tokens for the
   * official API (no baseURL), max_tokens for a custom baseURL.
   */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /** Send temperature? Default: not for reasoning models (o1/o3/o4/gpt-5), which reject it. */
  sendTemperature?: boolean;
  /**
   * Send the request's cacheKey as `prompt_cache_key`? Default: only to the official API (no
   * baseURL); strict compatible servers may reject unknown fields.
   */
  sendCacheKey?: boolean;
}

const REASONING_MODEL = /^(o\d|gpt-5)/i;

export class OpenAiProvider implements LlmProvider {
  readonly provider = 'openai';
  readonly model: string;
  /** Function calling (Chat Completions `tools`); a compatible server without it answers 400, and the agent falls back to replies. */
  readonly tools = true;
  private sdk?: { SDK: typeof OpenAI; client: OpenAI };

  constructor(private readonly opts: OpenAiProviderOptions) {
    this.model = opts.model;
  }

  /** The SDK and its client, loaded and made on first use. */
  private async connect(): Promise<{ SDK: typeof OpenAI; client: OpenAI }> {
    if (!this.sdk) {
      const SDK = (await import('openai')).default;
      const opts = this.opts;
      this.sdk = { SDK, client: new SDK({
        apiKey: opts.apiKey || NO_KEY,
        baseURL: opts.baseURL || 'https://api.openai.com/v1',
        organization: null,
        project: null,
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxRetries: 0,
      }) };
    }
    return this.sdk;
  }

  async complete(req: LlmRequest, call: CallOptions = {}): Promise<LlmResponse> {
    const now = this.opts.now ?? Date.now;
    const started = now();
    const maxParam = this.opts.maxTokensParam ?? (this.opts.baseURL ? 'max_tokens' : 'max_completion_tokens');
    const sendTemp = this.opts.sendTemperature ?? !REASONING_MODEL.test(this.model);
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: [{ role: 'system', content: req.system }, ...req.messages.map(toOpenAi)],
      ...(req.tools?.length ? { tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })) } : {}),
      ...(maxParam === 'max_tokens' ? { max_tokens: req.maxTokens } : { max_completion_tokens: req.maxTokens }),
      ...(sendTemp ? { temperature: req.temperature } : {}),
      ...(req.cacheKey && (this.opts.sendCacheKey ?? !this.opts.baseURL) ? { prompt_cache_key: req.cacheKey } : {}),
    };
    const { value: completion, attempts } = await withRetry(async () => {
      const { SDK, client } = await this.connect();
      try {
        return await client.chat.completions.create(body, call.signal ? { signal: call.signal } : undefined);
      } catch (err) {
        throw toLlmError(err, SDK);
      }
    }, retryPolicy(this.opts), call.signal);

    const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
    const toolCalls: LlmToolCall[] = (choice?.message?.tool_calls ?? [])
      .filter((c): c is OpenAI.Chat.ChatCompletionMessageFunctionToolCall => c?.type === 'function')
      .map((c) => ({ id: c.id, name: c.function.name, ...parseToolInput(c.function.arguments) }));
    const text = choice?.message?.content ?? (toolCalls.length ? '' : undefined);
    if (typeof text !== 'string') {
      throw new LlmError('malformed-reply', `openai: the reply has no message content (finish_reason ${JSON.stringify(choice?.finish_reason ?? null)})`, { provider: 'openai', attempts });
    }
    const u = completion.usage;
    const usage = {
      inputTokens: u?.prompt_tokens ?? 0,
      outputTokens: u?.completion_tokens ?? 0,
      ...(u?.prompt_tokens_details?.cached_tokens ? { cacheReadTokens: u.prompt_tokens_details.cached_tokens } : {}),
    };
    const model = typeof completion.model === 'string' && completion.model ? completion.model : this.model;
    const cost = costOf(model, usage, this.opts.pricing);
    return {
      text,
      usage,
      model,
      provider: this.provider,
      costUsd: cost.costUsd,
      priced: cost.priced,
      latencyMs: now() - started,
      attempts,
      ...(choice?.finish_reason === 'length' ? { truncated: true } : {}),
      ...(toolCalls.length ? { toolCalls } : {}),
    };
  }
}

function toOpenAi(m: LlmMessage): OpenAI.Chat.ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.badInput ?? JSON.stringify(c.input) } })),
    };
  }
  return { role: m.role, content: m.content };
}

function toLlmError(err: unknown, OpenAI: typeof import('openai').default): unknown {
  // Before APIConnectionError: an abort is not a connection failure and must not be retried.
  if (err instanceof OpenAI.APIUserAbortError) return new LlmError('interrupted', 'openai: the call was interrupted', { provider: 'openai' });
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', `openai: request timed out`, { provider: 'openai' });
  if (err instanceof OpenAI.APIConnectionError) return new LlmError('connection', `openai: connection failed: ${err.message}`, { provider: 'openai' });
  if (err instanceof OpenAI.APIError) return httpError('openai', err.status, err.message, err.headers);
  if (err instanceof SyntaxError) return new LlmError('malformed-reply', `openai: the server's reply is not valid JSON: ${err.message}`, { provider: 'openai' });
  return err;
}

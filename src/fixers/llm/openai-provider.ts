/**
 * The one module that imports `openai`. Speaks Chat Completions, so it works against OpenAI and
 * any OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio, ...) chosen by baseURL.
 */
// Types only here: the SDK itself is loaded on the first call, so a rules-only run never loads it.
import type OpenAI from 'openai';
import { LlmError } from './errors.js';
import { onFirstUse, parseToolInput, type ProviderOptions, providerResponse, SdkProvider, sdkClientOptions, sendWithRetry, stopwatch } from './provider-common.js';
import type { CallOptions, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from './types.js';

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

export class OpenAiProvider extends SdkProvider<OpenAiProviderOptions> {
  readonly provider = 'openai';

  /** The SDK and its client, loaded and made on first use. */
  private readonly connect = onFirstUse(async () => {
    const SDK = (await import('openai')).default;
    return { SDK, client: new SDK({ ...sdkClientOptions(this.opts, 'https://api.openai.com/v1'), organization: null, project: null }) };
  });

  async complete(req: LlmRequest, call: CallOptions = {}): Promise<LlmResponse> {
    const elapsed = stopwatch(this.opts);
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
    const { value: completion, attempts } = await sendWithRetry(this.provider, this.opts, this.connect,
      (client, options) => client.chat.completions.create(body, options), call.signal);

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
    return providerResponse({ provider: this.provider, model: this.model, pricing: this.opts.pricing, elapsed },
      { text, usage, model: completion.model, attempts, truncated: choice?.finish_reason === 'length', toolCalls });
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

/**
 * The one module that imports `@anthropic-ai/sdk`. Messages API, with prompt caching: the system
 * block (instructions + reply contract, identical across calls) carries cache_control.
 */
// Types only here: the SDK itself is loaded on the first call, so a rules-only run never loads it.
import type Anthropic from '@anthropic-ai/sdk';
import { LlmError, httpError } from './errors.js';
import { costOf } from './pricing.js';
import { DEFAULT_TIMEOUT_MS, NO_KEY, type ProviderOptions, retryPolicy } from './provider-common.js';
import { withRetry } from './retry.js';
import type { CallOptions, LlmMessage, LlmProvider, LlmRequest, LlmResponse, LlmToolCall } from './types.js';
import { parseToolInput } from './provider-common.js';

export interface AnthropicProviderOptions extends ProviderOptions {
  /** Mark the system block for prompt caching (default true). */
  cacheSystem?: boolean;
  /**
   * Send `temperature`? Default false: the Messages API in this SDK generation no longer
   * declares it (deprecated), so it is only sent for servers that still want it.
   */
  sendTemperature?: boolean;
}

export class AnthropicProvider implements LlmProvider {
  readonly provider = 'anthropic';
  readonly model: string;
  /** Messages API tool use (`tool_use` / `tool_result` blocks). */
  readonly tools = true;
  private sdk?: { SDK: typeof Anthropic; client: Anthropic };

  constructor(private readonly opts: AnthropicProviderOptions) {
    this.model = opts.model;
  }

  /** The SDK and its client, loaded and made on first use. */
  private async connect(): Promise<{ SDK: typeof Anthropic; client: Anthropic }> {
    if (!this.sdk) {
      const SDK = (await import('@anthropic-ai/sdk')).default;
      const opts = this.opts;
      this.sdk = { SDK, client: new SDK({
        apiKey: opts.apiKey || NO_KEY,
        baseURL: opts.baseURL || 'https://api.anthropic.com',
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxRetries: 0,
      }) };
    }
    return this.sdk;
  }

  async complete(req: LlmRequest, call: CallOptions = {}): Promise<LlmResponse> {
    const now = this.opts.now ?? Date.now;
    const started = now();
    const system: Anthropic.TextBlockParam[] = [
      {
        type: 'text',
        text: req.system,
        ...(this.opts.cacheSystem === false ? {} : { cache_control: { type: 'ephemeral' as const } }),
      },
    ];
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      model: this.model,
      system,
      messages: toAnthropic(req.messages),
      ...(req.tools?.length ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })) } : {}),
      max_tokens: req.maxTokens,
      ...(this.opts.sendTemperature ? ({ temperature: req.temperature } as Record<string, number>) : {}),
    };
    const { value: msg, attempts } = await withRetry(async () => {
      const { SDK, client } = await this.connect();
      try {
        return await client.messages.create(body, call.signal ? { signal: call.signal } : undefined);
      } catch (err) {
        throw toLlmError(err, SDK);
      }
    }, retryPolicy(this.opts), call.signal);

    if (!msg || !Array.isArray(msg.content)) {
      throw new LlmError('malformed-reply', 'anthropic: the reply has no content blocks', { provider: 'anthropic', attempts });
    }
    const text = msg.content
      .filter((b: any) => b && b.type === 'text' && typeof b.text === 'string')
      .map((b: any) => b.text as string)
      .join('');
    const toolCalls: LlmToolCall[] = msg.content
      .filter((b: any) => b && b.type === 'tool_use')
      .map((b: any) => ({ id: String(b.id), name: String(b.name), ...parseToolInput(b.input) }));
    const u: any = msg.usage ?? {};
    const read = Number(u.cache_read_input_tokens ?? 0) || 0;
    const write = Number(u.cache_creation_input_tokens ?? 0) || 0;
    const usage = {
      inputTokens: (Number(u.input_tokens ?? 0) || 0) + read + write,
      outputTokens: Number(u.output_tokens ?? 0) || 0,
      ...(read ? { cacheReadTokens: read } : {}),
      ...(write ? { cacheWriteTokens: write } : {}),
    };
    const model = typeof msg.model === 'string' && msg.model ? msg.model : this.model;
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
      ...(msg.stop_reason === 'max_tokens' ? { truncated: true } : {}),
      ...(toolCalls.length ? { toolCalls } : {}),
    };
  }
}

/** Tool turns as Anthropic wants them: tool_use blocks in the assistant turn, all its tool_result blocks in ONE user turn after it. */
function toAnthropic(messages: LlmMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content };
      const prev = out[out.length - 1];
      if (prev && prev.role === 'user' && Array.isArray(prev.content) && prev.content.every((b) => b.type === 'tool_result')) prev.content.push(block);
      else out.push({ role: 'user', content: [block] });
    } else if (m.role === 'assistant' && m.toolCalls?.length) {
      out.push({ role: 'assistant', content: [
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...m.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input })),
      ] });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

function toLlmError(err: unknown, Anthropic: typeof import('@anthropic-ai/sdk').default): unknown {
  // Before APIConnectionError: an abort is not a connection failure and must not be retried.
  if (err instanceof Anthropic.APIUserAbortError) return new LlmError('interrupted', 'anthropic: the call was interrupted', { provider: 'anthropic' });
  if (err instanceof Anthropic.APIConnectionTimeoutError) return new LlmError('timeout', 'anthropic: request timed out', { provider: 'anthropic' });
  if (err instanceof Anthropic.APIConnectionError) return new LlmError('connection', `anthropic: connection failed: ${err.message}`, { provider: 'anthropic' });
  if (err instanceof Anthropic.APIError) return httpError('anthropic', err.status, err.message, err.headers);
  if (err instanceof SyntaxError) return new LlmError('malformed-reply', `anthropic: the server's reply is not valid JSON: ${err.message}`, { provider: 'anthropic' });
  return err;
}

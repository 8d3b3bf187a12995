/**
 * The one module that imports `@anthropic-ai/sdk`. Messages API, with prompt caching: the system
 * block (instructions + reply contract, identical across calls) carries cache_control.
 */
// Types only here: the SDK itself is loaded on the first call, so a rules-only run never loads it.
import type Anthropic from '@anthropic-ai/sdk';
import { LlmError } from './errors.js';
import { onFirstUse, parseToolInput, type ProviderOptions, providerResponse, SdkProvider, sdkClientOptions, sendWithRetry, stopwatch } from './provider-common.js';
import type { CallOptions, LlmMessage, LlmRequest, LlmResponse, LlmToolCall } from './types.js';

export interface AnthropicProviderOptions extends ProviderOptions {
  /** Mark the system block for prompt caching (default true). */
  cacheSystem?: boolean;
  /**
   * Send `temperature`? Default false: the Messages API in this SDK generation no longer
   * declares it (deprecated), so it is only sent for servers that still want it.
   */
  sendTemperature?: boolean;
}

export class AnthropicProvider extends SdkProvider<AnthropicProviderOptions> {
  readonly provider = 'anthropic';

  /** The SDK and its client, loaded and made on first use. */
  private readonly connect = onFirstUse(async () => {
    const SDK = (await import('@anthropic-ai/sdk')).default;
    return { SDK, client: new SDK(sdkClientOptions(this.opts, 'https://api.anthropic.com')) };
  });

  async complete(req: LlmRequest, call: CallOptions = {}): Promise<LlmResponse> {
    const elapsed = stopwatch(this.opts);
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
    const { value: msg, attempts } = await sendWithRetry(this.provider, this.opts, this.connect,
      (client, options) => client.messages.create(body, options), call.signal);

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
    return providerResponse({ provider: this.provider, model: this.model, pricing: this.opts.pricing, elapsed },
      { text, usage, model: msg.model, attempts, truncated: msg.stop_reason === 'max_tokens', toolCalls });
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

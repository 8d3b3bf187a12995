/**
 * The provider-neutral LLM interface. Everything above this layer (prompts, the agent loop,
 * record/replay, spend tracking) talks to `LlmProvider`; only the provider modules know an SDK.
 */

/**
 * One turn. Tool use (function calling) is provider-neutral here: an assistant turn may carry
 * `toolCalls`, and a `tool` turn answers one call by its id. The providers map these onto their
 * wire formats (OpenAI `tool_calls` / role `tool`; Anthropic `tool_use` / `tool_result` blocks).
 */
export interface LlmMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** assistant: the tools the model called in this turn. */
  toolCalls?: LlmToolCall[];
  /** tool: the call this turn answers. */
  toolCallId?: string;
}

export interface LlmToolCall {
  id: string;
  name: string;
  /** The arguments, parsed (a call whose arguments are not a JSON object has `{}` and `badInput`). */
  input: Record<string, unknown>;
  badInput?: string;
}

/** A tool the model may call: a name, what it does, and a JSON Schema of its arguments. */
export interface LlmTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LlmRequest {
  /** Stable instructions (role, constraints, reply contract): the part worth caching. */
  system: string;
  messages: LlmMessage[];
  maxTokens: number;
  temperature: number;
  /**
   * A key that groups requests sharing a prefix (e.g. one per notebook). OpenAI uses it as
   * `prompt_cache_key`; Anthropic caches the system block with cache_control regardless.
   */
  cacheKey?: string;
  /** Tools the model may call (only sent to providers with `tools: true`). */
  tools?: LlmTool[];
}

export interface LlmUsage {
  /** All prompt tokens, including those read from or written to the provider's cache. */
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the provider's cache (a subset of inputTokens). */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's cache (a subset of inputTokens). */
  cacheWriteTokens?: number;
}

export interface LlmResponse {
  text: string;
  usage: LlmUsage;
  /** The model that answered, as the server reported it. */
  model: string;
  /** 'openai' | 'anthropic' | 'replay' | ... */
  provider: string;
  costUsd: number;
  /** false when the model is not in the pricing table (costUsd is then 0). */
  priced: boolean;
  latencyMs: number;
  /** Attempts made for this call (1 = no retry). */
  attempts: number;
  /** The model stopped because it hit maxTokens (the reply is probably cut off). */
  truncated?: boolean;
  /** The tools the model called (tool mode); `text` is then whatever it said alongside. */
  toolCalls?: LlmToolCall[];
}

/** Per-call options that are not part of the request (never recorded or hashed). */
export interface CallOptions {
  /**
   * Aborts the call: the in-flight HTTP request (the SDKs' own abort support) and any backoff
   * wait between retries. The call then fails with LlmError('interrupted').
   */
  signal?: AbortSignal;
}

export interface LlmProvider {
  /** 'openai' | 'anthropic' | ... — recorded in Patch.source. */
  readonly provider: string;
  /** The model requested. */
  readonly model: string;
  /** Speaks tool calls (function calling); the tool-using agent mode needs it. */
  readonly tools?: boolean;
  complete(req: LlmRequest, opts?: CallOptions): Promise<LlmResponse>;
}

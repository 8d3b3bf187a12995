/** The LLM side of the fixers: providers, costs, record/replay, prompts, reply contract, validation. */
export type { CallOptions, LlmMessage, LlmProvider, LlmRequest, LlmResponse, LlmTool, LlmToolCall, LlmUsage } from './types.js';
export { LlmError, isLlmError, type LlmErrorKind } from './errors.js';
export { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.js';
export { PRICING, PRICING_AS_OF, costOf, priceFor, worstCaseCost, type ModelPrice, type PricingTable } from './pricing.js';
export { MeteredProvider, SpendTracker, emptySpend, sumSpend, type SpendSummary, type SpendTrackerOptions } from './spend.js';
export { OpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';
export type { ProviderOptions } from './provider-common.js';
export { RecordingProvider, ReplayProvider, readRecording, requestHash, type RecordEntry } from './record-replay.js';
export { DEFAULT_MODELS, providerFromEnv, type Env, type LlmFlags, type ProviderChoice } from './factory.js';
export { parseReply, type ParseReplyOptions, type ParsedReply, type ReplyFormat } from './reply-parser.js';
export {
  applyPatchEdits, contentProblems, syntaxProblems, validatePatch, validationReflection,
  type Problem, type ProblemKind, type ValidateOptions, type ValidationResult,
} from './patch-validator.js';
export {
  DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, MAX_REFLECTIONS, REPLY_CONTRACT, TOOL_CONTRACT, buildRequest, systemPrompt, userMessage, withReflection,
  type PromptInput,
} from './prompts.js';
export { proposePatch, type ProposeCall, type ProposeInput, type ProposeResult } from './llm-fixer.js';
export { codeCellIndices, deletedReason, patchedOrder, structureProblems, withPatchedSources } from './structure.js';
export { DEFAULT_TOOL_BUDGETS, NOTEBOOK_TOOLS, editsFromTool, proposeWithTools, type ToolBudgets, type ToolHandlers, type ToolProposeInput, type ToolProposeResult, type ToolStep } from './tool-agent.js';

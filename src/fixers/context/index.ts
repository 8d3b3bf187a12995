/** Curated context for LLM fixes: dependency cells (from python/defuse.ts), data previews, token-bounded prompt sections. */
export { dependencyCells, type Dependency, type DependencyResult } from './dependencies.js';
export { previewDataDir, type DataFilePreview, type PreviewOptions } from './data-files.js';
export { CHARS_PER_TOKEN, estimateTokens, stripAnsi, trimMiddle, trimTraceback, type TrimOptions } from './text.js';
export {
  MODULE_DISTRIBUTIONS, buildContext, formatVariable, stateOf,
  type AttemptSummary, type BuiltContext, type ContextInput, type ContextSection, type ResultTarget,
} from './builder.js';

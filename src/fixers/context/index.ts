/** Curated context for LLM fixes: def-use analysis, data previews, token-bounded prompt sections. */
export { analyzeCell, analyzeNotebook, dependencyCells, PY_BUILTINS, type CellDefUse, type Dependency, type DependencyResult, type ImportRecord, type NotebookDefUse } from './defuse.js';
export { maskIpython, logicalLineStarts, type MaskResult, type MaskedLine } from './ipython.js';
export { previewDataDir, type DataFilePreview, type PreviewOptions } from './data-files.js';
export { CHARS_PER_TOKEN, estimateTokens, stripAnsi, trimMiddle, trimTraceback, type TrimOptions } from './text.js';
export {
  MODULE_DISTRIBUTIONS, buildContext, formatVariable, stateOf,
  type AttemptSummary, type BuiltContext, type ContextInput, type ContextSection, type ResultTarget,
} from './builder.js';

/**
 * Library entry points of the deterministic rule engine (zero LLM calls):
 *  - scanNotebook: static findings, like a linter;
 *  - fixNotebook: apply every safe rule until nothing changes; a new notebook plus patches;
 *  - rulesForError: candidate patches for one failing cell, picked by the error's signature;
 *  - pinDefaults: score-calibration patches that pin the old defaults the notebook's era relied on.
 */
import type { Notebook } from '../../core/notebook.js';
import { toLines } from '../../core/notebook.js';
import type { Finding, FixType, Patch } from '../../core/patch.js';
import { ALL_RULES } from './registry.js';
import { applyChanges, fixCells, parseNotebookCells, disposeCells, scanCells, EMPTY_ENVIRONMENT, type CellChange, type EngineOptions } from './engine.js';
import type { EnvironmentInfo } from './context.js';
import { loadEnvironmentInfo } from './environment-info.js';
import type { Rule } from './types.js';

export type { Rule, Fixture, Library, ErrorSignature, EraHint } from './types.js';
export type { EngineOptions } from './engine.js';
export { ALL_RULES, ruleById } from './registry.js';
export { loadEnvironmentInfo, environmentVersions } from './environment-info.js';
export { codeOf, findRule, parseSelectors, ruleFilter, type RuleSelection } from './selection.js';
export { ruleInfo, versionNote, kindNote, type RuleInfo } from './catalog.js';

export type RuleOptions = EngineOptions;

let defaultEnvironment: Promise<EnvironmentInfo> | undefined;

/** Fill in the environment facts (debian13 by default) when the caller did not pass them. */
async function withDefaults(opts: RuleOptions): Promise<RuleOptions> {
  if (opts.environment) return opts;
  defaultEnvironment ??= loadEnvironmentInfo('debian13').catch(() => EMPTY_ENVIRONMENT);
  return { ...opts, environment: await defaultEnvironment };
}

export type RuleFinding = Finding & { link: string };

export async function scanNotebook(nb: Notebook, options: RuleOptions = {}): Promise<RuleFinding[]> {
  return (await scanNotebookReport(nb, options)).findings;
}

/** Findings, and apart from them those that the cells' `# nbmodernize: ignore` comments silence. */
export async function scanNotebookReport(nb: Notebook, options: RuleOptions = {}): Promise<{ findings: RuleFinding[]; suppressed: RuleFinding[] }> {
  const opts = await withDefaults(options);
  const cells = await parseNotebookCells(nb);
  try {
    const { findings, suppressed } = await scanCells(nb, cells, opts.rules ?? ALL_RULES, opts);
    return { findings, suppressed };
  } finally {
    disposeCells(cells);
  }
}

export interface FixNotebookResult {
  notebook: Notebook;
  /** One patch per changed cell (replace op with the new source), in cell order. */
  patches: Patch[];
  /** Findings left in the rewritten notebook (report-only ones, with explanations for the LLM stage). */
  findings: RuleFinding[];
  /** Findings in the input notebook, before rewriting. */
  originalFindings: RuleFinding[];
  /** Findings in the input notebook silenced by `# nbmodernize: ignore` comments (not applied). */
  suppressed: RuleFinding[];
  /** Per changed cell: old and new source and the rules that changed it. */
  changes: CellChange[];
}

export async function fixNotebook(nb: Notebook, options: RuleOptions = {}): Promise<FixNotebookResult> {
  const opts = await withDefaults(options);
  const res = await fixCells(nb, opts.rules ?? ALL_RULES, opts);
  const notebook = applyChanges(nb, res.changes, toLines);
  return {
    notebook,
    patches: res.changes.map(changeToPatch),
    findings: res.remaining,
    originalFindings: res.original,
    suppressed: res.suppressed,
    changes: res.changes,
  };
}

function changeToPatch(ch: CellChange): Patch {
  return {
    fixType: ch.fixType,
    source: { kind: 'rule', ruleIds: ch.rules },
    edits: [{ cell: ch.cell, op: 'replace', newSource: ch.after }],
    summary: `cell ${ch.cell}: ${ch.rules.join(', ')}`,
  };
}

export interface CellErrorInfo {
  ename: string;
  evalue: string;
  traceback?: string[];
}

/** Rules whose error signatures match this error (SyntaxError matches every syntax rule). */
export function rulesMatchingError(error: CellErrorInfo, rules: readonly Rule[] = ALL_RULES): Rule[] {
  return rules.filter((r) => r.errors.some((s) => sameException(s.ename, error.ename) && s.pattern.test(error.evalue ?? '')));
}

function sameException(sig: string, actual: string): boolean {
  if (sig === actual) return true;
  // ModuleNotFoundError is an ImportError; IndentationError/TabError are SyntaxErrors.
  if (sig === 'ImportError' && actual === 'ModuleNotFoundError') return true;
  if (sig === 'SyntaxError' && (actual === 'IndentationError' || actual === 'TabError')) return true;
  return false;
}

/**
 * Candidate patches for a failing cell: first the rules whose error signature matches (including
 * rules recognised from runtime errors only), combined; then any other rule that finds something to
 * fix statically in that cell. Each patch replaces the cell's source; its `source.ruleIds` say which
 * rules produced it. Empty when no rule applies.
 */
export async function rulesForError(nb: Notebook, cellIndex: number, error: CellErrorInfo, options: RuleOptions = {}): Promise<Patch[]> {
  const opts = await withDefaults(options);
  const all = opts.rules ?? ALL_RULES;
  const kinds: FixType[] = [...(opts.kinds ?? ['error-repair'])];
  const matching = rulesMatchingError(error, all).filter((r) => kinds.includes(r.kind));
  const patches: Patch[] = [];
  const seen = new Set<string>();
  const tryRules = async (rules: readonly Rule[], why: string) => {
    if (!rules.length) return;
    const res = await fixCells(nb, all, { ...opts, kinds, ruleIds: rules.map((r) => r.id), includeErrorTriggered: true });
    const ch = res.changes.find((c) => c.cell === cellIndex);
    // Other cells' changes only from rules whose message identifies every occurrence (errorScope).
    const wide = new Set(rules.filter((r) => r.errorScope === 'notebook').map((r) => r.id));
    const elsewhere = res.changes.filter((c) => c.cell !== cellIndex && c.rules.length > 0 && c.rules.every((id) => wide.has(id)));
    const changes = [...(ch ? [ch] : []), ...elsewhere].sort((a, b) => a.cell - b.cell);
    const key = changes.map((c) => `${c.cell}:${c.after}`).join('\0');
    if (!changes.length || seen.has(key)) return;
    seen.add(key);
    const ruleIds = [...new Set(changes.flatMap((c) => c.rules))];
    patches.push({
      fixType: changes[0].fixType,
      source: { kind: 'rule', ruleIds },
      edits: changes.map((c) => ({ cell: c.cell, op: 'replace' as const, newSource: c.after })),
      summary: `${why}: ${ruleIds.join(', ')}${elsewhere.length ? ` (cell${changes.length > 1 ? 's' : ''} ${changes.map((c) => c.cell).join(', ')})` : ''}`,
    });
  };
  await tryRules(matching, `${error.ename} matches`);
  const others = all.filter((r) => kinds.includes(r.kind) && r.trigger !== 'error');
  await tryRules(others, 'static rules for this cell');
  return patches;
}

/** Score-calibration patches: pin the defaults the notebook's era relied on (when the era is known to predate the change). */
export async function pinDefaults(nb: Notebook, options: RuleOptions = {}): Promise<Patch[]> {
  const opts = await withDefaults(options);
  const res = await fixCells(nb, opts.rules ?? ALL_RULES, { ...opts, kinds: ['score-calibration'] });
  return res.changes.map(changeToPatch);
}

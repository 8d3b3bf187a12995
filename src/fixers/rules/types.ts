/**
 * The rule model: a rule is data (what changed, where, since which version, how it fails) plus a
 * structural matcher over the tree-sitter parse tree of one cell. Matchers never run regular
 * expressions over source text; they look at nodes (and may test a node's own text once matched).
 */
import type { SyntaxNode } from '../python/parser.js';
import type { FixType } from '../../core/patch.js';
import type { CellContext, DataFacts, NotebookContext } from './context.js';

export type Library =
  | 'python'
  | 'numpy'
  | 'pandas'
  | 'scikit-learn'
  | 'matplotlib'
  | 'seaborn'
  | 'xgboost'
  | 'scipy'
  | 'statsmodels'
  /** Imports of libraries that are not in the environment. */
  | 'environment'
  /** Data file paths. */
  | 'data';

export const LIBRARIES: readonly Library[] = [
  'python', 'numpy', 'pandas', 'scikit-learn', 'matplotlib', 'seaborn', 'xgboost', 'scipy', 'statsmodels',
  'environment', 'data',
];

/** An exception a cell raises when it hits the old form (used to pick rules for a failing cell). */
export interface ErrorSignature {
  /** Exception class name as the kernel reports it (`ename`), e.g. "AttributeError". */
  ename: string;
  /** Tested against `evalue` (the message). */
  pattern: RegExp;
}

import type { TextEdit } from '../python/edits.js';

export type { TextEdit };

export interface RuleMatch {
  /** Where the finding is reported (line/column of its start). */
  node: SyntaxNode;
  /** Overrides the rule's default message (e.g. to explain why this occurrence is not auto-fixable). */
  message?: string;
  /** The rewrite; absent or empty means "report only". */
  edits?: TextEdit[];
}

/**
 * A before/after example. Unit tests run the engine on `before` and expect `after` (or no change
 * when `after` is absent); the sandbox test executes both in the fixed kernel.
 */
export interface Fixture {
  /** Old code. Must fail in the fixed environment (or, with `beforeOutcome: 'differs'`, print something else). */
  before: string;
  /** What the engine must turn `before` into. Absent: the rule only reports (not auto-fixable here). */
  after?: string;
  /** For report-only fixtures: a hand-written fix along the finding's advice, executed in the sandbox. */
  manual?: string;
  /** Exact stdout (trimmed) of `after` (or `manual`) in the fixed kernel. */
  expect: string;
  /** 'error' (default): `before` raises. 'differs': `before` runs but prints something other than `expect`. */
  beforeOutcome?: 'error' | 'differs';
  /** Expected exception class of `before` (checked in the sandbox test when given). */
  beforeError?: string;
  /** Engine options for this fixture (notebook-level context). */
  context?: FixtureContext;
  /** Extra cells executed before the snippet in the sandbox (e.g. to create a file); not rewritten. */
  sandboxSetup?: string;
  /** Why this fixture is not executed in the sandbox (e.g. needs network); the unit rewrite is still checked. */
  noSandbox?: string;
}

export interface FixtureContext {
  pythonMajor?: 2 | 3;
  /** Notebook era: library versions the author used, or the date it was written. */
  era?: EraHint;
  /** Data file names the competition provides. */
  dataFiles?: string[];
  /** Facts about those files (evidence-gated pins). */
  dataFacts?: DataFacts;
  /** The runtime error the fixture's `before` raises, for rules fired by runtime evidence. */
  runtime?: { ename: string; evalue: string; /** the failing line(s) of the fixture's one cell, 1-based, as the traceback names them */ lines?: number[]; /** traceback lines, for rules that read the library frames */ traceback?: string[] };
}

export interface EraHint {
  /** ISO date the notebook was written (e.g. the commit date). */
  date?: string;
  /** Library versions the author used, keyed like Library ("scikit-learn": "0.19.1"). */
  versions?: Partial<Record<Library, string>>;
  /** Evidence that a library was older than a version (e.g. read from the stored outputs). */
  bounds?: Partial<Record<Library, EraBound>>;
  /**
   * Where nothing tells the era, treat the notebook as older than the change: the pins become
   * candidates, each kept only if the stored outputs agree with its run (verified pins). Evidence
   * that the notebook is newer than a change still rules that pin out.
   */
  unknownAsOld?: boolean;
  /**
   * How the author's IPython shell was configured, as the stored outputs show it (settings of a
   * profile, never in the notebook). `displayAll`: the reason to believe every expression statement's
   * value was displayed (`ast_node_interactivity = 'all'`).
   */
  shell?: { displayAll?: string };
}

/** The notebook's `lib` is known to be older than `version`, because of `reason`. */
export interface EraBound {
  version: string;
  reason: string;
}

/** Pre-filters besides identifier triggers (see Rule.gate). */
export interface RuleGate {
  /** Node types (indexed ones, tree.ts INDEXED_TYPES, or ERROR / MISSING) of which the cell must have at least one: `print_statement`. */
  nodeTypes?: readonly string[];
  /** Values of plain string literals of which the cell must have at least one: `'mse'` in a parameter grid. */
  literals?: readonly string[];
  /**
   * Text at least one piece of which the cell's source must contain (a node whose text holds it):
   * '`' for backticks; a pattern where a fixed piece is too common (`ur` is in every `return`).
   */
  source?: ReadonlyArray<string | RegExp>;
  /**
   * Identifiers the notebook binds to what the rule follows (a name assigned a path, an old CV
   * iterator), computed once per notebook; a cell holding one of them runs the rule.
   */
  notebookTriggers?(nb: NotebookContext): Iterable<string>;
}

export interface Rule {
  /** Stable id, `<library-prefix>-<what>`, used in findings, metadata and docs. */
  id: string;
  library: Library;
  /** One-line human title. */
  title: string;
  /** The old form (short code), for docs and messages. */
  old: string;
  /** The new form. */
  new: string;
  kind: FixType;
  /** Library version in which the old form stopped working (error-repair rules). */
  removedIn?: string;
  /** Library version in which the default changed (score-calibration rules). */
  changedIn?: string;
  /**
   * Version of a later release whose fix the rule brings forward into the environment (a
   * score-calibration that restores what the author's run computed, not an old default); never a gate.
   */
  fixedIn?: string;
  /** Optional: version that first deprecated it (informational). */
  deprecatedIn?: string;
  /** Exceptions the old form raises in the fixed environment. */
  errors: ErrorSignature[];
  /** Changelog / release-notes entry. */
  link: string;
  /** Whether the rule rewrites (some matches of an auto-fixable rule may still be report-only). */
  autoFixable: boolean;
  /**
   * 'static' (default): scanned and fixed without running anything. 'error': the old form can only be
   * recognised from a runtime error (data-dependent); proposed by rulesForError only.
   */
  trigger?: 'static' | 'error';
  /**
   * Error-triggered rules: 'cell' (default) keeps the repair to the cells the traceback names;
   * 'notebook' also keeps its matches in other cells, for rules whose runtime message identifies
   * every occurrence wherever it is (the class and parameter named by scikit-learn's validation): the
   * estimator built in one cell fails in the cell that fits it, and its siblings would fail next.
   */
  errorScope?: 'cell' | 'notebook';
  /** Default finding message. */
  message: string;
  /**
   * Identifier texts at least one of which must occur in a cell for the rule to match there (a fast
   * pre-filter; keyword names, attribute names and import path parts are identifiers). Absent: always run.
   */
  triggers?: readonly string[];
  /**
   * More pre-filters (dispatch.ts), for rules whose matches need no particular identifier. A cell runs
   * a rule that has any pre-filter only when it satisfies at least one of them; each must therefore be
   * exact or over-approximate (never false where the rule could match). Absent, with no triggers:
   * the rule runs on every cell.
   */
  gate?: RuleGate;
  /**
   * The rule inserts a shim after an import (import-shim.ts): it acts on a library's behaviour
   * wherever the notebook calls it, so another rule's fixture that calls it would grow the shim too;
   * fixtures of other rules are rewritten without such rules (each has fixtures of its own).
   */
  shim?: boolean;
  /** The rule rewrites IPython syntax itself (masked ranges); other rules never touch it. */
  editsIPython?: boolean;
  fixtures: Fixture[];
  find(ctx: CellContext): Iterable<RuleMatch>;
}

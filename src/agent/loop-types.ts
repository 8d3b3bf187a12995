/**
 * What the loop is given and what it gives back (loop.ts): the notebook, the environment and the
 * fixers passed in, mini-swe-agent style, so tests can substitute every one of them.
 */
import type { Notebook } from '../core/notebook.js';
import type { RunResult } from '../core/run-result.js';
import type { RuleFinding } from '../fixers/rules/index.js';
import type { Budgets } from './budgets.js';
import type { Stop } from './decisions.js';
import type { Environment } from './environment.js';
import type { Fixer } from './fixers.js';
import type { VerifyLimits } from './generate-verify.js';
import type { OracleVerdict } from './oracle/index.js';
import type { ExpectedTarget } from './verdict.js';

export interface LoopInput {
  original: Notebook;
  /** The notebook after the static pass. */
  work: Notebook;
  environment: Environment;
  fixers: Fixer[];
  budgets: Budgets;
  /** LLM money spent so far for this notebook (the spend cap is also enforced before each call). */
  spentUsd: () => number;
  startedAt: number;
  incremental: boolean;
  verifyLimits: VerifyLimits;
  /** The stored outputs (or the expected score) against a run's; the submission comes from the environment. */
  judge: (executed: Notebook, submission: string | undefined) => OracleVerdict;
  expected?: ExpectedTarget;
  tolerance?: number;
  forbiddenPaths: string[];
  /** Why a problem no fixer addressed cannot be fixed (see decisions.stuckStop). */
  stuck: { findings: readonly RuleFinding[]; project?: { files: string[]; dir: string }; dataFiles: readonly string[]; hasData: boolean; llm: { enabled: boolean; reason: string } };
  /** Code cells the author never ran (stored-errors.neverRunByAuthor): their unrepaired errors are excused. */
  neverRun?: ReadonlySet<number>;
  /** Cells the author ran but did not finish (stored-errors.unfinishedByAuthor): excused the same way. */
  unfinished?: ReadonlySet<number>;
  signal?: AbortSignal;
}

export interface LoopOutcome { work: Notebook; runOrder?: number[]; final?: { run: RunResult; executed: Notebook }; stop: Stop }

/**
 * A fixer looks at one diagnosed problem and proposes: one patch, candidates to try (generate
 * and verify: the loop runs each and keeps the one `accept` allows), or a stop (the model failed
 * or the budget refused its call). The loop asks its fixers in order (rules, then the LLM) and
 * takes the first proposal that yields a fix.
 */
import type { Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import type { StopReason } from '../core/modernize-report.js';
import type { AttemptSummary } from '../fixers/context/index.js';
import type { Diagnosis } from './diagnosis.js';
import type { Environment, RunState } from './environment.js';
import type { Emit } from './events.js';
import type { Candidate, TrialOutcome } from './generate-verify.js';
import type { OracleVerdict } from './oracle/index.js';

export type FixDiagnosis = Extract<Diagnosis, { kind: 'fix' }>;

export interface Problem {
  diagnosis: FixDiagnosis;
  step: number;
  notebook: Notebook;
  state: RunState;
  runOrder?: number[];
  /** The same problem came back after a patch: rules had their turn, the LLM rethinks. */
  escalate: boolean;
  attempts: readonly AttemptSummary[];
  /** Not tried before and changes something. */
  isNew: (c: Candidate) => boolean;
  /** The stored outputs against a run's (values known to be nondeterministic excused). */
  oracle: (s: RunState) => OracleVerdict;
  environment: Environment;
  emit: Emit;
  /** Run a patch in the live kernel without keeping it (the tool mode's try_patch). */
  trial?: (patch: Patch) => Promise<{ state: RunState; verdict: OracleVerdict }>;
}

export type Proposal =
  | { kind: 'patch'; patch: Patch }
  | { kind: 'candidates'; candidates: Candidate[]; rank: (s: RunState, fromCell: number, cellExecutions: number, candidate: Candidate) => TrialOutcome; accept: (o: TrialOutcome) => boolean }
  | { kind: 'stop'; reason: StopReason; detail: string };

export interface Fixer {
  readonly name: string;
  propose(problem: Problem): Promise<Proposal | undefined>;
}

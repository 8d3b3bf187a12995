/** Messages between the audit coordinator and its worker processes (Node IPC, JSON). */
import type { SandboxRequest } from '../../executor/types.js';
import type { Budgets } from '../budgets.js';
import type { JobProgress } from './baseline.js';
import type { AuditJob } from './jobs.js';
import type { AuditRecord } from './record.js';

export interface WorkerConfig {
  auditDir: string;
  mode: 'baseline' | 'fix';
  /** The audit-wide sandbox request (backend, memory per job); each job adds its data. */
  sandbox: SandboxRequest;
  /** Start the next notebook's sandbox while the current one runs. */
  prestart: boolean;
  /**
   * bwrap: keep one Jupyter server per worker and give each notebook a lease on it (its own
   * working dir and kernel namespace) instead of a sandbox of its own; see sandbox-warm.ts.
   */
  warm: boolean;
  fix?: {
    /** Only the LLM-related variables (keys, base URLs) of the coordinator's environment. */
    llmEnv: Record<string, string | undefined>;
    llmFlags: { llm?: string; noLlm?: boolean; model?: string; baseUrl?: string; replayLlm?: string; timeoutMs?: number; maxTokens?: number; mode?: string };
    /** Per notebook, as for `modernize`: the agent enforces them (the spend cap before each call). */
    budgets: Partial<Budgets>;
  };
}

export type ToWorker =
  | { type: 'init'; config: WorkerConfig }
  /** Run `job`; `next` is what this worker will most likely get afterwards (start its sandbox early). */
  | { type: 'run'; job: AuditJob; next?: AuditJob }
  /** The hinted next job went elsewhere: stop its pre-started sandbox. */
  | { type: 'drop-next' }
  | { type: 'abort' };

export type FromWorker =
  | { type: 'ready'; pid: number }
  | { type: 'progress'; id: string; progress: JobProgress }
  | { type: 'done'; id: string; record: AuditRecord }
  | { type: 'interrupted'; id: string }
  | { type: 'fatal'; message: string };

/** What a worker needs from its process: injected by src/cli, which owns process I/O. */
export interface WorkerChannel {
  send(msg: FromWorker): void;
  onMessage(fn: (msg: ToWorker) => void): void;
  /** The coordinator went away (exited, crashed, was killed). */
  onDisconnect(fn: () => void): void;
}

/** Delivery settings derived from the per-notebook budget, and what a worker accepts. */
import type { QueueRunOptions } from './payload.js';

export interface LockTiming {
  /** How long a job's lock lasts without renewal; the worker renews it every half of this. */
  lockDurationMs: number;
  /** How often workers look for jobs whose lock expired (their worker died). */
  stalledIntervalMs: number;
}

/**
 * The lock is renewed while the worker lives, so it need not cover the whole notebook; it only
 * bounds how long a dead worker's job waits before another takes it. A twentieth of the budget
 * (10 s to 60 s): long enough that a busy event loop (packing a large artifact) never loses a
 * lock, short enough that a killed worker's notebook restarts well within its own budget.
 */
export function lockTiming(budgetS: number): LockTiming {
  const lockDurationMs = Math.round(Math.min(60_000, Math.max(10_000, (budgetS * 1000) / 20)));
  return { lockDurationMs, stalledIntervalMs: Math.round(lockDurationMs / 2) };
}

/** Sandbox backends that give a notebook more than the bwrap/docker sandbox: no isolation, or a remote server. */
const WIDE = new Set(['host', 'remote']);

/** Why this worker must not run a job with these options, or undefined. */
export function refusal(options: QueueRunOptions, allowWide: boolean): string | undefined {
  if (!allowWide && WIDE.has(options.sandbox.kind)) {
    return `the job asks for the ${options.sandbox.kind} sandbox, which widens what the notebook can reach; this worker was not started with --allow-wide-sandbox`;
  }
  return undefined;
}

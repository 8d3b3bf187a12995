/** Delivery settings derived from the per-notebook budget, and what a worker accepts. */
import type { QueueJobData, QueueRunOptions } from './payload.js';

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

const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const JOB_ID = /^nb-[0-9a-f]{40}$/;

/**
 * Whatever can write to the queue can write a job: names that become paths on the worker must
 * stay inside its folders (a slug of "../.." would mount any host directory), and nothing may
 * point the worker at its own files (a ground truth by path).
 */
export function malformed(id: string, data: QueueJobData): string | undefined {
  if (!JOB_ID.test(id)) return `job id "${id}" is not one the coordinator makes`;
  if (!data.name || data.name !== data.name.replace(/[\\/]/g, '') || data.name.startsWith('.')) return 'the notebook name is not a plain file name';
  if (data.data && !SLUG.test(data.data.competition)) return `competition "${data.data.competition}" is not a plain slug`;
  if (data.data?.exclude?.some((e) => !SLUG.test(e))) return 'a data exclusion is not a plain file name';
  if (data.expected && typeof data.expected.groundTruth === 'string') return 'the ground truth must travel in the job, not as a path';
  return undefined;
}

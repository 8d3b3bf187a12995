/**
 * How many notebooks may run at once and how much memory each sandbox gets: the memory that is
 * available now (not the total), minus headroom for the host and our own processes, split evenly.
 * N sandboxes can then never together ask for more than the machine has; a notebook that wants
 * more is OOM-killed inside its own sandbox (kernel death) instead of taking the host down.
 */
export const MIN_JOB_MB = 1024;
export const MAX_JOB_MB = 16384;
/** The host, the audit process and page cache we should not evict. */
const HOST_RESERVE_MB = 768;
/** Per job: its worker process (Node) and a pre-started Jupyter server waiting for the next notebook. */
const PER_JOB_OVERHEAD_MB = 300;

export interface MemoryPlan {
  jobs: number;
  memoryMb: number;
  /** Set when the plan differs from what was asked (fewer jobs, a smaller --memory). */
  note?: string;
}

export function planMemory(opts: { jobs: number; freeBytes: number; totalBytes: number; requestedMb?: number }): MemoryPlan {
  const freeMb = Math.floor(opts.freeBytes / 2 ** 20);
  const usable = Math.max(0, Math.floor(freeMb * 0.9) - HOST_RESERVE_MB);
  const share = (n: number) => Math.floor(usable / n) - PER_JOB_OVERHEAD_MB;
  let jobs = Math.max(1, Math.floor(opts.jobs));
  const notes: string[] = [];
  while (jobs > 1 && share(jobs) < MIN_JOB_MB) jobs -= 1;
  if (jobs < opts.jobs) notes.push(`running ${jobs} at once instead of ${opts.jobs}: ${freeMb} MiB available gives each fewer than ${MIN_JOB_MB} MiB`);
  let memoryMb = Math.min(MAX_JOB_MB, Math.max(share(jobs), 256));
  if (opts.requestedMb !== undefined) {
    if (opts.requestedMb > memoryMb) notes.push(`--memory ${opts.requestedMb} lowered to ${memoryMb} MiB per notebook (${jobs} at once, ${freeMb} MiB available)`);
    memoryMb = Math.min(memoryMb, opts.requestedMb);
  }
  return { jobs, memoryMb, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

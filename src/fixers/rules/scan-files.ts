/**
 * Scan many notebook files, as a linter does: across a pool of worker threads in this process
 * (ruff scans files in parallel the same way). One thread parses and matches one notebook at a
 * time; scanning is CPU work with no shared state between notebooks, so N threads scan about N
 * times as many notebooks a second. Results come back in the order of the files, whichever thread
 * finished first. Few files (or `jobs` 1) are scanned here, in this thread: a thread pays for
 * loading the rules, compiling the parser's WASM and warming up the JIT (0.4 to 1 s on a 2-core
 * machine, the time to scan 30 to 60 notebooks) before its first notebook; and each thread needs
 * a core for itself and part of another, which V8's garbage collector and compiler use beside it
 * (a scan in one thread keeps about 1.4 cores busy).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../core/errors.js';
import { notebookKernel, parseNotebook } from '../../core/notebook.js';
import { scanNotebookReport, type RuleFinding, type RuleOptions } from './index.js';

export interface ScanTask {
  /** The notebook's path (resolved against `cwd`); reported as given. */
  file: string;
  /** Options for this file on top of the shared ones (e.g. another competition's data files). */
  options?: RuleOptions;
}

export interface ScanFileResult {
  file: string;
  findings?: RuleFinding[];
  suppressed?: RuleFinding[];
  /** Why the file could not be scanned (unreadable, not a notebook, not Python). */
  error?: string;
  /** Time spent on this file, in the thread that scanned it. */
  ms: number;
}

export interface ScanPoolOptions {
  /** Threads (1: scan in this thread). */
  jobs: number;
  cwd: string;
  /** Below this many files a pool does not pay for its start (default 200; see above). */
  minFilesForPool?: number;
}

/** Read, check and scan one notebook file; never throws (a bad file is a result with an error). */
export async function scanFile(task: ScanTask, shared: RuleOptions, cwd: string): Promise<ScanFileResult> {
  const t0 = performance.now();
  const { file } = task;
  try {
    let raw: string;
    try {
      raw = fs.readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${file}: ${errorMessage(e)}`);
    }
    const { notebook } = parseNotebook(raw, file);
    notebookKernel(notebook, file);
    const { findings, suppressed } = await scanNotebookReport(notebook, task.options ? { ...shared, ...task.options } : shared);
    return { file, findings, suppressed, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    return { file, error: errorMessage(err), ms: Math.round(performance.now() - t0) };
  }
}

/** What a worker is sent: the shared options once (workerData), then one task per message. */
export interface WorkerInit { shared: RuleOptions; cwd: string }
export type WorkerReply = { index: number; result: ScanFileResult };

/** Scan the files, yielding each result in file order. */
export async function* scanFiles(tasks: readonly ScanTask[], shared: RuleOptions, pool: ScanPoolOptions): AsyncGenerator<ScanFileResult> {
  const jobs = Math.max(1, Math.min(pool.jobs, tasks.length));
  if (jobs === 1 || tasks.length < (pool.minFilesForPool ?? 200)) {
    for (const t of tasks) yield await scanFile(t, shared, pool.cwd);
    return;
  }
  yield* scanInWorkers(tasks, shared, pool.cwd, jobs);
}

async function* scanInWorkers(tasks: readonly ScanTask[], shared: RuleOptions, cwd: string, jobs: number): AsyncGenerator<ScanFileResult> {
  const done = new Map<number, ScanFileResult>();
  /** Tasks a thread took and never answered because it could not start: scanned here instead. */
  const orphaned = new Set<number>();
  let next = 0; // next task to hand out
  let wake: (() => void) | undefined;
  const workers = new Set<Worker>();
  const poke = () => wake?.();
  const start = () => {
    const w = new Worker(new URL('./scan-worker.js', import.meta.url), { workerData: { shared, cwd } satisfies WorkerInit });
    workers.add(w);
    let current = -1;
    let replied = false;
    const feed = () => {
      if (next >= tasks.length) {
        workers.delete(w);
        void w.terminate();
        return;
      }
      current = next++;
      w.postMessage({ index: current, task: tasks[current] });
    };
    w.on('message', (m: WorkerReply) => {
      replied = true;
      done.set(m.index, m.result);
      poke();
      feed();
    });
    w.on('error', (err) => {
      workers.delete(w);
      if (!replied) {
        // It never started (the module did not load): no file is to blame; this thread scans the rest.
        orphaned.add(current);
      } else {
        // A thread that dies mid-file (out of memory on a huge notebook, a bug) loses only that
        // file, reported as not scanned; a new thread takes over the rest.
        done.set(current, { file: tasks[current].file, error: `the scanning thread failed: ${errorMessage(err)}`, ms: 0 });
        if (next < tasks.length) start();
      }
      poke();
    });
    // A thread that ends without an error event (process.exit in a rule, a kill) while it holds a
    // file: that file is not scanned, the rest go on (the handlers above remove a thread first).
    w.on('exit', (code) => {
      if (!workers.delete(w)) return;
      if (current >= 0 && !done.has(current)) {
        done.set(current, { file: tasks[current].file, error: `the scanning thread exited (code ${code})`, ms: 0 });
        if (next < tasks.length) start();
      }
      poke();
    });
    feed();
  };
  try {
    for (let i = 0; i < jobs; i++) start();
    for (let i = 0; i < tasks.length; i++) {
      while (!done.has(i)) {
        if (orphaned.has(i) || workers.size === 0) {
          // Nobody else will bring this one: a thread that never started took it, or none is left.
          orphaned.delete(i);
          done.set(i, await scanFile(tasks[i], shared, cwd));
          next = Math.max(next, i + 1);
          break;
        }
        await new Promise<void>((r) => (wake = r));
      }
      const r = done.get(i)!;
      done.delete(i);
      yield r;
    }
  } finally {
    // The caller stopped early (or failed): no thread outlives the scan.
    for (const w of workers) void w.terminate();
  }
}

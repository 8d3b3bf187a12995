/**
 * npm run bench:queue — what the queue costs per notebook, and how it scales with workers.
 *
 *   local:    `nbmodernize audit DIR --jobs 1 --sandbox bwrap` (the real CLI, end to end)
 *   queue/W:  a Redis on loopback (Debian's redis-server, AOF on), W `nbmodernize worker --jobs 1`
 *             processes already connected, and `nbmodernize audit DIR --queue ...` as coordinator.
 *
 * The notebooks are tiny (one print per cell) so the figures are overhead, not Python. Overhead of
 * the queue per notebook = (wall of queue/1 - wall of local) / notebooks: both start one worker
 * process and one warm sandbox, so what differs is enqueueing, Redis round trips, shipping the
 * notebook and its artifacts, and collecting. Target: under 0.2 s per notebook.
 * Throughput = notebooks / wall for 1, 2 and 3 workers (this machine has 2 cores: 3 workers share them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/core/paths.js';
import { TestRedis } from '../test/support/redis.js';

const { values } = parseArgs({ options: { notebooks: { type: 'string', default: '12' }, workers: { type: 'string', default: '1,2,3' }, json: { type: 'string' } } });
const N = Number(values.notebooks);
const bin = path.join(packageRoot(), 'bin', 'nbmodernize.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-queue-bench-'));

function notebook(i: number): string {
  const cell = (src: string, out: string, n: number) => ({ cell_type: 'code', metadata: {}, execution_count: n, source: src, outputs: [{ output_type: 'stream', name: 'stdout', text: out }] });
  return JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, cells: [cell(`print(${i} * 3)`, `${i * 3}\n`, 1), cell(`print(${i} + 1)`, `${i + 1}\n`, 2)] });
}

const input = path.join(work, 'in');
fs.mkdirSync(input);
for (let i = 0; i < N; i++) fs.writeFileSync(path.join(input, `nb${String(i).padStart(3, '0')}.ipynb`), notebook(i));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (d) => (stdout += d));
    p.stderr!.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/** Poll `queue status` until the workers are connected: no fixed sleep races their start-up. */
async function waitWorkers(url: string, name: string, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const r = await run(['queue', 'status', '--queue', url, '--queue-name', name, '--json']);
    if (r.code === 0 && JSON.parse(r.stdout).workers.length >= n) return;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('workers did not connect');
}

const results: Record<string, number> = {};
const local = await run(['audit', input, '--out-dir', path.join(work, 'out-local'), '--sandbox', 'bwrap', '--jobs', '1']);
if (local.code !== 0) throw new Error(`local audit failed: ${local.stderr}`);
results.localS = local.ms / 1000;
console.log(`local audit, 1 worker: ${N} notebooks in ${(local.ms / 1000).toFixed(1)} s (${(N / (local.ms / 1000)).toFixed(2)} notebooks/s)`);

const redis = await TestRedis.start();
try {
  for (const w of values.workers.split(',').map(Number)) {
    const name = `bench-${w}`;
    const workers: ChildProcess[] = [];
    for (let i = 0; i < w; i++) workers.push(spawn(process.execPath, [bin, 'worker', '--queue', redis.url(), '--queue-name', name, '--jobs', '1', '--name', `bench-${w}-${i}`], { stdio: 'ignore' }));
    try {
      await waitWorkers(redis.url(), name, w);
      const r = await run(['audit', input, '--out-dir', path.join(work, `out-queue-${w}`), '--sandbox', 'bwrap', '--queue', redis.url(), '--queue-name', name]);
      if (r.code !== 0) throw new Error(`queue audit failed: ${r.stderr}`);
      results[`queue${w}S`] = r.ms / 1000;
      console.log(`queue, ${w} worker${w === 1 ? '' : 's'}: ${N} notebooks in ${(r.ms / 1000).toFixed(1)} s (${(N / (r.ms / 1000)).toFixed(2)} notebooks/s)`);
      if (w === 1) {
        results.overheadPerNotebookS = (r.ms - local.ms) / 1000 / N;
        console.log(`queue overhead per notebook: ${results.overheadPerNotebookS.toFixed(3)} s (target < 0.2 s)`);
      }
    } finally {
      for (const p of workers) p.kill('SIGTERM');
      await Promise.all(workers.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
    }
  }
} finally {
  await redis.stop();
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ notebooks: N, ...results }, null, 2));
fs.rmSync(work, { recursive: true, force: true });

/**
 * npm run bench:queue — what the queue costs per notebook, and how it scales with workers.
 *
 *   local:    `nbmodernize audit DIR --jobs 1 --sandbox bwrap` (the real CLI, end to end)
 *   queue/W:  a Redis on loopback (Debian's redis-server, AOF on), W fresh `nbmodernize worker
 *             --jobs 1` processes already connected, and `nbmodernize audit DIR --queue ...`.
 *
 * The notebooks are tiny (one print per cell) so the figures are overhead, not Python. Both sides
 * are run on a small and a large directory (default 4 and 16 notebooks), alternating, --repeat
 * times (median), so what is paid once per audit (starting node, a worker process, the warm
 * sandbox, connecting to Redis) is told apart from what is paid per notebook:
 *   per-notebook overhead of the queue = slope(queue/1) - slope(local), slope = (T(large) - T(small)) / (large - small)
 *   fixed overhead of the queue        = T(queue/1, small) - T(local, small) - per-notebook overhead * small
 * Target: per-notebook overhead under 0.2 s. Throughput = large / T for 1, 2 and 3 workers, on
 * notebooks that each sleep 1 s (the workers share this machine's 2 cores).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/core/paths.js';
import { TestRedis } from '../test/support/redis.js';

const { values } = parseArgs({ options: { small: { type: 'string', default: '4' }, large: { type: 'string', default: '16' }, repeat: { type: 'string', default: '1' }, workers: { type: 'string', default: '1,2,3' }, json: { type: 'string' } } });
const SMALL = Number(values.small);
const LARGE = Number(values.large);
const REPEAT = Number(values.repeat);
const bin = path.join(packageRoot(), 'bin', 'nbmodernize.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-queue-bench-'));

function notebook(i: number, sleepS = 0): string {
  const wait = sleepS ? `import time\ntime.sleep(${sleepS})\n` : '';
  const cell = (src: string, out: string, n: number) => ({ cell_type: 'code', metadata: {}, execution_count: n, source: src, outputs: [{ output_type: 'stream', name: 'stdout', text: out }] });
  return JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } }, cells: [cell(`${wait}print(${i} * 3)`, `${i * 3}\n`, 1), cell(`print(${i} + 1)`, `${i + 1}\n`, 2)] });
}

function inputOf(n: number, sleepS = 0): string {
  const dir = path.join(work, `in-${n}-${sleepS}`);
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `nb${String(i).padStart(3, '0')}.ipynb`), notebook(i, sleepS));
  return dir;
}

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

let outs = 0;
async function local(input: string): Promise<number> {
  const r = await run(['audit', input, '--out-dir', path.join(work, `out-${++outs}`), '--sandbox', 'bwrap', '--jobs', '1']);
  if (r.code !== 0) throw new Error(`local audit failed: ${r.stderr}`);
  return r.ms / 1000;
}

async function queued(redis: TestRedis, input: string, w: number): Promise<number> {
  const name = `bench-${++outs}`;
  const workers: ChildProcess[] = [];
  for (let i = 0; i < w; i++) workers.push(spawn(process.execPath, [bin, 'worker', '--queue', redis.url(), '--queue-name', name, '--jobs', '1', '--name', `${name}-${i}`], { stdio: 'ignore' }));
  try {
    await waitWorkers(redis.url(), name, w);
    const r = await run(['audit', input, '--out-dir', path.join(work, `out-${outs}`), '--sandbox', 'bwrap', '--queue', redis.url(), '--queue-name', name]);
    if (r.code !== 0) throw new Error(`queue audit failed: ${r.stderr}`);
    return r.ms / 1000;
  } finally {
    for (const p of workers) p.kill('SIGTERM');
    await Promise.all(workers.map((p) => new Promise((res) => (p.exitCode !== null ? res(null) : p.once('exit', res)))));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const small = inputOf(SMALL);
const large = inputOf(LARGE);
const t: Record<string, number[]> = { localSmall: [], localLarge: [], queueSmall: [], queueLarge: [] };
const redis = await TestRedis.start();
const results: Record<string, number> = {};
try {
  for (let i = 0; i < REPEAT; i++) {
    t.localSmall!.push(await local(small));
    t.queueSmall!.push(await queued(redis, small, 1));
    t.localLarge!.push(await local(large));
    t.queueLarge!.push(await queued(redis, large, 1));
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)])) as Record<string, number>;
  const slopeLocal = (m.localLarge! - m.localSmall!) / (LARGE - SMALL);
  const slopeQueue = (m.queueLarge! - m.queueSmall!) / (LARGE - SMALL);
  Object.assign(results, m, { slopeLocalS: slopeLocal, slopeQueueS: slopeQueue, overheadPerNotebookS: slopeQueue - slopeLocal, fixedOverheadS: m.queueSmall! - m.localSmall! - (slopeQueue - slopeLocal) * SMALL });
  console.log(`local audit, --jobs 1: ${SMALL} notebooks ${m.localSmall!.toFixed(1)} s, ${LARGE} notebooks ${m.localLarge!.toFixed(1)} s (${slopeLocal.toFixed(3)} s per notebook)`);
  console.log(`queue, 1 worker:       ${SMALL} notebooks ${m.queueSmall!.toFixed(1)} s, ${LARGE} notebooks ${m.queueLarge!.toFixed(1)} s (${slopeQueue.toFixed(3)} s per notebook)`);
  console.log(`queue overhead per notebook: ${(slopeQueue - slopeLocal).toFixed(3)} s (target < 0.2 s); once per audit: ${results.fixedOverheadS!.toFixed(2)} s`);
  // Throughput: notebooks that wait 1 s each, so the figure shows how the queue spreads work over
  // workers rather than what two shared cores can compute.
  const waiting = inputOf(LARGE, 1);
  for (const w of values.workers.split(',').map(Number)) {
    const s = await queued(redis, waiting, w);
    results[`throughput${w}`] = LARGE / s;
    console.log(`queue, ${w} worker${w === 1 ? '' : 's'}: ${LARGE} notebooks of 1 s in ${s.toFixed(1)} s (${(LARGE / s).toFixed(2)} notebooks/s)`);
  }
} finally {
  await redis.stop();
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ small: SMALL, large: LARGE, repeat: REPEAT, ...results }, null, 2));
fs.rmSync(work, { recursive: true, force: true });

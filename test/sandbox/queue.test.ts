/**
 * `audit --queue` and `nbmodernize worker` end to end: a real Redis on loopback (test/support/
 * redis.ts), the compiled CLI as coordinator and as worker processes on this machine, real
 * kernels in bwrap sandboxes. Failures are injected at moments observed, never timed: a worker is
 * killed once it says it took the notebook and its kernel runs; the coordinator and Redis once
 * results are on disk.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import { alive, descendants, runCli } from '../support/cli.js';
import { comparable, finishedCount, mixedDir, readSummary, waitFor, withOutputs, writeTree } from '../support/audit-inputs.js';
import { MINI_DATA } from '../support/notebooks.js';
import { TestRedis } from '../support/redis.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-queue-'));
const data = MINI_DATA().dir;
const POISON = 'NBM_TEST_POISON_NOTEBOOK';
let redis: TestRedis;

before(async () => {
  redis = await TestRedis.start();
});
after(async () => {
  await redis?.stop();
});

interface Worker { proc: ChildProcess; pid: number; stderr: () => string; exited: Promise<number | null> }

function startWorker(queueName: string, n: number, extra: string[] = []): Worker {
  const proc = spawn(process.execPath, [path.join(packageRoot(), 'bin', 'nbmodernize.js'), 'worker', '--queue', redis.url(), '--queue-name', queueName,
    '--jobs', '1', '--data-root', path.dirname(data), '--timeout', '60', '--name', `test-${n}`, ...extra], {
    env: { ...process.env, NBMODERNIZE_TEST_CRASH_MARKER: POISON },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, pid: proc.pid!, stderr: () => err, exited };
}

/** SIGTERM every worker still running and check nothing of theirs is left. */
async function stopWorkers(ws: Worker[]): Promise<void> {
  const trees = ws.map((w) => [w.pid, ...descendants(w.pid)]).flat();
  for (const w of ws) if (alive(w.pid)) w.proc.kill('SIGTERM');
  await Promise.all(ws.map((w) => w.exited));
  await waitFor(() => trees.filter(alive).length === 0, 30_000, 'worker processes and sandboxes to exit');
}

function audit(input: string, out: string, queueName: string, extra: string[] = [], onSpawn?: (pid: number) => void) {
  return runCli(['audit', input, '--out-dir', out, '--data', data, '--sandbox', 'bwrap', '--queue', redis.url(), '--queue-name', queueName, '--timeout', '60', ...extra], { timeoutMs: 600_000, ...(onSpawn ? { onSpawn } : {}) });
}

function finishedIds(out: string): string[] {
  return fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'finished').map((l) => l.id);
}

async function status(queueName: string): Promise<any> {
  const r = await runCli(['queue', 'status', '--queue', redis.url(), '--queue-name', queueName, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The worker says it took the notebook and a kernel runs under it. */
function runsNotebook(w: Worker, name: string): boolean {
  return w.stderr().includes(`taken ${name}`) && descendants(w.pid).some((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('ipykernel');
    } catch {
      return false;
    }
  });
}

/** Notebooks that take a moment, each with a known verdict. */
function slowDir(name: string, n: number): string {
  const nbs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) nbs[`nb${i}.ipynb`] = withOutputs([[`import time\ntime.sleep(1)\nprint(${i} * 7)`, `${i * 7}\n`]]);
  nbs['a-slow.ipynb'] = withOutputs([['import time\ntime.sleep(4)\nprint(1)', '1\n']]);
  return writeTree(path.join(root, name), nbs);
}

it('a coordinator and three workers audit the mixed directory: the same summary and artifacts as a local audit', async () => {
  const input = mixedDir(path.join(root, 'mixed'));
  const local = path.join(root, 'out-local');
  const r0 = await runCli(['audit', input, '--out-dir', local, '--data', data, '--sandbox', 'bwrap', '--jobs', '2', '--timeout', '60']);
  assert.equal(r0.code, 0, r0.stderr);

  const workers = [1, 2, 3].map((n) => startWorker('mixed', n));
  try {
    await waitFor(async () => (await status('mixed')).workers.length === 3, 60_000, 'three workers to connect');
    const out = path.join(root, 'out-queue');
    const r = await audit(input, out, 'mixed');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\[7\/7\]/);
    assert.deepEqual(comparable(readSummary(out)), comparable(readSummary(local)));
    // The artifacts came back to the coordinator's directory.
    const fixable = readSummary(out).notebooks.find((n) => n.id === 'titanic/fixable.ipynb')!;
    for (const f of ['notebook', 'runResult', 'report', 'trajectory', 'drift']) assert.ok(fs.existsSync(path.join(out, fixable.artifacts[f]!)), f);
    // Nothing quotes the worker's copy of a notebook: records and artifacts name the coordinator's files.
    const quoting = (dir: string): string[] => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && fs.readFileSync(path.join(e.parentPath, e.name), 'utf8').includes('nbm-queue-worker-')).map((e) => e.name);
    assert.deepEqual(quoting(out), []);
    assert.equal(JSON.parse(fs.readFileSync(path.join(out, readSummary(out).notebooks.find((n) => n.id === 'clean.ipynb')!.artifacts.runResult!), 'utf8')).notebook.path, path.join(input, 'clean.ipynb'));
    assert.equal(finishedIds(out).length, 7);
    // Collected results are removed from Redis; nothing waits, nothing failed.
    const st = await status('mixed');
    assert.deepEqual([st.waiting, st.active, st.completed, st.failed], [0, 0, 0, 0]);
    assert.deepEqual(st.workers.map((w: any) => w.name).sort(), ['test-1', 'test-2', 'test-3']);
    // Several workers took part.
    assert.ok(workers.filter((w) => /: done /.test(w.stderr())).length >= 2, workers.map((w) => w.stderr()).join('\n'));
  } finally {
    await stopWorkers(workers);
  }
});

it('kill -9 of a worker mid-notebook: another worker takes the job over; every notebook finished exactly once', async () => {
  const input = slowDir('slow-kill', 3);
  const workers = [1, 2].map((n) => startWorker('kill', n));
  try {
    const out = path.join(root, 'out-kill');
    const running = audit(input, out, 'kill');
    // The first worker to take a-slow.ipynb, once its kernel runs the notebook.
    let victim: Worker | undefined;
    await waitFor(() => Boolean(victim = workers.find((w) => runsNotebook(w, 'a-slow.ipynb'))), 120_000, 'a worker to run a-slow.ipynb');
    const tree = descendants(victim!.pid);
    victim!.proc.kill('SIGKILL');
    await victim!.exited;
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    const other = workers.find((w) => w !== victim)!;
    assert.match(other.stderr(), /done a-slow\.ipynb/);
    const s = readSummary(out);
    assert.deepEqual(s.totals, { notebooks: 4, reproduced: 4, 'not-reproduced': 0, failed: 0 });
    const ids = finishedIds(out);
    assert.equal(ids.length, 4);
    assert.equal(new Set(ids).size, 4);
    // The killed worker's processes and sandboxes went away by themselves.
    await waitFor(() => tree.filter(alive).length === 0, 30_000, 'the killed worker\'s processes to exit');
  } finally {
    await stopWorkers(workers);
  }
});

it('the coordinator killed mid-audit and restarted with --resume: nothing lost, nothing twice', async () => {
  const input = slowDir('slow-coord', 5);
  const workers = [1, 2].map((n) => startWorker('coord', n));
  try {
    const out = path.join(root, 'out-coord');
    let pid = 0;
    const first = audit(input, out, 'coord', [], (p) => (pid = p));
    await waitFor(() => finishedCount(out) >= 2, 120_000, 'two results');
    process.kill(pid, 'SIGKILL');
    const r1 = await first;
    assert.equal(r1.signal, 'SIGKILL');
    const done = finishedCount(out);
    assert.ok(done < 6, `cut short (${done} of 6)`);
    const r2 = await audit(input, out, 'coord', ['--resume']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match(r2.stderr, new RegExp(`6 notebooks, ${done} already done`));
    const ids = finishedIds(out);
    assert.equal(ids.length, 6);
    assert.equal(new Set(ids).size, 6);
    assert.equal(readSummary(out).totals.reproduced, 6);
    assert.equal(readSummary(out).audit.sessions, 2);
  } finally {
    await stopWorkers(workers);
  }
});

it('Redis killed and restarted mid-audit: the append-only file keeps every job; the audit completes', async () => {
  const input = slowDir('slow-redis', 5);
  const workers = [1, 2].map((n) => startWorker('redis', n));
  try {
    const out = path.join(root, 'out-redis');
    const running = audit(input, out, 'redis');
    await waitFor(() => finishedCount(out) >= 1, 120_000, 'a first result');
    await redis.down('SIGKILL');
    await redis.up();
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    const ids = finishedIds(out);
    assert.equal(ids.length, 6);
    assert.equal(new Set(ids).size, 6);
    assert.equal(readSummary(out).totals.reproduced, 6);
  } finally {
    await stopWorkers(workers);
  }
});

it('a poison notebook that kills its worker process every time lands in the failed set after the retry limit', async () => {
  const input = writeTree(path.join(root, 'poison'), {
    'poison.ipynb': withOutputs([[`print("${POISON}")`, `${POISON}\n`]]),
    'fine.ipynb': withOutputs([['print(6 * 7)', '42\n']]),
  });
  const workers = [1, 2].map((n) => startWorker('poison', n));
  try {
    const out = path.join(root, 'out-poison');
    const r = await audit(input, out, 'poison', ['--max-attempts', '2']);
    assert.equal(r.code, 0, r.stderr);
    const by = Object.fromEntries(readSummary(out).notebooks.map((n) => [n.id, n]));
    assert.equal(by['fine.ipynb']!.verdict, 'reproduced');
    assert.deepEqual([by['poison.ipynb']!.verdict, by['poison.ipynb']!.status], ['failed', 'crashed']);
    assert.match(by['poison.ipynb']!.reason, /failed on the queue after 2 attempts: the worker process died \(signal SIGKILL\)/);
    const st = await status('poison');
    assert.equal(st.failed, 1);
    assert.equal(st.failedJobs[0].notebook, 'poison.ipynb');
    assert.match(st.failedJobs[0].reason, /worker process died/);
    // The workers survived their processes' deaths and still serve.
    for (const w of workers) assert.ok(alive(w.pid));
  } finally {
    await stopWorkers(workers);
  }
});

it('SIGTERM to a worker: it finishes the notebook in hand (or, past --grace, gives it back) and exits 0', async () => {
  const input = writeTree(path.join(root, 'graceful'), {
    'a-slow.ipynb': withOutputs([['import time\ntime.sleep(4)\nprint(1)', '1\n']]),
    'b-slow.ipynb': withOutputs([['import time\ntime.sleep(4)\nprint(2)', '2\n']]),
  });
  const out = path.join(root, 'out-graceful');
  const w1 = startWorker('graceful', 1);
  const workers = [w1];
  try {
    const running = audit(input, out, 'graceful');
    await waitFor(() => runsNotebook(w1, 'a-slow.ipynb'), 120_000, 'worker 1 to run a-slow.ipynb');
    w1.proc.kill('SIGTERM');
    assert.equal(await w1.exited, 0, w1.stderr());
    assert.match(w1.stderr(), /done a-slow\.ipynb/);
    assert.doesNotMatch(w1.stderr(), /taken b-slow/);
    // No grace: the notebook in hand goes back to the queue, without using an attempt.
    const w2 = startWorker('graceful', 2, ['--grace', '0.001']);
    workers.push(w2);
    await waitFor(() => runsNotebook(w2, 'b-slow.ipynb'), 120_000, 'worker 2 to run b-slow.ipynb');
    w2.proc.kill('SIGTERM');
    assert.equal(await w2.exited, 0, w2.stderr());
    assert.match(w2.stderr(), /given-back b-slow\.ipynb/);
    const w3 = startWorker('graceful', 3);
    workers.push(w3);
    const r = await running;
    assert.equal(r.code, 0, r.stderr);
    assert.match(w3.stderr(), /done b-slow\.ipynb/);
    assert.equal(readSummary(out).totals.reproduced, 2);
    assert.deepEqual(finishedIds(out).sort(), ['a-slow.ipynb', 'b-slow.ipynb']);
  } finally {
    await stopWorkers(workers);
  }
});

it('artifacts larger than the queue takes travel through --artifacts-dir; queue status lists the workers seen', async () => {
  const input = writeTree(path.join(root, 'big'), { 'a.ipynb': withOutputs([['print(1)', '1\n']]) });
  const shared = path.join(root, 'shared-artifacts');
  // Every archive is over a 100-byte limit.
  const workers = [startWorker('big', 1, ['--inline-artifacts-mb', '0.0001', '--artifacts-dir', shared])];
  try {
    const out = path.join(root, 'out-big');
    const r = await audit(input, out, 'big', ['--artifacts-dir', shared]);
    assert.equal(r.code, 0, r.stderr);
    const rec = readSummary(out).notebooks[0]!;
    assert.equal(rec.verdict, 'reproduced');
    for (const f of ['notebook', 'runResult', 'report']) assert.ok(fs.existsSync(path.join(out, rec.artifacts[f]!)), f);
    assert.deepEqual(fs.readdirSync(shared), [], 'the shared file is removed once unpacked');
    const st = await status('big');
    assert.deepEqual(st.workersSeen.map((w: any) => [w.name, w.done]), [['test-1', 1]]);
  } finally {
    await stopWorkers(workers);
  }
  const after = await status('big');
  assert.equal(after.workers.length, 0);
  assert.equal(after.workersSeen[0].name, 'test-1', 'a stopped worker is still listed as seen');
});

it('a worker refuses a job that asks for the host backend (no isolation): failed at once with the reason, not retried', async () => {
  const input = writeTree(path.join(root, 'wide'), { 'a.ipynb': withOutputs([['print(1)', '1\n']]) });
  const workers = [startWorker('wide', 1)];
  try {
    const out = path.join(root, 'out-wide');
    const r = await runCli(['audit', input, '--out-dir', out, '--sandbox', 'host', '--queue', redis.url(), '--queue-name', 'wide'], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    const rec = readSummary(out).notebooks[0]!;
    assert.equal(rec.status, 'crashed');
    assert.match(rec.reason, /after 1 attempt: the job asks for the host sandbox.*--allow-wide-sandbox/);
    assert.doesNotMatch(workers[0]!.stderr(), /taken a\.ipynb/);
  } finally {
    await stopWorkers(workers);
  }
});

it('rediss:// with a password: TLS to Redis, the password never printed; a wrong password or plain redis:// fails fast', async (t) => {
  const dir = fs.mkdtempSync(path.join(root, 'tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  } catch {
    return t.skip('openssl is not installed');
  }
  const secret = 'pw-s3cret-9f2b';
  const tls = await TestRedis.start({ tls: { cert, key }, password: secret });
  try {
    const env = { NODE_EXTRA_CA_CERTS: cert };
    const ok = await runCli(['queue', 'status', '--queue', `rediss://:${secret}@localhost:${tls.port}/0`], { env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`queue rediss://\\*\\*\\*@localhost:${tls.port}/0`));
    // From the environment: the URL is not on the command line either.
    const fromEnv = await runCli(['queue', 'status', '--queue', 'env', '--json'], { env: { ...env, NBMODERNIZE_QUEUE_URL: `rediss://:${secret}@localhost:${tls.port}/0` } });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.equal(JSON.parse(fromEnv.stdout).waiting, 0);
    const wrong = await runCli(['queue', 'status', '--queue', `rediss://:wrong-${secret}@localhost:${tls.port}/0`], { env, timeoutMs: 60_000 });
    assert.equal(wrong.code, 7, wrong.stderr);
    assert.match(wrong.stderr, /cannot read the queue at rediss:\/\/\*\*\*@localhost.*WRONGPASS/);
    const plain = await runCli(['queue', 'status', '--queue', `redis://:${secret}@localhost:${tls.port}/0`], { env, timeoutMs: 60_000 });
    assert.equal(plain.code, 7, plain.stderr);
    for (const r of [ok, fromEnv, wrong, plain]) assert.ok(!(r.stdout + r.stderr).includes(secret), 'the password is never printed');
  } finally {
    await tls.stop();
  }
});

/** The worker pool with stand-in worker processes: scheduling, look-ahead hints, crashes, Ctrl-C. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { AuditPool, type WorkerProcess } from '../../../src/agent/audit/pool.js';
import { emptyRecord } from '../../../src/agent/audit/baseline.js';
import type { AuditJob } from '../../../src/agent/audit/jobs.js';
import type { AuditRecord } from '../../../src/agent/audit/record.js';
import type { ToWorker } from '../../../src/agent/audit/protocol.js';

const config = { auditDir: '/tmp/x', mode: 'baseline' as const, sandbox: { kind: 'bwrap' as const, environment: 'debian13', cacheDir: '/c' }, prestart: true, warm: false };
const job = (id: string): AuditJob => ({ id, path: `/nb/${id}`, artifactDir: `notebooks/${id}` });

/** Behaves like `nbmodernize audit --worker`: "ms:<n>" ids take n ms, "crash" ids kill the worker. */
class FakeWorker extends EventEmitter {
  static n = 0;
  pid = ++FakeWorker.n;
  connected = true;
  received: ToWorker[] = [];
  private timer?: NodeJS.Timeout;
  private current?: string;
  send(msg: ToWorker): boolean {
    this.received.push(msg);
    setImmediate(() => this.handle(msg));
    return true;
  }
  private handle(msg: ToWorker): void {
    if (msg.type === 'init') this.emit('message', { type: 'ready', pid: this.pid });
    if (msg.type === 'run') {
      this.current = msg.job.id;
      if (msg.job.id.startsWith('crash')) return void setTimeout(() => this.exit(null, 'SIGKILL'), 5);
      const ms = Number(/ms:(\d+)/.exec(msg.job.id)?.[1] ?? 5);
      this.timer = setTimeout(() => {
        this.current = undefined;
        const record: AuditRecord = emptyRecord(msg.job, 'baseline', { verdict: 'reproduced', status: 'ok', reason: `by ${this.pid}` });
        this.emit('message', { type: 'done', id: msg.job.id, record });
      }, ms);
    }
    if (msg.type === 'abort' && this.current) {
      clearTimeout(this.timer);
      const id = this.current;
      this.current = undefined;
      setTimeout(() => this.emit('message', { type: 'interrupted', id }), 5);
    }
  }
  private exit(code: number | null, sig: NodeJS.Signals | null): void {
    if (!this.connected) return;
    this.connected = false;
    clearTimeout(this.timer);
    this.emit('exit', code, sig);
  }
  disconnect(): void {
    setImmediate(() => this.exit(0, null));
  }
  kill(): boolean {
    this.exit(null, 'SIGKILL');
    return true;
  }
}

function harness(size: number) {
  const workers: FakeWorker[] = [];
  const log: string[] = [];
  const records: AuditRecord[] = [];
  const pool = new AuditPool({
    size,
    config,
    spawn: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as WorkerProcess;
    },
    hooks: {
      started: (j) => log.push(`started ${j.id}`),
      finished: (r) => {
        records.push(r);
        log.push(`finished ${r.id}`);
      },
      released: (j, why) => log.push(`released ${j.id} ${why}`),
      crashed: (j, detail) => log.push(`crashed ${j.id}: ${detail}`),
    },
    shutdownGraceMs: 100,
  });
  return { pool, workers, log, records };
}

it('runs every job once on N workers and hands out look-ahead hints only while there is plenty queued', async () => {
  const h = harness(2);
  const ids = ['ms:30-a', 'ms:5-b', 'ms:5-c', 'ms:5-d', 'ms:5-e', 'ms:5-f'];
  await h.pool.run(ids.map(job));
  await h.pool.drained();
  assert.deepEqual(h.records.map((r) => r.id).sort(), [...ids].sort());
  assert.equal(h.log.filter((l) => l.startsWith('started')).length, ids.length);
  assert.equal(h.workers.length, 2);
  const runs = h.workers.flatMap((w) => w.received.filter((m) => m.type === 'run')) as Array<Extract<ToWorker, { type: 'run' }>>;
  assert.ok(runs.some((r) => r.next), 'hints were given');
  // Every hinted job ran somewhere (on the hinted worker, or taken back for an idle one).
  for (const r of runs) if (r.next) assert.ok(h.records.some((x) => x.id === r.next!.id));
  assert.ok(h.workers.every((w) => !w.connected), 'workers are shut down at the end');
});

it('takes a hinted job back from a busy worker when another one is idle', async () => {
  const h = harness(2);
  // Worker 1 gets the long job plus a hint; worker 2 drains the rest, then should steal the hint.
  await h.pool.run(['ms:300-long', 'ms:5-x', 'ms:5-y', 'ms:5-z'].map(job));
  const dropNext = h.workers.flatMap((w) => w.received).filter((m) => m.type === 'drop-next');
  const byWorker = new Map(h.records.map((r) => [r.id, r.reason]));
  assert.equal(h.records.length, 4);
  assert.ok(dropNext.length >= 1, 'the reservation was taken back');
  assert.notEqual(byWorker.get('ms:5-x'), byWorker.get('ms:300-long'), 'the hinted job did not wait for the long one');
});

it('a worker that dies mid-notebook: the notebook runs once more on a new worker; dying again, it is recorded as crashed; new workers continue', async () => {
  const h = harness(1);
  await h.pool.run(['a', 'crash-me', 'b'].map(job));
  assert.ok(h.log.some((l) => /^released crash-me the worker died \(signal SIGKILL\); running it again/.test(l)), h.log.join('\n'));
  assert.ok(h.log.some((l) => /^crashed crash-me: the worker process died \(signal SIGKILL\) while running this notebook, 2 times/.test(l)), h.log.join('\n'));
  assert.deepEqual(h.records.map((r) => r.id).sort(), ['a', 'b']);
  assert.equal(h.workers.length, 3, 'a replacement worker after each death');
});

it('abort: running notebooks are given back (released), queued ones are not started', async () => {
  const h = harness(2);
  const ctl = new AbortController();
  const done = h.pool.run(['ms:500-a', 'ms:500-b', 'ms:500-c', 'ms:500-d'].map(job), ctl.signal);
  setTimeout(() => ctl.abort(), 50);
  await done;
  await h.pool.drained();
  const started = h.log.filter((l) => l.startsWith('started')).map((l) => l.slice(8));
  assert.equal(started.length, 2, 'only one notebook per worker was started');
  assert.deepEqual(h.log.filter((l) => l.startsWith('released')).sort(), started.map((id) => `released ${id} interrupted`).sort());
  assert.equal(h.records.length, 0);
});

it('stops starting notebooks when told to (spend cap)', async () => {
  let finished = 0;
  const workers: FakeWorker[] = [];
  const pool = new AuditPool({
    size: 1,
    config,
    spawn: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as WorkerProcess;
    },
    hooks: { started: () => {}, finished: () => void finished++, released: () => {}, crashed: () => {}, shouldStop: () => (finished >= 2 ? 'cap reached' : undefined) },
    shutdownGraceMs: 100,
  });
  await pool.run(['a', 'b', 'c', 'd'].map(job));
  assert.equal(finished, 2);
});

/**
 * Fault suite, hostile notebooks: one real `audit` (the orchestrator, a worker, warm bwrap leases)
 * over notebooks that attack the machine, the sandbox or each other, then ordinary notebooks after
 * them. Each hostile notebook must end with a clear record (never crashed, never an internal error),
 * the ones after it must run as if nothing happened, and nothing may be left running.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, descendants, alive, type CliRun } from '../support/cli.js';
import { withOutputs, writeTree } from '../support/audit-inputs.js';
import type { AuditRecord } from '../../src/agent/audit/record.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-fault-hostile-'));
/** A marker no other process on the machine has in its command line. */
const MARK = `${7000 + (process.pid % 1000)}.25`;

// Run in this order (sorted by name), one at a time on one worker's warm sandbox.
const NOTEBOOKS: Record<string, unknown> = {
  'a-fork-bomb.ipynb': withOutputs([['import os\nwhile True:\n    os.fork()', '']]),
  'b-after-fork-bomb.ipynb': withOutputs([['print(6 * 7)', '42\n']]),
  'c-memory-bomb.ipynb': withOutputs([['x = []\nwhile True:\n    x.append(bytearray(64 * 1024 * 1024))', '']]),
  'd-disk-filler.ipynb': withOutputs([['with open("big.bin", "wb") as f:\n    for _ in range(400):\n        f.write(b"x" * 1048576)\n        f.flush()', '']]),
  'e-endless-output.ipynb': withOutputs([['while True:\n    print("x" * 1000)', '']]),
  // Detaches into its own session and keeps running after the notebook ends; also leaves files behind.
  'f-detached.ipynb': withOutputs([[
    `import os, subprocess\nsubprocess.Popen(["setsid", "sleep", "${MARK}"])\nfor p in ("secret-f.txt", "/tmp/secret-f", os.path.expanduser("~/secret-f")):\n    open(p, "w").write("lease f")\nprint("detached")`,
    'detached\n',
  ]]),
  // The next lease looks for everything the previous one left: files anywhere it can see, processes.
  'g-reads-other-lease.ipynb': withOutputs([[
    'import os\nfound = []\nfor top in (".", "/tmp", os.path.expanduser("~"), "/kaggle", "/nbm"):\n    for d, _, files in os.walk(top):\n        found += [os.path.join(d, f) for f in files if "secret-f" in f]\n'
      + `for p in os.listdir("/proc"):\n    try:\n        if "${MARK}" in open(f"/proc/{p}/cmdline").read():\n            found.append("process " + p)\n    except Exception:\n        pass\nprint("found", len(found), sorted(found))`,
    'found 0 []\n',
  ]]),
  'h-kills-own-group.ipynb': withOutputs([['import os, signal\nos.killpg(0, signal.SIGKILL)', '']]),
  'i-after-all.ipynb': withOutputs([['print(sum(range(10)))', '45\n']]),
};

let run: CliRun;
let pid = 0;
let tree: number[] = [];
let records: Map<string, AuditRecord>;
const out = path.join(root, 'out');

describe('hostile notebooks', { timeout: 900_000 }, () => {
  before(async () => {
    const input = writeTree(path.join(root, 'in'), NOTEBOOKS);
    const seen = new Set<number>();
    const watch = setInterval(() => {
      if (pid) for (const p of descendants(pid)) seen.add(p);
    }, 200);
    try {
      run = await runCli(['audit', input, '--out-dir', out, '--sandbox', 'bwrap', '--jobs', '1', '--memory', '768', '--cpus', '1', '--disk', '100', '--cell-timeout', '15', '--timeout', '60'], { onSpawn: (p) => (pid = p), timeoutMs: 840_000 });
    } finally {
      clearInterval(watch);
    }
    tree = [...seen];
    const lines = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    records = new Map(lines.filter((l) => l.type === 'finished').map((l) => [l.id, l.record as AuditRecord]));
  });

  const rec = (id: string) => {
    const r = records.get(id);
    assert.ok(r, `${id} has a record`);
    assert.ok(!['crashed', 'internal-error'].includes(r.status), `${id}: ${r.status} ${r.reason}`);
    return r;
  };

  it('the orchestrator is intact: exit 0, every notebook recorded once', () => {
    assert.equal(run.code, 0, run.stderr);
    assert.equal(records.size, Object.keys(NOTEBOOKS).length);
    const finished = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"type":"finished"'));
    assert.equal(finished.length, Object.keys(NOTEBOOKS).length);
  });

  it('fork bomb: stopped by the process cap, recorded as not reproduced', () => {
    const r = rec('a-fork-bomb.ipynb');
    assert.equal(r.verdict, 'not-reproduced', r.reason);
    const limits = JSON.parse(fs.readFileSync(path.join(out, r.artifacts.runResult!), 'utf8')).sandboxInfo.limits;
    assert.equal(limits.pids, 512, 'the default process cap applied');
    assert.ok(['error', 'timeout', 'kernel-died'].includes(r.status), r.status);
  });

  it('the notebook after a fork bomb runs normally', () => {
    assert.equal(rec('b-after-fork-bomb.ipynb').verdict, 'reproduced');
  });

  it('memory bomb: the kernel is killed at the memory cap, recorded as kernel death', () => {
    const r = rec('c-memory-bomb.ipynb');
    assert.equal(r.verdict, 'not-reproduced');
    assert.ok(['kernel-died', 'error'].includes(r.status), `${r.status}: ${r.reason}`);
    if (r.status === 'error') assert.match(r.error?.ename ?? '', /MemoryError/);
  });

  it('disk filler: fails in its cell at the quota', () => {
    const r = rec('d-disk-filler.ipynb');
    assert.equal(r.status, 'error', r.reason);
    assert.match(r.error?.evalue ?? '', /\[Errno (28|27)\]/);
    const big = path.join(out, r.artifacts.dir, 'files', 'big.bin');
    assert.ok(!fs.existsSync(big) || fs.statSync(big).size <= 100 * 1024 * 1024);
  });

  it('endless output: stopped at the cell timeout, the stored output is bounded', () => {
    const r = rec('e-endless-output.ipynb');
    assert.equal(r.status, 'timeout', r.reason);
    const nb = path.join(out, r.artifacts.notebook!);
    assert.ok(fs.statSync(nb).size < 20 * 1024 * 1024, `executed notebook ${fs.statSync(nb).size} bytes`);
  });

  it('a process detached with setsid: the notebook reproduces, the process is gone after its lease', () => {
    assert.equal(rec('f-detached.ipynb').verdict, 'reproduced');
    const stragglers = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(MARK);
      } catch {
        return false;
      }
    });
    assert.deepEqual(stragglers, []);
  });

  it('the next lease sees nothing of the previous one: no files, no processes', () => {
    const r = rec('g-reads-other-lease.ipynb');
    assert.equal(r.verdict, 'reproduced', `${r.reason} ${JSON.stringify(r.comparisons)}`);
  });

  it('a cell that kills its own process group: recorded as kernel death', () => {
    const r = rec('h-kills-own-group.ipynb');
    assert.equal(r.verdict, 'not-reproduced');
    assert.equal(r.status, 'kernel-died', r.reason);
  });

  it('the last notebook runs normally and nothing is left running', () => {
    assert.equal(rec('i-after-all.ipynb').verdict, 'reproduced');
    assert.ok(tree.length > 0);
    assert.deepEqual(tree.filter(alive), []);
  });
});

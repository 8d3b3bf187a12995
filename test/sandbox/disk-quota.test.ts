/**
 * What a notebook writes is bounded (issue 12): a working-dir quota enforced by the sandbox, the
 * same bound on /tmp and HOME, a cap on what is copied out, and a /sys that shows no host
 * network interfaces. Real kernels in the real sandboxes (bwrap, its warm leases, Docker when an
 * engine answers); a small quota (20 MB) keeps the writes fast. Nothing here depends on speed.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNotebook, type RunOptions } from '../../src/executor/run-notebook.js';
import { WarmPool } from '../../src/agent/audit/warm-pool.js';
import { dockerReachable } from '../../src/executor/docker-engine.js';
import type { Notebook } from '../../src/core/notebook.js';
import { quotaMounts, testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook, cellText } from '../support/notebooks.js';
import { runCli, alive } from '../support/cli.js';
import type { SandboxKind } from '../../src/core/run-result.js';

const variants: Array<{ kind: SandboxKind; warm: boolean }> = [{ kind: 'bwrap', warm: false }, { kind: 'bwrap', warm: true }];
if (await dockerReachable()) variants.push({ kind: 'docker', warm: false });

const QUOTA_MB = 20;
const root = process.getuid?.() === 0;

/** Write `mb` MiB to `file` in 1 MiB chunks; prints how far it got before failing. */
const writeMb = (file: string, mb: number) => [
  'import os',
  `f = open(${JSON.stringify(file)}, "wb")`,
  'try:',
  `    for _ in range(${mb}):`,
  '        f.write(b"x" * 1048576)',
  '        f.flush()',
  'finally:',
  `    print("written", os.path.getsize(${JSON.stringify(file)}))`,
  '    try:',
  '        f.close()',
  '    except OSError:',
  '        pass',
].join('\n');

for (const { kind, warm } of variants) {
  describe(`disk quota in ${kind}${warm ? ' (warm lease)' : ''}`, { timeout: 300_000 }, () => {
    const pool = warm ? new WarmPool(new AbortController().signal) : undefined;
    after(() => pool?.stopAll());
    const run = async (nb: Notebook, o: RunOptions) => {
      if (!pool) return runNotebook(nb, o);
      const lease = await pool.lease(o.sandbox);
      assert.ok(lease);
      try {
        return await runNotebook(nb, { ...o, reuseSandbox: lease, sandboxStopsAfter: true });
      } finally {
        await lease.stop();
      }
    };
    const opts = (o: Partial<RunOptions> = {}): RunOptions => ({
      sandbox: testSandboxRequest({ kind, memoryMb: 2048, diskMb: QUOTA_MB }),
      cellTimeoutS: 120,
      timeoutS: 240,
      allowErrors: true,
      ...o,
    });

    it('a write past the quota fails in its own cell (ENOSPC); later cells and the next notebook run', async () => {
      const nb = makeNotebook([
        writeMb('big.bin', 3 * QUOTA_MB),
        'import os\nst = os.statvfs(".")\nprint("size", st.f_blocks * st.f_frsize, "partial", os.path.getsize("big.bin"))\nos.remove("big.bin")\nopen("small.txt", "w").write("fine")\nprint("after", open("small.txt").read())',
        writeMb('/tmp/big.bin', 3 * QUOTA_MB),
        writeMb("/nbm/home/big.bin", 3 * QUOTA_MB),
        'print("alive")',
      ]);
      const { result, notebook } = await run(nb, opts());
      const [full, after1, tmp, home, last] = result.cells;
      assert.equal(full.status, 'error', JSON.stringify(full));
      assert.equal(full.error?.ename, root ? 'OSError' : full.error?.ename);
      if (root) {
        assert.match(full.error!.evalue, /\[Errno 28\] No space left on device/);
        assert.match(result.message ?? '', /disk quota is full: 20 MB/);
        assert.equal(result.sandboxInfo.limits.diskMechanism, 'loop ext4');
      } else {
        assert.match(full.error!.evalue, /\[Errno (27|28)\]/);
      }
      assert.equal(result.sandboxInfo.limits.diskMb, QUOTA_MB);
      assert.equal(after1.status, 'ok', JSON.stringify(after1.error));
      const text = cellText(notebook, 1);
      assert.match(text, /after fine/);
      if (root) {
        // The working dir is a filesystem of the quota's size, and the partial file stayed within it.
        const m = /size (\d+) partial (\d+)/.exec(text)!;
        assert.ok(Number(m[1]) <= QUOTA_MB * 1024 * 1024, text);
        assert.ok(Number(m[2]) <= QUOTA_MB * 1024 * 1024, text);
      }
      for (const c of [tmp, home]) {
        assert.equal(c.status, 'error', JSON.stringify(c));
        assert.match(c.error!.evalue, /\[Errno 28\]/);
      }
      assert.equal(last.status, 'ok');
      assert.match(cellText(notebook, 4), /alive/);

      const next = await run(makeNotebook(['open("out.csv", "w").write("a\\n1\\n")\nprint("next ok")']), opts());
      assert.equal(next.result.status, 'ok', next.result.message);
      if (!warm) assert.deepEqual(quotaMounts(), [], 'a stopped sandbox leaves no quota mount');
    });

    it('shows a minimal /sys: no host network interfaces, the CPU count still right for os, joblib and numpy', async () => {
      const hostIfaces = fs.readdirSync('/sys/class/net').filter((n) => n !== 'lo');
      const nb = makeNotebook([[
        'import os, json, warnings',
        'warnings.simplefilter("always")',
        'with warnings.catch_warnings(record=True) as w:',
        '    import joblib, numpy as np, sklearn',
        '    from joblib import Parallel, delayed',
        '    phys = joblib.cpu_count(only_physical_cores=True)',
        '    par = Parallel(n_jobs=2)(delayed(abs)(-i) for i in range(4))',
        'net = sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else []',
        'print(json.dumps({"net": net, "cpu": os.cpu_count(), "joblib": joblib.cpu_count(), "phys": phys, "par": par,',
        '  "sys": sorted(os.listdir("/sys")), "dot": float(np.ones(100) @ np.ones(100)), "warnings": [str(x.message) for x in w]}))',
      ].join('\n')]);
      const { result, notebook } = await run(nb, opts());
      assert.equal(result.status, 'ok', result.message);
      const seen = JSON.parse(cellText(notebook, 0).trim().split('\n').pop()!);
      for (const name of hostIfaces) assert.ok(!seen.net.includes(name), `host interface ${name} visible: ${seen.net}`);
      // The machine's CPUs, or the ones this process may use when it is pinned (taskset, a cgroup
      // cpuset): bwrap's processes inherit the affinity, and os and joblib count it differently.
      const allowed = new Set([os.cpus().length, os.availableParallelism()]);
      assert.ok(allowed.has(seen.cpu), `os.cpu_count() ${seen.cpu}, expected one of ${[...allowed]}`);
      assert.ok(allowed.has(seen.joblib), `joblib.cpu_count() ${seen.joblib}, expected one of ${[...allowed]}`);
      assert.ok(seen.phys >= 1);
      assert.deepEqual(seen.par, [0, 1, 2, 3]);
      assert.equal(seen.dot, 100);
      assert.deepEqual(seen.warnings.filter((m: string) => /cpu|core/i.test(m)), [], 'no warning about CPU counts');
      if (kind === 'bwrap') assert.deepEqual(seen.sys, ['devices', 'kernel'], 'bwrap /sys holds only the CPU/NUMA topology and the hugepage setting');
    });
  });
}

describe('copy-out cap', { timeout: 300_000 }, () => {
  it('copies produced files up to the caps and records what it skipped, with the reason', async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-test-out-'));
    try {
      const nb = makeNotebook([[
        'def w(name, n):',
        '    open(name, "wb").write(b"y" * n)',
        'w("a.bin", 800_000); w("b.bin", 800_000); w("big.bin", 2_000_000); w("submission.csv", 10)',
        'import os; os.makedirs("sub", exist_ok=True); w("sub/c.bin", 100)',
      ].join('\n')]);
      const { result } = await runNotebook(nb, {
        sandbox: testSandboxRequest({ kind: 'bwrap', memoryMb: 2048, diskMb: QUOTA_MB }),
        timeoutS: 120,
        outDir,
        copyOutLimits: { maxFileBytes: 1_000_000, maxTotalBytes: 1_500_000 },
      });
      assert.equal(result.status, 'ok', result.message);
      const by = new Map(result.producedFiles.map((f) => [f.name, f]));
      assert.deepEqual([...by.keys()].sort(), ['a.bin', 'b.bin', 'big.bin', 'sub/c.bin', 'submission.csv']);
      assert.match(by.get('big.bin')!.notCopied ?? '', /per-file cap/);
      assert.match(by.get('b.bin')!.notCopied ?? '', /cap on all copied files/);
      for (const name of ['a.bin', 'submission.csv', 'sub/c.bin']) {
        assert.equal(by.get(name)!.notCopied, undefined);
        assert.ok(fs.existsSync(path.join(outDir, 'files', name)), name);
      }
      for (const name of ['b.bin', 'big.bin']) {
        assert.ok(!fs.existsSync(path.join(outDir, 'files', name)), name);
        assert.equal(by.get(name)!.path, undefined);
      }
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});

it('a run killed with SIGKILL leaves its quota mounted; the next sandbox sweeps it', { skip: !root && 'no quota filesystem without root', timeout: 300_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-test-kill-'));
  try {
    const nb = path.join(dir, 'loop.ipynb');
    fs.writeFileSync(nb, JSON.stringify(makeNotebook(['import time\nopen("x", "w").write("x")\nwhile True:\n    time.sleep(0.1)'])));
    let pid = 0;
    let cellRunning!: () => void;
    const started = new Promise<void>((r) => (cellRunning = r));
    const running = runCli(['run', nb, '--out-dir', path.join(dir, 'out'), '--sandbox', 'bwrap', '--disk', String(QUOTA_MB)], {
      onSpawn: (p) => (pid = p),
      onStderr: (text) => text.includes('cell 0') && cellRunning(),
    });
    await started;
    const mounts = quotaMounts(pid);
    assert.equal(mounts.length, 1, 'the run holds one quota filesystem');
    process.kill(pid, 'SIGKILL');
    await running;
    // --die-with-parent takes the sandbox down with the CLI, but nothing was left to unmount its quota.
    assert.deepEqual(quotaMounts(pid), mounts, 'left mounted by the killed run');
    assert.ok(!alive(pid));
    const next = await runNotebook(makeNotebook(['print(1)']), { sandbox: testSandboxRequest({ kind: 'bwrap', memoryMb: 2048, diskMb: QUOTA_MB }), timeoutS: 60 });
    assert.equal(next.result.status, 'ok', next.result.message);
    assert.deepEqual(quotaMounts(pid), [], 'swept by the next sandbox');
    assert.ok(!fs.existsSync(path.dirname(mounts[0])), 'its workspace removed');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('leaves no quota filesystem mounted once every sandbox (warm ones too) has stopped', () => {
  assert.deepEqual(quotaMounts(), []);
});

/**
 * The executor against real kernels in the real sandboxes (bwrap always; Docker when an engine
 * is reachable, and required under CI=true). Each case builds its own small notebook.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runNotebook, type RunOptions } from '../../src/executor/run-notebook.js';
import { validateNotebook } from '../../src/core/notebook-schema.js';
import { dockerReachable } from '../../src/executor/docker-engine.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook, cellText, MINI_DATA } from '../support/notebooks.js';
import { descendants, alive } from '../support/cli.js';
import { RunResult, type SandboxKind } from '../../src/core/run-result.js';

const backends: SandboxKind[] = ['bwrap'];
if (await dockerReachable()) backends.push('docker');

it('a Docker engine is reachable when running in CI (the docker cases must not be skipped there)', async () => {
  if (process.env.CI !== 'true') return;
  assert.ok(await dockerReachable(), 'CI=true but no Docker engine answers on /var/run/docker.sock; .ci/run starts dockerd');
});

function tmpOut(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-test-out-'));
}

for (const kind of backends) {
  describe(`executor in ${kind}`, { timeout: 600_000 }, () => {
    const opts = (o: Partial<RunOptions> = {}): RunOptions => ({
      sandbox: testSandboxRequest({ kind, data: MINI_DATA(), memoryMb: 2048 }),
      cellTimeoutS: 60,
      timeoutS: 120,
      ...o,
    });

    it('runs a clean notebook: outputs, magics, inline images, timings, memory, state, valid nbformat', async () => {
      const nb = makeNotebook([
        { markdown: '# a clean notebook' },
        '%matplotlib inline\nimport numpy as np\nimport pandas as pd\ndf = pd.read_csv("../input/train.csv")\nprint(df.shape)',
        'import time\ntime.sleep(0.3)\narr = np.zeros((300, 4))\nbig = np.ones(30_000_000)  # ~240 MB, shows in peak memory\ndel big\ndf.describe()',
        'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.title("x")',
      ]);
      const { result, notebook } = await runNotebook(nb, opts());
      assert.equal(result.status, 'ok', result.message);
      RunResult.parse(result); // the versioned schema holds
      assert.equal(result.sandbox, kind);
      assert.equal(result.environment.name, 'debian13');
      assert.match(result.environment.hash, /^[0-9a-f]{12}$/);
      assert.deepEqual(result.cells.map((c) => [c.index, c.status]), [[1, 'ok'], [2, 'ok'], [3, 'ok']]);
      assert.match(cellText(notebook, 1), /\(5, 4\)/);
      assert.ok(result.cells[1].durationMs! >= 300, `duration from kernel timestamps: ${result.cells[1].durationMs}`);
      assert.ok(result.cells[1].peakMemoryBytes! > result.cells[0].peakMemoryBytes! + 200e6, 'the 240 MB array shows in the cell peak');
      assert.ok(result.cells[2].peakMemoryBytes! < result.cells[1].peakMemoryBytes! - 100e6, 'peak is per cell (reset between cells)');
      const state = result.cells[1].state!;
      const df = state.variables.find((v) => v.name === 'df')!;
      assert.deepEqual(df.columns, ['PassengerId', 'Age', 'Fare', 'Survived']);
      assert.deepEqual(df.shape, [5, 4]);
      assert.deepEqual(state.variables.find((v) => v.name === 'arr')?.shape, [300, 4]);
      assert.ok(!state.variables.some((v) => v.name.startsWith('_')), 'hidden names stay hidden');
      const plotCell: any = notebook.cells[3];
      assert.ok(plotCell.outputs.some((o: any) => o.output_type === 'display_data' && o.data['image/png']), 'inline PNG kept');
      assert.ok(!JSON.stringify(notebook).includes('nbmodernize_probe'), 'the probe never shows in outputs');
      assert.equal(notebook.cells[0].cell_type, 'markdown');
      assert.equal((notebook.cells[1].metadata as any).papermill.status, 'completed');
      assert.deepEqual(validateNotebook(notebook), []);
    });

    it('stops at the first failing cell, or continues with allowErrors', async () => {
      const nb = makeNotebook(['x = 1', 'raise ValueError("boom")', 'y = x + 1\nprint(y)']);
      const stop = await runNotebook(nb, opts());
      assert.equal(stop.result.status, 'error');
      assert.deepEqual(stop.result.cells.map((c) => c.status), ['ok', 'error', 'not-run']);
      assert.equal(stop.result.error?.ename, 'ValueError');
      assert.equal(stop.result.error?.evalue, 'boom');
      assert.equal(stop.result.error?.cell, 1);
      assert.ok(!stop.result.error!.traceback.join('').includes('\u001b['), 'ANSI stripped in the result');
      const cont = await runNotebook(nb, opts({ allowErrors: true }));
      assert.equal(cont.result.status, 'error');
      assert.deepEqual(cont.result.cells.map((c) => c.status), ['ok', 'error', 'ok']);
      assert.equal(cellText(cont.notebook, 2).trim(), '2');
      // The kernel skips user expressions after an error; the probe then runs on its own.
      assert.equal(typeof cont.result.cells[1].peakMemoryBytes, 'number');
      assert.deepEqual(cont.result.cells[1].state?.variables.map((v) => v.name), ['x']);
      assert.deepEqual(cont.result.cells[2].state?.variables.map((v) => v.name), ['x', 'y']);
    });

    it('caps the numeric libraries\' threads when asked, and leaves them alone otherwise', async () => {
      const probe = makeNotebook([
        'import os, joblib, numpy, sklearn.cluster, xgboost\nfrom threadpoolctl import threadpool_info\n'
          + 'print(os.environ.get("OMP_NUM_THREADS"), joblib.cpu_count(), sorted({p["num_threads"] for p in threadpool_info()}))',
      ]);
      const capped = await runNotebook(probe, opts({ sandbox: testSandboxRequest({ kind, threads: 1 }) }));
      assert.equal(capped.result.status, 'ok', capped.result.message);
      assert.equal(cellText(capped.notebook, 0).trim(), '1 1 [1]');
      assert.equal(capped.result.sandboxInfo.limits.threads, 1);
      const free = await runNotebook(probe, opts({ sandbox: testSandboxRequest({ kind }) }));
      assert.match(cellText(free.notebook, 0).trim(), /^None \d+ \[/);
    });

    it('times out an infinite loop, interrupts it, and stops', async () => {
      const nb = makeNotebook(['n = 0', 'while True:\n    n += 1', 'print("never")']);
      const { result } = await runNotebook(nb, opts({ cellTimeoutS: 3 }));
      assert.equal(result.status, 'timeout');
      assert.deepEqual(result.cells.map((c) => c.status), ['ok', 'timeout', 'not-run']);
      assert.match(result.message!, /timed out after 3 s/);
    });

    it('replaces a kernel that ignores the interrupt', async () => {
      const nb = makeNotebook(['import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass']);
      const { result } = await runNotebook(nb, opts({ cellTimeoutS: 2 }));
      assert.equal(result.status, 'timeout');
      assert.match(result.message!, /ignored the interrupt/);
    });

    it('enforces the whole-notebook time budget', async () => {
      const nb = makeNotebook(['import time\ntime.sleep(1)', 'time.sleep(30)', 'print(1)']);
      const { result } = await runNotebook(nb, opts({ timeoutS: 4, cellTimeoutS: 60 }));
      assert.equal(result.status, 'budget-exceeded');
      assert.deepEqual(result.cells.map((c) => c.status), ['ok', 'budget-exceeded', 'not-run']);
    });

    it('detects a kernel killed mid-cell instead of hanging', async () => {
      const nb = makeNotebook(['x = 1', 'import os, signal, time\ntime.sleep(0.2)\nos.kill(os.getpid(), signal.SIGKILL)', 'print(x)']);
      const { result } = await runNotebook(nb, opts());
      assert.equal(result.status, 'kernel-died');
      assert.deepEqual(result.cells.map((c) => c.status), ['ok', 'kernel-died', 'not-run']);
      assert.match(result.message!, /kernel (died|was killed)/);
    });

    it('kills a kernel that exceeds the memory limit and says so', async () => {
      const nb = makeNotebook(['blob = b"x" * (1536 * 1024 * 1024)', 'print(len(blob))']);
      const { result } = await runNotebook(nb, opts({ sandbox: testSandboxRequest({ kind, data: MINI_DATA(), memoryMb: 600 }) }));
      assert.ok(['kernel-died', 'error'].includes(result.status), `status ${result.status}`);
      if (result.status === 'error') assert.equal(result.error?.ename, 'MemoryError');
      else assert.match(result.message!, /out of memory|kernel died/);
      assert.equal(result.sandboxInfo.limits.memoryMb, 600);
    });

    it('blocks the network, keeps root and data read-only, and leaks no host environment', async () => {
      process.env.OPENAI_API_KEY = 'sk-must-not-leak';
      const nb = makeNotebook([
        'import socket\nprint(sorted(n for _, n in socket.if_nameindex()))',
        // TEST-NET-2 (documentation range): never routed anywhere; without interfaces nothing is sent.
        'try:\n    socket.create_connection(("198.51.100.7", 80), timeout=3)\n    print("CONNECTED")\nexcept OSError as e:\n    print("blocked", type(e).__name__)',
        'import os\nres = []\nfor p in ["/usr/lib/x.txt", "/kaggle/input/new.csv", "/kaggle/input/mini-comp/train.csv", "/etc/passwd"]:\n    try:\n        open(p, "a").write("x")\n        res.append("WROTE " + p)\n    except OSError as e:\n        res.append("denied")\nprint(res)',
        'open("ok.txt", "w").write("fine")\nprint(os.getcwd(), os.getuid(), "OPENAI_API_KEY" in os.environ)',
      ]);
      try {
        const { result, notebook } = await runNotebook(nb, opts());
        assert.equal(result.status, 'ok', result.message);
        assert.equal(cellText(notebook, 0).trim(), "['lo']");
        assert.match(cellText(notebook, 1), /^blocked/);
        assert.equal(cellText(notebook, 2).trim(), "['denied', 'denied', 'denied', 'denied']");
        assert.equal(cellText(notebook, 3).trim(), '/kaggle/working 1000 False');
      } finally {
        delete process.env.OPENAI_API_KEY;
      }
    });

    it('resolves ../input/x.csv and /kaggle/input/<slug>/x.csv and brings submission.csv back', async () => {
      const out = tmpOut();
      const nb = makeNotebook([
        'import pandas as pd\na = pd.read_csv("../input/train.csv")\nb = pd.read_csv("/kaggle/input/mini-comp/train.csv")\nt = pd.read_csv("/kaggle/input/test.csv")\nprint(a.equals(b), len(t))',
        'pd.DataFrame({"PassengerId": t.PassengerId, "Survived": 0}).to_csv("submission.csv", index=False)',
      ]);
      const { result, notebook } = await runNotebook(nb, opts({ outDir: out }));
      assert.equal(result.status, 'ok', result.message);
      assert.equal(cellText(notebook, 0).trim(), 'True 2');
      assert.deepEqual(result.producedFiles.map((f) => f.name), ['submission.csv']);
      assert.equal(fs.readFileSync(path.join(out, 'files', 'submission.csv'), 'utf8'), 'PassengerId,Survived\n6,0\n7,0\n');
    });

    it('leaves excluded data entries (e.g. ground truth) out of every mount', async () => {
      const data = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-data-'));
      fs.writeFileSync(path.join(data, 'train.csv'), 'a\n1\n');
      fs.mkdirSync(path.join(data, 'ground_truth'));
      fs.writeFileSync(path.join(data, 'ground_truth', 'labels.csv'), 'secret\n');
      const nb = makeNotebook(['import os\nprint(sorted(os.listdir("/kaggle/input")), sorted(os.listdir("/kaggle/input/comp")), open("../input/comp/train.csv").read().split())']);
      const { result, notebook } = await runNotebook(nb, opts({ sandbox: testSandboxRequest({ kind, data: { dir: data, competition: 'comp', exclude: ['ground_truth'] } }) }));
      assert.equal(result.status, 'ok', result.message);
      assert.equal(cellText(notebook, 0).trim(), "['comp', 'train.csv'] ['train.csv'] ['a', '1']");
    });

    it('truncates huge outputs with a visible marker', async () => {
      const nb = makeNotebook(['print("x" * 1_000_000)\nprint("END")']);
      const { result, notebook } = await runNotebook(nb, opts());
      assert.equal(result.status, 'ok');
      assert.equal(result.cells[0].outputsTruncated, true);
      const text = cellText(notebook, 0);
      assert.ok(text.length < 250_000, `bounded: ${text.length}`);
      assert.match(text, /\[nbmodernize: \d+ characters of output truncated\]/);
      assert.match(text, /END\n$/);
    });
  });
}

it('leaves no sandbox processes or containers behind', async () => {
  // Only what this test process started: other nbmodernize runs on the machine are not ours to judge.
  const left = descendants(process.pid).filter(alive).map((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      return '';
    }
  }).filter((cmd) => /bwrap|jupyter_server|ipykernel/.test(cmd));
  assert.deepEqual(left, []);
  if (await dockerReachable()) {
    const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=io.nbmodernize.owner-pid=${process.pid}`], { encoding: 'utf8' }).trim();
    assert.equal(ids, '');
  }
});

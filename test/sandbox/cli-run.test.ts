/** `nbmodernize run` end to end through the compiled CLI: JSON contract, exit codes, nbformat 3, Ctrl-C cleanup. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, descendants, alive } from '../support/cli.js';
import { makeNotebook, MINI_DATA } from '../support/notebooks.js';
import { validateNotebook } from '../../src/core/notebook-schema.js';
import { dockerReachable } from '../../src/executor/docker-engine.js';
import { quotaMounts } from '../support/sandbox.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-clirun-'));
const write = (name: string, nb: unknown) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(nb));
  return p;
};

it('run --json prints the documented contract and writes the executed notebook and run-result.json', async () => {
  const nb = write('ok.ipynb', makeNotebook(['import pandas as pd\nprint(len(pd.read_csv("../input/train.csv")))', 'pd.DataFrame({"a": [1]}).to_csv("submission.csv")']));
  const out = path.join(dir, 'out-ok');
  const r = await runCli(['run', nb, '--data', MINI_DATA().dir, '--out-dir', out, '--sandbox', 'bwrap', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.equal(result.status, 'ok');
  assert.equal(result.sandbox, 'bwrap');
  assert.equal(result.environment.name, 'debian13');
  assert.deepEqual(result.cells.map((c: any) => [c.index, c.status, typeof c.durationMs]), [[0, 'ok', 'number'], [1, 'ok', 'number']]);
  const executed = JSON.parse(fs.readFileSync(path.join(out, 'ok.ipynb'), 'utf8'));
  assert.deepEqual(validateNotebook(executed), []);
  assert.equal(executed.cells[0].outputs[0].text.join?.('') ?? executed.cells[0].outputs[0].text, '5\n');
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'run-result.json'), 'utf8')).status, 'ok');
  assert.ok(fs.existsSync(path.join(out, 'files', 'submission.csv')));
  assert.equal(fs.readFileSync(nb, 'utf8'), JSON.stringify(makeNotebook(['import pandas as pd\nprint(len(pd.read_csv("../input/train.csv")))', 'pd.DataFrame({"a": [1]}).to_csv("submission.csv")'])), 'input untouched');
});

it('run exits 1 on a failing cell with the error in --json, 8 on a cell timeout', async () => {
  const bad = write('bad.ipynb', makeNotebook(['x = 1', 'import nonexistent_module']));
  const r = await runCli(['run', bad, '--out-dir', path.join(dir, 'out-bad'), '--sandbox', 'bwrap', '--json']);
  assert.equal(r.code, 1, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.equal(result.status, 'error');
  assert.deepEqual(result.cells[1].error.ename, 'ModuleNotFoundError');
  assert.match(result.cells[1].error.evalue, /nonexistent_module/);
  const slow = write('slow.ipynb', makeNotebook(['import time\ntime.sleep(60)']));
  const t = await runCli(['run', slow, '--out-dir', path.join(dir, 'out-slow'), '--sandbox', 'bwrap', '--cell-timeout', '2', '--json']);
  assert.equal(t.code, 8, t.stderr);
  assert.equal(JSON.parse(t.stdout).status, 'timeout');
});

it('run --disk MB: a write past the quota fails in its cell (exit 1) and the message names the quota', async () => {
  const nb = write('disk.ipynb', makeNotebook(['f = open("big.bin", "wb")\nfor _ in range(40):\n    f.write(b"x" * 1048576)\n    f.flush()']));
  const r = await runCli(['run', nb, '--out-dir', path.join(dir, 'out-disk'), '--sandbox', 'bwrap', '--disk', '20']);
  assert.equal(r.code, 1, r.stderr);
  const result = JSON.parse(fs.readFileSync(path.join(dir, 'out-disk', 'run-result.json'), 'utf8'));
  assert.equal(result.sandboxInfo.limits.diskMb, 20);
  assert.match(result.cells[0].error.evalue, /\[Errno (28|27)\]/);
  if (process.getuid?.() === 0) assert.match(r.stderr, /error: cell 0: OSError: \[Errno 28\] No space left on device \(the notebook's disk quota is full: 20 MB/);
  const bad = await runCli(['run', nb, '--sandbox', 'bwrap', '--disk', 'lots']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--disk must be a positive number/);
});

it('run converts an nbformat 3 notebook, says so, and executes it', async () => {
  const v3 = write('v3.ipynb', {
    nbformat: 3, nbformat_minor: 0, metadata: { name: 'v3' },
    worksheets: [{ cells: [{ cell_type: 'code', language: 'python', input: 'print(6 * 7)', outputs: [], metadata: {} }] }],
  });
  const r = await runCli(['run', v3, '--out-dir', path.join(dir, 'out-v3'), '--sandbox', 'bwrap', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /converted .*v3\.ipynb from nbformat 3 to nbformat 4/);
  const result = JSON.parse(r.stdout);
  assert.equal(result.notebook.originalFormat, 3);
  const executed = JSON.parse(fs.readFileSync(path.join(dir, 'out-v3', 'v3.ipynb'), 'utf8'));
  assert.equal(executed.nbformat, 4);
  assert.deepEqual(validateNotebook(executed), []);
});

for (const sandbox of ['bwrap', 'docker'] as const) {
  it(`SIGTERM during a run (${sandbox}) stops cleanly and leaves no processes or containers`, async (t) => {
    if (sandbox === 'docker' && !(await dockerReachable())) return t.skip('no Docker engine');
    const loop = write(`loop-${sandbox}.ipynb`, makeNotebook(['import time\nwhile True:\n    time.sleep(0.1)']));
    let pid = 0;
    let cellRunning!: () => void;
    const started = new Promise<void>((r) => (cellRunning = r));
    const running = runCli(['run', loop, '--out-dir', path.join(dir, `out-loop-${sandbox}`), '--sandbox', sandbox], {
      onSpawn: (p) => (pid = p),
      onStderr: (text) => text.includes('▶ [1/1] cell 0') && cellRunning(),
    });
    await started;
    await new Promise((r) => setTimeout(r, 500));
    const tree = descendants(pid);
    const containers = () => execFileSync('docker', ['ps', '-aq', '--filter', `label=io.nbmodernize.owner-pid=${pid}`], { encoding: 'utf8' }).trim();
    if (sandbox === 'bwrap') assert.ok(tree.length > 0, 'the sandbox runs under the CLI');
    else assert.notEqual(containers(), '', 'the container is up');
    process.kill(pid, 'SIGTERM');
    const r = await running;
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /SIGTERM received/);
    assert.deepEqual(tree.filter(alive), [], 'every process the run started is gone');
    assert.deepEqual(quotaMounts(pid), [], 'its quota filesystem is unmounted');
    if (sandbox === 'docker') {
      assert.equal(containers(), '');
    }
  });
}

function ps(): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
}

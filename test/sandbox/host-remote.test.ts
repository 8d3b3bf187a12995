/**
 * The host and remote backends against real Jupyter servers. This machine has no Jupyter of its
 * own, so "the user's Python" is the environment's python3 reached through a small bwrap wrapper
 * that shares the host's filesystem paths under /tmp and its network (loopback only is used).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runNotebook } from '../../src/executor/run-notebook.js';
import { findBuiltEnvironment } from '../../src/executor/environment/build.js';
import { testCacheDir, testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook, cellText, MINI_DATA } from '../support/notebooks.js';

function wrapperPython(dir: string): string {
  const env = findBuiltEnvironment('debian13', testCacheDir());
  assert.ok(env, 'environment built');
  const script = path.join(dir, 'python3');
  fs.writeFileSync(script, `#!/bin/sh
exec bwrap --ro-bind ${env.rootfs} / --proc /proc --dev /dev --bind /tmp /tmp \\
  --unshare-all --share-net --uid 1000 --gid 1000 --die-with-parent --setenv PATH /usr/bin:/bin python3 "$@"
`);
  fs.chmodSync(script, 0o755);
  return script;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('host backend', { timeout: 300_000 }, () => {
  it('runs a notebook with the Kaggle layout emulated and files brought back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-hostpy-'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-hostout-'));
    const python = wrapperPython(dir);
    // The wrapper only sees /tmp of the host, so the (tiny) fixture data goes there.
    const data = { dir: path.join(dir, 'mini-comp'), competition: 'mini-comp' };
    fs.cpSync(MINI_DATA().dir, data.dir, { recursive: true });
    const nb = makeNotebook([
      'import pandas as pd, os\ndf = pd.read_csv("../input/train.csv")\nalso = pd.read_csv("../input/mini-comp/test.csv")\nprint(len(df), len(also))',
      'df.head(2).to_csv("submission.csv", index=False)\nprint("OPENAI_API_KEY" in os.environ)',
    ]);
    process.env.OPENAI_API_KEY = 'sk-must-not-leak';
    try {
      const { result, notebook } = await runNotebook(nb, { sandbox: testSandboxRequest({ kind: 'host', python, data }), outDir: out });
      assert.equal(result.status, 'ok', result.message);
      assert.equal(result.sandbox, 'host');
      assert.equal(cellText(notebook, 0).trim(), '5 2');
      assert.equal(cellText(notebook, 1).trim(), 'False');
      assert.deepEqual(result.producedFiles.map((f) => f.name), ['submission.csv']);
      assert.match(result.environment.python ?? '', /^3\.13/);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });
});

describe('remote backend', { timeout: 300_000 }, () => {
  let server: ChildProcess;
  let port: number;
  const token = 'remote-test-token';
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-remote-'));
    const python = wrapperPython(dir);
    port = await freePort();
    server = spawn(python, ['-m', 'jupyter_server', `--ServerApp.port=${port}`, '--ServerApp.ip=127.0.0.1', '--ServerApp.port_retries=0',
      `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${dir}`, '--ServerApp.open_browser=False'], {
      stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir, JUPYTER_RUNTIME_DIR: path.join(dir, 'rt') }, detached: true,
    });
  });
  after(() => {
    try { process.kill(-server.pid!, 'SIGKILL'); } catch { /* gone */ }
  });

  it('runs a notebook on an existing Jupyter server over loopback', async () => {
    const nb = makeNotebook(['import sys\nprint(sys.version_info[:2] >= (3, 13))', 'x = [1, 2, 3]']);
    // The server may still be starting: the backend waits for it (up to 15 s).
    const { result, notebook } = await runNotebook(nb, { sandbox: testSandboxRequest({ kind: 'remote', url: `http://127.0.0.1:${port}/`, token }) });
    assert.equal(result.status, 'ok', result.message);
    assert.equal(result.sandbox, 'remote');
    assert.equal(cellText(notebook, 0).trim(), 'True');
    assert.deepEqual(result.cells[1].state?.variables.find((v) => v.name === 'x')?.length, 3);
  });

  it('reports a wrong token clearly', async () => {
    const nb = makeNotebook(['print(1)']);
    await assert.rejects(
      runNotebook(nb, { sandbox: testSandboxRequest({ kind: 'remote', url: `http://127.0.0.1:${port}/`, token: 'wrong' }) }),
      /refused us: .*403/,
    );
  });
});

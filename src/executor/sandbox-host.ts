/**
 * host backend: a Jupyter installation already on the machine (--python PATH), for users who
 * bring their own environment. No isolation beyond a private working dir; the Kaggle layout is
 * emulated with symlinks (../input/<file> and ../input/<competition>/ resolve from the cwd).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../core/errors.js';
import { dataMounts, linkDataIntoWorkDir } from './kaggle-layout.js';
import { jupyterServerArgs, makeWorkspace, newToken, sandboxEnv, spawnServer, threadEnv, waitForServerOrStop } from './server-process.js';
import type { Sandbox, SandboxRequest } from './types.js';

/** Ask the interpreter itself for what the run result should record. */
export function probeHostPython(python: string): { python: string; versions: Record<string, string> } | undefined {
  const script = `import json, sys, importlib.metadata as m
out = {'python': sys.version.split()[0], 'versions': {}, 'missing': []}
for d in ['jupyter_server', 'ipykernel', 'numpy', 'pandas', 'scikit-learn', 'scipy', 'matplotlib', 'seaborn', 'xgboost', 'statsmodels']:
    try: out['versions'][d] = m.version(d)
    except Exception: out['missing'].append(d)
print(json.dumps(out))`;
  const r = spawnSync(python, ['-c', script], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) return undefined;
  const parsed = JSON.parse(r.stdout.trim().split('\n').pop()!);
  if (parsed.missing.includes('jupyter_server') || parsed.missing.includes('ipykernel')) return undefined;
  return parsed;
}

export async function startHost(req: SandboxRequest, reason: string, signal?: AbortSignal): Promise<Sandbox> {
  const python = req.python ?? 'python3';
  const probe = probeHostPython(python);
  if (!probe) {
    throw new EnvironmentError(
      `${python} has no jupyter_server + ipykernel`,
      'install them into that interpreter (Debian: apt-get install jupyter-server python3-ipykernel) or pick another --python',
    );
  }
  const t0 = Date.now();
  const ws = makeWorkspace('host');
  const inputDir = path.join(ws.root, 'input');
  fs.mkdirSync(inputDir);
  if (req.data) {
    for (const m of dataMounts(req.data)) fs.symlinkSync(m.hostPath, path.join(inputDir, path.basename(m.target)));
  }
  if (req.data && req.dataNextToNotebook) linkDataIntoWorkDir(ws.workDir, req.data, (m) => m.hostPath);
  const token = newToken();
  const sock = path.join(ws.sockDir, 'js.sock');
  const home = path.join(ws.root, 'home');
  fs.mkdirSync(home);
  const tmp = path.join(ws.root, 'tmp');
  fs.mkdirSync(tmp);
  const env = sandboxEnv({
    ...threadEnv(req.threads),
    HOME: home,
    PATH: `${path.dirname(python)}:/usr/local/bin:/usr/bin:/bin`,
    TMPDIR: tmp,
    JUPYTER_RUNTIME_DIR: path.join(tmp, 'jupyter-runtime'),
    JUPYTER_DATA_DIR: path.join(tmp, 'jupyter-data'),
    IPYTHONDIR: path.join(tmp, 'ipython'),
    MPLCONFIGDIR: path.join(tmp, 'matplotlib'),
  });
  const args = jupyterServerArgs({ sock, token, rootDir: ws.workDir });
  // Jupyter refuses to run as root; on the user's own machine that is their call, not ours.
  if (process.getuid?.() === 0) args.push('--allow-root');
  const server = spawnServer(python, args, {
    logFile: path.join(ws.root, 'server.log'),
    env,
    cwd: ws.workDir,
  });
  const endpoint = { baseUrl: 'http://localhost/', token, socketPath: sock };
  const stop = async () => {
    await server.stop();
    ws.remove();
  };
  await waitForServerOrStop(endpoint, server, 60_000, signal, stop);
  return {
    kind: 'host',
    reason,
    endpoint,
    workDirHost: ws.workDir,
    workDirInside: ws.workDir,
    startMs: Date.now() - t0,
    limits: { network: 'host', readOnlyRoot: false, python },
    environment: { name: `host:${python}`, hash: 'unpinned', python: probe.python, versions: probe.versions },
    oomKilled: () => false,
    stop,
  };
}

/**
 * Starting and stopping a Jupyter server that runs as a local process tree (bwrap, host):
 * wait until it answers on its socket, fail fast with its log when it dies, and kill the whole
 * process group on stop (and, synchronously, on process exit, so Ctrl-C leaves nothing behind).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError } from '../core/errors.js';
import { log } from '../core/log.js';
import { mountDiskQuota, QUOTA_DIR, sweepOrphanQuotas, type DiskQuota } from './disk-quota.js';
import { JupyterClient } from './jupyter-client.js';
import type { JupyterEndpoint } from './types.js';

export function newToken(): string {
  return crypto.randomBytes(24).toString('hex');
}

/**
 * A private scratch dir per sandbox: sock/ for the server socket, working/ for /kaggle/working.
 * With a disk quota both sit on one size-limited filesystem (fs/, see disk-quota.ts): the
 * sandbox can write to either, and neither may fill the host's disk.
 */
export interface Workspace { root: string; sockDir: string; workDir: string; quota?: DiskQuota; remove(): void }

export function makeWorkspace(prefix: string, diskMb?: number): Workspace {
  if (diskMb !== undefined) sweepOrphanQuotas();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `nbm-${prefix}-`));
  // 0755: inside a user namespace the sandbox's uid maps back to ours and needs to traverse it.
  fs.chmodSync(root, 0o755);
  let base = root;
  let quota: DiskQuota | undefined;
  if (diskMb !== undefined) {
    base = path.join(root, QUOTA_DIR);
    fs.mkdirSync(base, { mode: 0o755 });
    quota = mountDiskQuota(root, base, diskMb);
  }
  const sockDir = path.join(base, 'sock');
  const workDir = path.join(base, 'working');
  fs.mkdirSync(sockDir);
  fs.mkdirSync(workDir);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    quota?.release();
    fs.rmSync(root, { recursive: true, force: true });
  };
  // A crash or second Ctrl-C must not leave a mount behind (a SIGKILL is swept on the next start).
  const unhook = quota && quota.mechanism !== 'none' ? onProcessExit(remove) : () => {};
  return {
    root,
    sockDir,
    workDir,
    ...(quota ? { quota } : {}),
    remove: () => {
      remove();
      unhook();
    },
  };
}

/** Synchronous last-resort cleanups run on process exit (a crash or a second Ctrl-C). */
const exitCleanups = new Set<() => void>();
let exitHookInstalled = false;
export function onProcessExit(fn: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const f of exitCleanups) {
        try { f(); } catch { /* best effort */ }
      }
    });
  }
  exitCleanups.add(fn);
  return () => exitCleanups.delete(fn);
}

export interface ServerProcess {
  child: ChildProcess;
  logFile: string;
  stop(): Promise<void>;
}

export function spawnServer(cmd: string, args: string[], opts: { logFile: string; env: NodeJS.ProcessEnv; cwd?: string }): ServerProcess {
  const out = fs.openSync(opts.logFile, 'a');
  // detached: own process group, so stop() can signal the whole tree.
  const child = spawn(cmd, args, { stdio: ['ignore', out, out], env: opts.env, cwd: opts.cwd, detached: true });
  fs.closeSync(out);
  const killGroup = (sig: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try { process.kill(-child.pid, sig); } catch { /* gone */ }
  };
  const unhook = onProcessExit(() => killGroup('SIGKILL'));
  let stopped: Promise<void> | undefined;
  return {
    child,
    logFile: opts.logFile,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise<void>((r) => child.once('exit', () => r()));
          killGroup('SIGTERM');
          const timer = new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref());
          const done = await Promise.race([exited.then(() => true), timer]);
          if (!done) {
            killGroup('SIGKILL');
            await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
          }
        }
        // Stragglers that left the group (setsid) are caught by the cgroup or the PID namespace.
        killGroup('SIGKILL');
        unhook();
      })();
      return stopped;
    },
  };
}

/** Poll until the server answers GET /api, or throw with the tail of its log. */
export async function waitForServer(endpoint: JupyterEndpoint, proc: ServerProcess | undefined, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const client = new JupyterClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      if (proc && (proc.child.exitCode !== null || proc.child.signalCode !== null)) {
        throw new EnvironmentError(`the Jupyter server exited during start-up (${proc.child.exitCode ?? proc.child.signalCode}): ${tail(proc.logFile)}`);
      }
      const socketReady = !endpoint.socketPath || fs.existsSync(endpoint.socketPath);
      if (socketReady && (await client.ping())) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new EnvironmentError(`the Jupyter server did not answer within ${timeoutMs / 1000}s${proc ? `: ${tail(proc.logFile)}` : ''}`);
  } finally {
    await client.close();
  }
}

/**
 * waitForServer for a server this process spawned: when it does not come up, its sandbox is torn
 * down (`stop`) before the error goes on, so a failed start leaves no process or workspace behind.
 */
export async function waitForServerOrStop(endpoint: JupyterEndpoint, proc: ServerProcess, timeoutMs: number, signal: AbortSignal | undefined, stop: () => Promise<void>): Promise<void> {
  try {
    await waitForServer(endpoint, proc, timeoutMs, signal);
  } catch (err) {
    await stop();
    throw err;
  }
}

export function tail(file: string, lines = 8): string {
  try {
    const text = fs.readFileSync(file, 'utf8').trim().split('\n');
    return text.slice(-lines).join(' | ');
  } catch {
    return '(no log)';
  }
}

/** Environment for a sandboxed server: nothing from the user's environment (no API keys) leaks in. */
export function sandboxEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nbm/home',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    // Fixed hash seed: set/dict-of-str iteration order is otherwise random per run (Py3.3+).
    PYTHONHASHSEED: '0',
    PYTHONDONTWRITEBYTECODE: '1',
    JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime',
    JUPYTER_DATA_DIR: '/tmp/jupyter-data',
    IPYTHONDIR: '/tmp/ipython',
    MPLCONFIGDIR: '/tmp/matplotlib',
    ...extra,
  };
}

/**
 * Thread caps for the numeric libraries a notebook loads (OpenMP: xgboost, sklearn; OpenBLAS /
 * MKL: numpy, scipy; numexpr: pandas; loky: joblib's n_jobs=-1). Several notebooks at once on
 * few cores otherwise each start one thread per core and fight over them (threads that spin while
 * waiting make it worse) — joblib caps its own workers' threads the same way (cores / n_jobs).
 */
export function threadEnv(threads: number | undefined): Record<string, string> {
  if (threads === undefined) return {};
  const n = String(Math.max(1, Math.floor(threads)));
  return {
    OMP_NUM_THREADS: n,
    OPENBLAS_NUM_THREADS: n,
    MKL_NUM_THREADS: n,
    NUMEXPR_NUM_THREADS: n,
    NUMEXPR_MAX_THREADS: n,
    LOKY_MAX_CPU_COUNT: n,
  };
}

/**
 * Where the fixed environment's kernelspecs live: Debian's python3-ipykernel installs python3 in the
 * first, environment.json adds python3-hashseed1 (the drift re-check's kernel) in the second.
 */
export const ENV_KERNEL_DIRS = ['/usr/share/jupyter/kernels', '/usr/local/share/jupyter/kernels'];
/** The server config file's name in the sandbox's socket dir (host-writable, mounted in the sandbox). */
export const SERVER_CONFIG_FILE = 'server_config.py';

/**
 * Config for a server in our own environment. Left to its default, jupyter_client computes the
 * kernelspec search path on the first kernel start by importing IPython (for ~/.ipython/kernels):
 * ~0.45 s of CPU in every sandbox's server, on the path to the kernel. The environment's kernelspec
 * dirs are known, so a KernelSpecManager that only searches those is used instead (`kernel_dirs`
 * itself is not configurable). A config file that fails to load is only a warning for the server.
 */
export function serverConfigSource(kernelDirs: string[]): string {
  return [
    'from jupyter_client.kernelspec import KernelSpecManager',
    'from traitlets import default',
    '',
    'class EnvKernelSpecManager(KernelSpecManager):',
    '    @default("kernel_dirs")',
    '    def _kernel_dirs_default(self):',
    `        return ${JSON.stringify(kernelDirs)}`,
    '',
    'c.ServerApp.kernel_spec_manager_class = EnvKernelSpecManager',
    '',
  ].join('\n');
}

export function jupyterServerArgs(opts: { sock?: string; port?: number; ip?: string; token: string; rootDir: string; configFile?: string }): string[] {
  const args = ['-m', 'jupyter_server', `--IdentityProvider.token=${opts.token}`, `--ServerApp.root_dir=${opts.rootDir}`,
    '--ServerApp.open_browser=False', '--ServerApp.terminals_enabled=False', '--ServerApp.log_level=WARN',
    // Kernels that die are restarted by the server; we still report the death (the executor watches for it).
    '--KernelRestarter.time_to_dead=1', '--KernelRestarter.restart_limit=1'];
  if (opts.configFile) args.push(`--config=${opts.configFile}`);
  if (opts.sock) args.push(`--ServerApp.sock=${opts.sock}`);
  if (opts.port !== undefined) args.push(`--ServerApp.port=${opts.port}`, `--ServerApp.ip=${opts.ip ?? '127.0.0.1'}`, '--ServerApp.port_retries=0');
  log.debug(`jupyter_server args: ${args.join(' ').replace(opts.token, '***')}`);
  return args;
}

/**
 * bubblewrap backend: the environment's rootfs read-only as /, every namespace unshared (no
 * network), uid 1000, a cgroup for memory/pids/CPU when the host allows one, the Jupyter server
 * on a Unix socket in a bind-mounted dir.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../core/log.js';
import { createCgroup } from './cgroup.js';
import { DEFAULT_DISK_MB, MIN_DISK_MB } from './disk-quota.js';
import { requireHostTool } from './environment/host-tools.js';
import { linkDataIntoWorkDir, dataMounts, KAGGLE_INPUT, KAGGLE_WORKING } from './kaggle-layout.js';
import { ENV_KERNEL_DIRS, SERVER_CONFIG_FILE, serverConfigSource, jupyterServerArgs, makeWorkspace, newToken, sandboxEnv, spawnServer, threadEnv, waitForServerOrStop, type ServerProcess, type Workspace } from './server-process.js';
import type { JupyterEndpoint, Sandbox, SandboxRequest } from './types.js';
import type { BuiltEnvironment } from './environment/build.js';

export const SOCK_DIR = '/nbm/sock';

export async function startBwrap(req: SandboxRequest, env: BuiltEnvironment, reason: string, signal?: AbortSignal): Promise<Sandbox> {
  const ws = makeWorkspace('bwrap', diskMbFor(req));
  if (req.data && req.dataNextToNotebook) linkDataIntoWorkDir(ws.workDir, req.data, (m) => m.target);
  const server = await launchBwrapServer(req, env, ws, ENV_KERNEL_DIRS, signal);
  log.info(`bwrap sandbox up in ${server.startMs} ms (${ws.root})`);
  return {
    kind: 'bwrap',
    reason,
    endpoint: server.endpoint,
    workDirHost: ws.workDir,
    workDirInside: KAGGLE_WORKING,
    startMs: server.startMs,
    limits: server.limits,
    environment: envSummary(env),
    killsAllOnStop: true,
    oomKilled: () => server.oomKills() > 0,
    stop: server.stop,
  };
}

/** A Jupyter server in a bwrap sandbox: what a one-notebook sandbox and a warm one share. */
export interface BwrapServer {
  endpoint: JupyterEndpoint;
  process: ServerProcess;
  startMs: number;
  limits: Record<string, number | string | boolean>;
  oomKills(): number;
  /** Kill the sandbox (every process in it), remove its cgroup and workspace; idempotent. */
  stop(): Promise<void>;
}

/**
 * Start the server in a new sandbox over ws (its sock dir at /nbm/sock, its working dir at
 * /kaggle/working), looking for kernelspecs in kernelDirs (inside the sandbox), and wait until it
 * answers; on failure nothing is left running.
 */
/** Processes per sandbox unless the request says otherwise (Docker's default here too). */
export const DEFAULT_PIDS = 512;

export async function launchBwrapServer(req: SandboxRequest, env: BuiltEnvironment, ws: Workspace, kernelDirs: string[], signal?: AbortSignal): Promise<BwrapServer> {
  const bwrap = requireHostTool('bwrap', 'bubblewrap');
  const t0 = Date.now();
  fs.writeFileSync(path.join(ws.sockDir, SERVER_CONFIG_FILE), serverConfigSource(kernelDirs));
  const token = newToken();
  const memoryBytes = req.memoryMb ? req.memoryMb * 1024 * 1024 : undefined;
  // A process cap by default, as in Docker: a fork bomb then fails in its cell instead of filling
  // the host's process table. Only through the cgroup: RLIMIT_NPROC (the fallback below) counts
  // every process of the host user, so it is applied only when asked for.
  const pids = req.pids ?? DEFAULT_PIDS;
  const cg = createCgroup(crypto.randomBytes(6).toString('hex'), { memoryBytes, pids, cpus: req.cpus });
  const diskMb = diskMbFor(req);
  const limits: Record<string, number | string | boolean> = { network: 'none', readOnlyRoot: true, uid: 1000, ...(req.threads ? { threads: req.threads } : {}), ...diskLimits(ws, diskMb) };
  const args = bwrapArgs(env.rootfs, ws, req.data, threadEnv(req.threads), diskMb * MB);
  // No quota filesystem here (not root): cap each file instead, so one runaway file still fails in its cell (EFBIG).
  const fsize = ws.quota?.mechanism === 'none' ? [`--fsize=${diskMb * MB}`] : [];
  args.push('python3', ...jupyterServerArgs({ sock: `${SOCK_DIR}/js.sock`, token, rootDir: KAGGLE_WORKING, configFile: `${SOCK_DIR}/${SERVER_CONFIG_FILE}` }));

  let cmd = bwrap;
  let argv = args;
  if (cg && cg.procsFiles.length) {
    // Join the cgroup before exec'ing bwrap, so every process of the sandbox is inside from the start.
    const joins = cg.procsFiles.map((f) => `echo $$ > '${f}'`).join(' && ');
    cmd = '/bin/sh';
    argv = ['-c', `${joins} && exec "$@"`, 'sh', ...(fsize.length ? [requireHostTool('prlimit', 'util-linux'), ...fsize] : []), bwrap, ...args];
    if (memoryBytes) limits.memoryMb = req.memoryMb!;
    limits.pids = pids;
    if (req.cpus) limits.cpus = req.cpus;
    limits.limitMechanism = `cgroup v${cg.version}`;
  } else if (memoryBytes) {
    // No cgroup here: cap each process's data segment instead (RLIMIT_AS would break BLAS's large reservations).
    cmd = requireHostTool('prlimit', 'util-linux');
    argv = [`--data=${memoryBytes}`, ...(req.pids ? [`--nproc=${req.pids}`] : []), ...fsize, bwrap, ...args];
    limits.memoryMb = req.memoryMb!;
    limits.limitMechanism = 'rlimit (per process)';
  } else if (fsize.length) {
    cmd = requireHostTool('prlimit', 'util-linux');
    argv = [...fsize, bwrap, ...args];
  }
  const server = spawnServer(cmd, argv, { logFile: path.join(ws.root, 'server.log'), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  const endpoint = { baseUrl: 'http://localhost/', token, socketPath: path.join(ws.sockDir, 'js.sock') };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
    cg?.destroy();
    ws.remove();
  };
  await waitForServerOrStop(endpoint, server, 60_000, signal, stop);
  return { endpoint, process: server, startMs: Date.now() - t0, limits, oomKills: () => cg?.oomKills() ?? 0, stop };
}

/**
 * The sandbox itself, without the command: read-only rootfs, private size-limited /tmp, HOME and
 * /dev/shm, a minimal /sys, the socket and working dirs, the Kaggle data mounts, every namespace
 * unshared, uid 1000, a clean env. Exported so the benchmark runs the reference executor in exactly
 * the same sandbox.
 */
export function bwrapArgs(rootfs: string, ws: { sockDir: string; workDir: string }, data?: SandboxRequest['data'], extraEnv: Record<string, string> = {}, scratchBytes = DEFAULT_DISK_MB * MB): string[] {
  const size = ['--size', String(scratchBytes)];
  const args = ['--ro-bind', rootfs, '/', '--proc', '/proc', '--dev', '/dev', ...size, '--tmpfs', '/dev/shm', ...minimalSys(),
    ...size, '--tmpfs', '/tmp', ...size, '--tmpfs', '/nbm/home',
    '--bind', ws.sockDir, SOCK_DIR, '--bind', ws.workDir, KAGGLE_WORKING];
  if (data) {
    // /kaggle/input is read-only in the rootfs, so a tmpfs makes room for the mount points, then goes read-only too.
    args.push('--tmpfs', KAGGLE_INPUT);
    for (const m of dataMounts(data)) args.push('--ro-bind', m.hostPath, m.target);
    args.push('--remount-ro', KAGGLE_INPUT);
  }
  args.push('--unshare-all', '--uid', '1000', '--gid', '1000', '--die-with-parent', '--new-session', '--chdir', KAGGLE_WORKING, '--clearenv');
  for (const [k, v] of Object.entries(sandboxEnv(extraEnv))) args.push('--setenv', k, v);
  return args;
}

/**
 * Only the parts of the host's /sys that the numeric stack reads, read-only: the CPU topology
 * (os.cpu_count() does not need it, but lscpu, OpenBLAS and joblib/loky do; without it loky warns
 * in every notebook), NUMA nodes (torch) and the transparent-hugepage setting (allocators). The
 * rest (network interfaces, block devices, PCI hardware, the host's cgroup tree) stays hidden, as
 * in Docker, whose /sys belongs to the container's own network namespace.
 */
export const SYS_PATHS = ['/sys/devices/system/cpu', '/sys/devices/system/node', '/sys/kernel/mm/transparent_hugepage'];
function minimalSys(): string[] {
  const args = ['--tmpfs', '/sys'];
  for (const p of SYS_PATHS) args.push('--ro-bind-try', p, p);
  args.push('--remount-ro', '/sys');
  return args;
}

const MB = 1024 * 1024;

/** The request's quota for what the notebook writes (`--disk`), defaulted. */
export function diskMbFor(req: SandboxRequest): number {
  return Math.max(MIN_DISK_MB, Math.floor(req.diskMb ?? DEFAULT_DISK_MB));
}

/** How the quota is enforced, for the run record. */
export function diskLimits(ws: Workspace, diskMb: number): Record<string, number | string> {
  const mechanism = ws.quota?.mechanism ?? 'none';
  return { diskMb, diskMechanism: mechanism === 'none' ? 'per-file rlimit (total not enforced)' : mechanism };
}

export function envSummary(env: BuiltEnvironment): Sandbox['environment'] {
  const versions: Record<string, string> = {};
  for (const [k, v] of Object.entries(env.versions?.pythonModules ?? {})) if (v) versions[k] = v;
  return { name: env.name, hash: env.hash, python: env.versions?.python, versions };
}

/**
 * A warm bwrap sandbox: one Jupyter server that serves notebooks one after another, so a batch
 * pays the server's start-up (~0.55 s of CPU: importing jupyter_server) once per worker instead
 * of once per notebook. On a machine whose cores are all busy, that CPU is throughput.
 *
 * Isolation stays per notebook. Each notebook gets a lease: its own working dir, and its kernel
 * starts through a kernelspec that wraps it in a nested bubblewrap mount namespace with a fresh
 * /tmp and HOME, that working dir at /kaggle/working, and the server's own dir (socket, token,
 * other notebooks' dirs) hidden. Ending a lease kills every process the notebook left behind (the
 * host sweeps the sandbox's process tree) and removes its working dir before the next lease.
 *
 * What is shared with the server: the PID namespace (the inner sandbox cannot mount a /proc of its
 * own under the outer one's masks), the network namespace (empty: loopback only) and the
 * memory cgroup (one notebook at a time, so the limit is still the notebook's). Interrupts go as
 * messages (interrupt_mode "message"): the server's SIGINT would reach bwrap, not the kernel.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../core/errors.js';
import { log } from '../core/log.js';
import { JupyterClient } from './jupyter-client.js';
import { KAGGLE_WORKING, linkDataIntoWorkDir } from './kaggle-layout.js';
import { commandLine, descendants, isRunning, processId, sweepDescendants } from './process-tree.js';
import { diskMbFor, envSummary, launchBwrapServer, SOCK_DIR, type BwrapServer } from './sandbox-bwrap.js';
import { ENV_KERNEL_DIRS, makeWorkspace } from './server-process.js';
import { DEFAULT_KERNEL, RESEEDED_KERNEL } from './kernel-session.js';
import type { BuiltEnvironment } from './environment/build.js';
import type { Sandbox, SandboxRequest } from './types.js';

export interface WarmSandbox {
  /** Which requests it can serve: same environment, data mount and limits (see warmKey). */
  readonly key: string;
  /** A sandbox for one notebook; stop() ends the lease (the warm sandbox stays up). */
  lease(): Promise<Sandbox>;
  /** False once the server died or a lease could not be cleaned up: start another one. */
  usable(): boolean;
  stop(): Promise<void>;
}

/** Requests that may share a warm sandbox: everything mounted or limited must be the same. */
export function warmKey(req: SandboxRequest): string {
  return JSON.stringify([req.kind, req.environment, req.cacheDir, req.data ? [path.resolve(req.data.dir), req.data.competition, [...(req.data.exclude ?? [])].sort()] : null,
    req.dataNextToNotebook ?? false, req.memoryMb ?? null, req.cpus ?? null, req.pids ?? null, req.threads ?? null, diskMbFor(req)]);
}

const LEASE_FILE = 'lease';
const JOBS_DIR = 'jobs';
const KERNELS_DIR = 'kernels';
/** The environment's kernelspecs a warm sandbox offers (python3 must exist; the re-seeded one is optional). */
const WRAPPED_KERNELS = [DEFAULT_KERNEL, RESEEDED_KERNEL];
/** Where the kernel reads its connection file inside its own namespace. */
const INNER_CONNECTION_FILE = `${SOCK_DIR}/kernel.json`;

/**
 * One of the environment's kernelspecs (`python3`, or the re-seeded `python3-hashseed1`), rewritten
 * to start the kernel in a nested sandbox; the spec's own `env` is kept (the launcher and the nested
 * kernel inherit it). Undefined when the environment has no such spec.
 */
function wrappedKernelspec(env: BuiltEnvironment, name: string, launcher: string): { spec: object; innerArgv: string[] } | undefined {
  const file = ENV_KERNEL_DIRS.map((d) => path.join(env.rootfs, d, name, 'kernel.json')).find((f) => fs.existsSync(f));
  if (!file) return undefined;
  const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
  const innerArgv = (spec.argv as string[]).map((a) => a.replace('{connection_file}', INNER_CONNECTION_FILE));
  return { spec: { ...spec, argv: ['/bin/sh', launcher, '{connection_file}'], interrupt_mode: 'message' }, innerArgv };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The kernel's launcher: reads which notebook holds the lease, then execs the kernel in its own
 * namespace. /tmp and HOME are tmpfs capped at the disk quota, like the outer sandbox's; the
 * working dir (the lease's job dir) is on the workspace's quota filesystem.
 */
function launcherScript(innerArgv: string[], scratchBytes: number): string {
  return [
    '#!/bin/sh',
    '# Written by nbmodernize (sandbox-warm.ts): the kernel of the notebook that holds the lease, in its',
    '# own mount namespace: fresh /tmp and HOME, its working dir, the server\'s dir hidden.',
    `lease=$(cat ${SOCK_DIR}/${LEASE_FILE} 2>/dev/null) || { echo "nbmodernize: no notebook holds this sandbox" >&2; exit 1; }`,
    'exec bwrap --ro-bind / / --bind /proc /proc --dev-bind /dev /dev \\',
    `  --size ${scratchBytes} --tmpfs /tmp --size ${scratchBytes} --tmpfs /nbm/home --tmpfs ${SOCK_DIR} \\`,
    `  --bind "${SOCK_DIR}/${JOBS_DIR}/$lease" ${KAGGLE_WORKING} --ro-bind "$1" ${INNER_CONNECTION_FILE} \\`,
    `  --die-with-parent --chdir ${KAGGLE_WORKING} \\`,
    `  ${innerArgv.map(shellQuote).join(' ')}`,
    '',
  ].join('\n');
}

export async function startWarmBwrap(req: SandboxRequest, env: BuiltEnvironment, reason: string, signal?: AbortSignal): Promise<WarmSandbox> {
  if (!fs.existsSync(path.join(env.rootfs, 'usr/bin/bwrap'))) {
    throw new EnvironmentError(`environment ${env.name} (${env.hash}) has no bubblewrap for per-notebook namespaces`, 'rebuild it: nbmodernize env build');
  }
  const diskMb = diskMbFor(req);
  const ws = makeWorkspace('warm', diskMb);
  const jobsDir = path.join(ws.sockDir, JOBS_DIR);
  fs.mkdirSync(jobsDir, { mode: 0o755 });
  for (const name of WRAPPED_KERNELS) {
    const launcher = `${SOCK_DIR}/${KERNELS_DIR}/${name}/launch.sh`;
    const wrapped = wrappedKernelspec(env, name, launcher);
    if (!wrapped) {
      if (name === DEFAULT_KERNEL) throw new EnvironmentError(`environment ${env.name} (${env.hash}) has no python3 kernelspec`, 'rebuild it: nbmodernize env build');
      continue;
    }
    const specDir = path.join(ws.sockDir, KERNELS_DIR, name);
    fs.mkdirSync(specDir, { recursive: true });
    fs.writeFileSync(path.join(specDir, 'kernel.json'), JSON.stringify(wrapped.spec, null, 1));
    fs.writeFileSync(path.join(specDir, 'launch.sh'), launcherScript(wrapped.innerArgv, diskMb * 1024 * 1024));
  }

  const server: BwrapServer = await launchBwrapServer(req, env, ws, [`${SOCK_DIR}/${KERNELS_DIR}`], signal);
  const root = server.process.child.pid!;
  // Found once, before any notebook runs: later, a notebook could start a look-alike.
  // (The sandbox's own bwrap and shell carry the server's command line in theirs: match argv[0] too.)
  const serverPid = descendants(root).find((p) => /^\S*python3?\S* (.* )?-m jupyter_server\b/.test(commandLine(p.pid)))?.pid;
  if (serverPid === undefined) {
    await server.stop();
    throw new EnvironmentError('the warm sandbox\'s Jupyter server could not be found in its process tree');
  }
  const serverId = processId(serverPid);
  log.info(`warm bwrap sandbox up in ${server.startMs} ms (${ws.root})`);

  let broken = false;
  let leases = 0;
  /** The outstanding lease's end: the next lease waits for it (one notebook at a time). */
  let previous: Promise<void> = Promise.resolve();
  let markStopped!: () => void;
  const stopped = new Promise<void>((r) => (markStopped = r));
  // The server itself, not only our child (bwrap): a notebook's run can fail on the server's
  // closed socket before Node has seen bwrap exit, and must then be told the server died.
  const alive = () => server.process.child.exitCode === null && server.process.child.signalCode === null && serverId !== undefined && isRunning(serverId);
  const leaseFile = path.join(ws.sockDir, LEASE_FILE);

  const endLease = async (n: number, jobDir: string): Promise<void> => {
    if (fs.existsSync(leaseFile) && fs.readFileSync(leaseFile, 'utf8') === String(n)) fs.rmSync(leaseFile, { force: true });
    const client = new JupyterClient(server.endpoint);
    try {
      // Kill first, then tell the server: a shutdown request to a live kernel waits for it to exit.
      // Repeat while the server still lists kernels: its restarter may be relaunching one it saw die.
      for (let attempt = 0; ; attempt++) {
        sweepDescendants(root, (p) => p.pid === serverPid);
        if (!alive()) throw new Error('the server died');
        const left = await client.kernelIds();
        if (!left.length) break;
        if (attempt === 40) throw new Error(`kernels still held by the server: ${left.join(', ')}`);
        if (attempt) await new Promise((r) => setTimeout(r, 50));
        await Promise.all(left.map((id) => client.deleteKernel(id).catch(() => undefined)));
      }
    } catch (err) {
      broken = true;
      log.warn(`warm sandbox ${ws.root} is not reused: ${(err as Error).message}`);
    } finally {
      await client.close();
      fs.rmSync(jobDir, { recursive: true, force: true });
    }
  };

  return {
    key: warmKey(req),
    usable: () => !broken && alive(),
    lease: async () => {
      // Leases are handed out one at a time, in call order: each waits for the one before to end.
      const before = previous;
      let release!: () => void;
      previous = new Promise<void>((r) => (release = r));
      await Promise.race([before, stopped]);
      if (broken || !alive()) {
        release();
        throw new EnvironmentError('the warm sandbox is no longer usable');
      }
      const t0 = Date.now();
      const n = ++leases;
      const jobDir = path.join(jobsDir, String(n));
      try {
        fs.mkdirSync(jobDir, { mode: 0o755 });
        if (req.data && req.dataNextToNotebook) linkDataIntoWorkDir(jobDir, req.data, (m) => m.target);
        fs.writeFileSync(leaseFile, String(n));
      } catch (err) {
        void endLease(n, jobDir).finally(release);
        throw err;
      }
      const oomBefore = server.oomKills();
      let ended: Promise<void> | undefined;
      return {
        kind: 'bwrap',
        reason: `${reason}; warm sandbox (notebook ${n} in it, in its own mount namespace)`,
        endpoint: server.endpoint,
        workDirHost: jobDir,
        workDirInside: KAGGLE_WORKING,
        startMs: Date.now() - t0,
        limits: { ...server.limits, warm: true },
        environment: envSummary(env),
        killsAllOnStop: true,
        oomKilled: () => server.oomKills() > oomBefore,
        stop: () => (ended ??= endLease(n, jobDir).finally(release)),
      };
    },
    stop: () => {
      broken = true;
      markStopped();
      return server.stop();
    },
  };
}

/**
 * The one module that imports dockerode. Talks to the local engine over its Unix socket only
 * (never TCP: the network rule allows loopback and Unix sockets, nothing else).
 */
import Docker from 'dockerode';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const DEFAULT_SOCKET = '/var/run/docker.sock';

export function dockerClient(socketPath = DEFAULT_SOCKET): Docker {
  return new Docker({ socketPath });
}

/** True when a Docker engine answers on its Unix socket within a short time. */
export async function dockerReachable(socketPath = DEFAULT_SOCKET, timeoutMs = 2000): Promise<boolean> {
  if (!fs.existsSync(socketPath)) return false;
  try {
    await Promise.race([
      dockerClient(socketPath).ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}

export async function imageExists(tag: string, socketPath = DEFAULT_SOCKET): Promise<boolean> {
  try {
    await dockerClient(socketPath).getImage(tag).inspect();
    return true;
  } catch {
    return false;
  }
}

/**
 * `tar -C rootfs -c . | docker import - tag`, streamed (no temporary tarball). There is no
 * registry to pull from, so the image is made from the same rootfs every backend uses.
 */
export async function importRootfsImage(rootfs: string, repo: string, tag: string, socketPath = DEFAULT_SOCKET): Promise<void> {
  const docker = dockerClient(socketPath);
  const tar = spawn('tar', ['--numeric-owner', '-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tarErr = '';
  tar.stderr.on('data', (d) => (tarErr += d));
  const tarDone = new Promise<void>((resolve, reject) => {
    tar.on('error', reject);
    tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}: ${tarErr.trim()}`))));
  });
  const stream = await docker.importImage(tar.stdout as any, { repo, tag });
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (err: Error | null) => (err ? reject(err) : resolve()));
  });
  await tarDone;
}

export type { Docker };

export interface ContainerSpec {
  image: string;
  cmd: string[];
  env: Record<string, string>;
  workingDir: string;
  user: string;
  binds: Array<{ hostPath: string; target: string; readOnly: boolean }>;
  tmpfs: Record<string, string>;
  memoryBytes?: number;
  cpus?: number;
  pids?: number;
  /** Per-file size cap (RLIMIT_FSIZE), for when no quota filesystem backs the working dir. */
  fsizeBytes?: number;
  labels: Record<string, string>;
}

export interface RunningContainer {
  id: string;
  /** True when the engine reports an OOM kill inside the container. */
  oomKilled(): Promise<boolean>;
  running(): Promise<boolean>;
  logs(): Promise<string>;
  remove(): Promise<void>;
}

export const OWNER_LABEL = 'io.nbmodernize.owner-pid';

/** A container with no network, a read-only root and hard limits; the caller removes it. */
export async function startContainer(spec: ContainerSpec, socketPath = DEFAULT_SOCKET): Promise<RunningContainer> {
  const docker = dockerClient(socketPath);
  const container = await docker.createContainer({
    Image: spec.image,
    Cmd: spec.cmd,
    Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
    WorkingDir: spec.workingDir,
    User: spec.user,
    Labels: spec.labels,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Binds: spec.binds.map((b) => `${b.hostPath}:${b.target}:${b.readOnly ? 'ro' : 'rw'}`),
      Tmpfs: spec.tmpfs,
      Memory: spec.memoryBytes,
      MemorySwap: spec.memoryBytes, // equal to Memory: no swap, so the limit is a real limit
      NanoCpus: spec.cpus ? Math.round(spec.cpus * 1e9) : undefined,
      PidsLimit: spec.pids,
      ...(spec.fsizeBytes ? { Ulimits: [{ Name: 'fsize', Soft: spec.fsizeBytes, Hard: spec.fsizeBytes }] } : {}),
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
    },
  });
  const remove = async () => {
    await container.remove({ force: true }).catch((err: any) => {
      if (err?.statusCode !== 404 && err?.statusCode !== 409) throw err;
    });
  };
  try {
    await container.start();
  } catch (err) {
    await remove().catch(() => undefined);
    throw err;
  }
  return {
    id: container.id,
    oomKilled: async () => {
      try {
        return Boolean((await container.inspect()).State?.OOMKilled);
      } catch {
        return false;
      }
    },
    running: async () => {
      try {
        return Boolean((await container.inspect()).State?.Running);
      } catch {
        return false;
      }
    },
    logs: async () => {
      try {
        const buf = (await container.logs({ stdout: true, stderr: true, tail: 20 })) as unknown as Buffer;
        // Strip the 8-byte multiplexing headers docker puts before each frame.
        return buf.toString('utf8').replace(/[\x00-\x08]/g, '');
      } catch {
        return '';
      }
    },
    remove,
  };
}

/** Remove containers left behind by nbmodernize processes that no longer exist (e.g. after kill -9). */
export async function removeOrphanContainers(socketPath = DEFAULT_SOCKET): Promise<number> {
  const docker = dockerClient(socketPath);
  const list = await docker.listContainers({ all: true, filters: { label: [OWNER_LABEL] } });
  let removed = 0;
  for (const c of list) {
    const pid = Number(c.Labels?.[OWNER_LABEL]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch { /* owner gone */ }
    if (!alive || !Number.isFinite(pid)) {
      await docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined);
      removed += 1;
    }
  }
  return removed;
}

/** Synchronous removal for process-exit hooks, where no promise can run. */
export function removeContainerSync(id: string): void {
  spawnSync('docker', ['rm', '-f', id], { stdio: 'ignore', timeout: 10_000 });
}

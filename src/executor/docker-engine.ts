/**
 * The one module that imports dockerode. Talks to the local engine over its Unix socket only
 * (never TCP: the network rule allows loopback and Unix sockets, nothing else).
 */
import Docker from 'dockerode';
import { spawn } from 'node:child_process';
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

/**
 * A size-limited filesystem for what a notebook writes (its working dir, and the sandbox's socket
 * dir, which it can also see), mounted on the host side so the host can read the results and
 * then bind-mounted into the sandbox. A write past the limit fails in the notebook's own cell
 * with ENOSPC; the host's disk is untouched beyond it.
 *
 * Mechanisms, strongest first:
 *  - loop ext4: a sparse image file formatted and loop-mounted (needs root and a loop device).
 *    Disk-backed: a 2 GiB quota costs no memory.
 *  - tmpfs: a size-limited tmpfs (needs root; memory-backed, charged to the writer's cgroup).
 *  - none: not root here. The sandbox then caps each file's size instead (RLIMIT_FSIZE), which
 *    bounds one runaway file but not many; a warning says so.
 * The image is unlinked once mounted, so nothing is left on disk when the mount goes; a mount left
 * behind by a killed process is swept on the next start (its owner's pid is recorded beside it).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log } from '../core/log.js';
import { findHostTool } from './environment/host-tools.js';
import { pidAlive } from './environment/cache.js';

/** Default quota for what a notebook writes (`--disk MB`). */
export const DEFAULT_DISK_MB = 2048;
/** Below this an ext4 filesystem is mostly metadata. */
export const MIN_DISK_MB = 8;

export type QuotaMechanism = 'loop ext4' | 'tmpfs' | 'none';

export interface DiskQuota {
  mechanism: QuotaMechanism;
  mb: number;
  /** Unmount (lazily when still busy); idempotent. */
  release(): void;
}

/** The file beside a workspace's mount point that names the process that owns it. */
export const OWNER_FILE = 'owner.pid';
/** The mount point's name inside a workspace root. */
export const QUOTA_DIR = 'fs';

let warned = false;

/**
 * Mount a filesystem of `mb` MiB at `dir` (an empty dir inside `root`, which holds the image while
 * it is formatted). Falls back as described above; never throws for a missing mechanism.
 */
export function mountDiskQuota(root: string, dir: string, mb: number): DiskQuota {
  const bytes = Math.max(MIN_DISK_MB, Math.floor(mb)) * 1024 * 1024;
  const none: DiskQuota = { mechanism: 'none', mb, release: () => {} };
  if (process.getuid?.() !== 0) {
    warnOnce(`no working-dir quota filesystem (mounting one needs root; running as uid ${process.getuid?.()}): each file a notebook writes is capped at ${mb} MB, their total is not`);
    return none;
  }
  fs.writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  const loopError = mountLoopExt4(root, dir, bytes);
  if (loopError === undefined) return mounted('loop ext4', dir, mb);
  const tmpfs = run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755,nosuid,nodev`, 'nbm-quota', dir]);
  if (tmpfs === undefined) {
    warnOnce(`working-dir quota: no loop-mounted ext4 (${loopError}); using a size-limited tmpfs, which counts against the sandbox's memory`);
    return mounted('tmpfs', dir, mb);
  }
  warnOnce(`no working-dir quota filesystem (loop ext4: ${loopError}; tmpfs: ${tmpfs}): each file a notebook writes is capped at ${mb} MB, their total is not`);
  return none;
}

function mountLoopExt4(root: string, dir: string, bytes: number): string | undefined {
  const mkfs = findHostTool('mkfs.ext4') ?? (fs.existsSync('/sbin/mkfs.ext4') ? '/sbin/mkfs.ext4' : undefined);
  if (!mkfs) return 'mkfs.ext4 not found (e2fsprogs)';
  if (!fs.existsSync('/dev/loop-control')) return 'no /dev/loop-control';
  const image = path.join(root, 'fs.img');
  try {
    fs.writeFileSync(image, '');
    fs.truncateSync(image, bytes);
    // No journal and no reserved blocks: a throwaway filesystem whose whole size is the notebook's.
    const err = run(mkfs, ['-q', '-F', '-m', '0', '-O', '^has_journal', '-E', 'lazy_itable_init=1,nodiscard', image])
      ?? run('mount', ['-o', 'loop,nosuid,nodev', image, dir]);
    return err;
  } finally {
    // The loop device keeps the image alive; unmounting (autoclear) frees it with nothing left on disk.
    fs.rmSync(image, { force: true });
  }
}

function mounted(mechanism: QuotaMechanism, dir: string, mb: number): DiskQuota {
  fs.chmodSync(dir, 0o755);
  fs.rmSync(path.join(dir, 'lost+found'), { recursive: true, force: true });
  let released = false;
  return {
    mechanism,
    mb,
    release: () => {
      if (released) return;
      released = true;
      unmount(dir);
    },
  };
}

function unmount(dir: string): void {
  // Lazy when busy (a process of the sandbox still dying): detached now, freed when the last one exits.
  if (run('umount', [dir]) === undefined) return;
  const err = run('umount', ['-l', dir]);
  if (err) log.warn(`could not unmount the quota filesystem ${dir}: ${err}`);
}

/** Undefined on success, else a one-line reason. */
function run(cmd: string, args: string[]): string | undefined {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  if (r.error) return r.error.message;
  if (r.status !== 0) return (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n')[0];
  return undefined;
}

function warnOnce(msg: string): void {
  if (warned) return;
  warned = true;
  log.warn(msg);
}

/**
 * Unmount and remove workspaces whose owning process is gone (it was killed before it could clean
 * up): their mounts are found in /proc/self/mountinfo under the temp dir. Others' are left alone.
 */
export function sweepOrphanQuotas(tmpRoot = os.tmpdir()): void {
  let info: string;
  try {
    info = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return;
  }
  const prefix = path.join(tmpRoot, 'nbm-');
  for (const line of info.split('\n')) {
    const mountPoint = line.split(' ')[4]?.replace(/\\040/g, ' ');
    if (!mountPoint?.startsWith(prefix) || path.basename(mountPoint) !== QUOTA_DIR) continue;
    const root = path.dirname(mountPoint);
    if (path.dirname(root) !== tmpRoot) continue;
    const owner = Number(readOr(path.join(root, OWNER_FILE), ''));
    if (!Number.isInteger(owner) || owner <= 0 || pidAlive(owner)) continue;
    log.info(`removing the quota filesystem of a sandbox whose process (${owner}) is gone: ${root}`);
    unmount(mountPoint);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** Errno 28 (ENOSPC) or 27 (EFBIG, the per-file cap) as a Python exception's message shows it. */
export function isDiskFullError(evalue: string | undefined): boolean {
  return !!evalue && /\[Errno (28|27)\]|No space left on device|File too large/.test(evalue);
}

/**
 * What to add to a cell's error message when it ran out of the sandbox's disk quota, so the record
 * says why a write failed (the host's disk is not full, the notebook's quota is); '' otherwise.
 */
export function diskFullNote(evalue: string | undefined, limits: Record<string, unknown>): string {
  if (!isDiskFullError(evalue) || limits.diskMb === undefined) return '';
  if (/\[Errno 27\]|File too large/.test(evalue!)) return ` (a file reached the sandbox's per-file cap of ${limits.diskMb} MB, its disk quota)`;
  return ` (the notebook's disk quota is full: ${limits.diskMb} MB for its working dir, and for /tmp and HOME each)`;
}

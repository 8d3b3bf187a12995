/**
 * Commands inside the rootfs being built, with the kernel filesystems they need mounted, and the
 * guarantee that nothing stays mounted afterwards: a leftover bind mount of /dev under a directory
 * that is later removed with rm -rf would wipe the host's /dev.
 */
import fs from 'node:fs';
import path from 'node:path';
import { requireHostTool, rootCommandPrefix } from './host-tools.js';
import { runCommand, type RunOptions, type RunResult } from './process.js';

export const CHROOT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Mount points strictly below `dir`, deepest first, from /proc/self/mountinfo text. */
export function mountsUnder(dir: string, mountinfo: string): string[] {
  const root = dir.replace(/\/+$/, '');
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (!field) continue;
    // mountinfo escapes space, tab, newline and backslash as octal.
    const mp = field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (mp.startsWith(root + '/')) out.push(mp);
  }
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

function currentMountsUnder(dir: string): string[] {
  return mountsUnder(realDir(dir), fs.readFileSync('/proc/self/mountinfo', 'utf8'));
}

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Unmounts everything below `dir` (lazily when busy); returns what could not be unmounted. */
export async function unmountAllUnder(dir: string, log?: (text: string) => void): Promise<string[]> {
  const umount = requireHostTool('umount', 'mount');
  const prefix = rootCommandPrefix();
  for (const mp of currentMountsUnder(dir)) {
    const r = await runCommand([...prefix, umount, mp], { log });
    if (r.code !== 0) await runCommand([...prefix, umount, '-l', mp], { log });
  }
  return currentMountsUnder(dir);
}

/** rm -rf as root that never crosses into another filesystem, refusing while anything is mounted below. */
export async function removeTree(dir: string, log?: (text: string) => void): Promise<boolean> {
  if (!fs.existsSync(dir)) return true;
  const left = await unmountAllUnder(dir, log);
  if (left.length) {
    log?.(`not removing ${dir}: still mounted: ${left.join(', ')}\n`);
    return false;
  }
  const r = await runCommand([...rootCommandPrefix(), requireHostTool('rm', 'coreutils'), '-rf', '--one-file-system', dir], { log });
  return r.code === 0;
}

export interface ChrootOptions {
  log?: (text: string) => void;
  onLine?: (line: string) => void;
  signal?: AbortSignal;
}

export interface ChrootSession {
  /** Runs argv inside the rootfs with a clean environment (nothing from the host leaks in). */
  exec(argv: string[], opts?: { user?: string; env?: Record<string, string>; captureStdout?: boolean }): Promise<RunResult>;
  shell(script: string): Promise<RunResult>;
}

/** Mounts /proc (and /dev when the rootfs has no device nodes), runs fn, always unmounts. */
export async function withChroot<T>(rootfs: string, opts: ChrootOptions, fn: (s: ChrootSession) => Promise<T>): Promise<T> {
  const prefix = rootCommandPrefix();
  const chroot = requireHostTool('chroot', 'coreutils');
  const mount = requireHostTool('mount', 'mount');
  const envBin = requireHostTool('env', 'coreutils');
  const base: RunOptions = { log: opts.log, onLine: opts.onLine, signal: opts.signal };
  try {
    await mustSucceed([...prefix, mount, '-t', 'proc', 'proc', path.join(rootfs, 'proc')], base);
    if (!hasDeviceNodes(rootfs)) await mustSucceed([...prefix, mount, '--bind', '/dev', path.join(rootfs, 'dev')], base);
    // Only so apt can log through a pty; a private instance, and optional: some hosts refuse it.
    const pts = path.join(rootfs, 'dev', 'pts');
    if (fs.existsSync(pts)) await runCommand([...prefix, mount, '-t', 'devpts', '-o', 'newinstance,ptmxmode=0666', 'devpts', pts], base);
    const session: ChrootSession = {
      exec: (argv, o = {}) => {
        const vars = {
          PATH: CHROOT_PATH,
          HOME: '/root',
          LANG: 'C.UTF-8',
          DEBIAN_FRONTEND: 'noninteractive',
          ...o.env,
        };
        const user = o.user ? [`--userspec=${o.user}`] : [];
        const envArgs = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
        return runCommand([...prefix, envBin, '-i', ...envArgs, chroot, ...user, rootfs, ...argv], {
          ...base,
          captureStdout: o.captureStdout,
        });
      },
      shell: (script) => session.exec(['/bin/sh', '-ec', script]),
    };
    return await fn(session);
  } finally {
    const left = await unmountAllUnder(rootfs, opts.log);
    if (left.length) opts.log?.(`warning: still mounted after cleanup: ${left.join(', ')}\n`);
  }
}

function hasDeviceNodes(rootfs: string): boolean {
  try {
    return fs.statSync(path.join(rootfs, 'dev', 'null')).isCharacterDevice();
  } catch {
    return false;
  }
}

async function mustSucceed(argv: string[], opts: RunOptions): Promise<void> {
  const r = await runCommand(argv, opts);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} failed (exit ${r.code}): ${r.tail.join(' | ')}`);
}

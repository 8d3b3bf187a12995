/** Host programs the environment and the sandboxes depend on, and how to get root for the build. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../../core/errors.js';

// Administrative tools (debootstrap, chroot) live in sbin, which a normal user's PATH often lacks.
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Absolute path of an executable on PATH (or in the sbin dirs), else undefined. */
export function findHostTool(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  const dirs = [...searchPath.split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The tool's absolute path, or an EnvironmentError saying which Debian package provides it. */
export function requireHostTool(name: string, debPackage: string): string {
  const found = findHostTool(name);
  if (found) return found;
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  throw new EnvironmentError(`${name} not found`, `install it with: ${sudo}apt-get install ${debPackage}`);
}

let prefixCache: string[] | undefined;

/**
 * Argument prefix that runs a command as root: nothing when we are root, `sudo -n` when
 * passwordless sudo works (never prompt: the build may run unattended), otherwise an error.
 */
export function rootCommandPrefix(): string[] {
  if (prefixCache) return prefixCache;
  if (process.getuid?.() === 0) return (prefixCache = []);
  const sudo = findHostTool('sudo');
  if (sudo && spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0) {
    return (prefixCache = [sudo, '-n']);
  }
  throw new EnvironmentError(
    'building the environment needs root (debootstrap and chroot)',
    'run "nbmodernize env build" as root, or set up passwordless sudo ("sudo -n true" must succeed)',
  );
}

/**
 * Shell steps that turn installed packages into a sandbox root, shared by the debootstrap build and
 * the generated Dockerfile so both produce the same layout.
 */
import type { EnvDefinition } from './definition.js';

/** Sandboxes run the kernel as this uid/gid (never root). */
export const SANDBOX_UID = 1000;
export const SANDBOX_USER = 'nbm';
/** HOME inside the sandbox; a tmpfs is mounted there, so the rootfs can stay read-only. */
export const SANDBOX_HOME = '/nbm/home';

/**
 * A passwd entry for uid 1000 (getpass, pwd.getpwuid and Jupyter's path lookups fail without one)
 * and the mount points, which must exist because the rootfs is mounted read-only.
 */
export function sandboxLayoutCommands(def: EnvDefinition): string[] {
  const id = SANDBOX_UID;
  const cmds = [
    // Parenthesized so they stay correct when chained with && (the Dockerfile does that).
    `(getent group ${id} >/dev/null || groupadd --gid ${id} ${SANDBOX_USER})`,
    `(getent passwd ${id} >/dev/null || useradd --uid ${id} --gid ${id} --home-dir ${SANDBOX_HOME} --no-create-home --shell /bin/sh ${SANDBOX_USER})`,
  ];
  if (def.mountPoints.length) {
    const mps = def.mountPoints.join(' ');
    cmds.push(`mkdir -p ${mps}`, `chown ${id}:${id} ${mps}`);
  }
  return cmds;
}

/** Nothing in the sandbox can download (no network), so package caches and indexes are dead weight. */
export const APT_CLEANUP_COMMANDS = ['apt-get clean', 'rm -rf /var/lib/apt/lists/*'];

/**
 * The Dockerfile twin of the debootstrap build, generated from the same environment.json so the
 * package list has one source of truth (a unit test fails when the committed file is stale).
 */
import path from 'node:path';
import { definitionHash, sandboxesDir, type EnvDefinition } from './definition.js';
import { APT_CLEANUP_COMMANDS, SANDBOX_UID, sandboxLayoutCommands } from './rootfs-setup.js';

export function dockerfilePath(name: string, dir = sandboxesDir()): string {
  return path.join(dir, name, 'Dockerfile');
}

export function generateDockerfile(def: EnvDefinition): string {
  const hash = definitionHash(def);
  const cont = ' \\\n';
  const install = [
    'apt-get update',
    `apt-get install -y --no-install-recommends${cont}${def.packages.map((p) => `      ${p}`).join(cont)}`,
    // Harmless under apt, which resolves the virtual packages debootstrap cannot; kept so both
    // builds run exactly the same steps.
    ...def.postInstall,
    ...APT_CLEANUP_COMMANDS,
  ];
  const workdir = def.mountPoints.includes('/kaggle/working') ? ['WORKDIR /kaggle/working'] : [];
  return [
    `# GENERATED from sandboxes/${def.name}/environment.json (definition hash ${hash}); do not edit.`,
    `# Regenerate with: nbmodernize env dockerfile ${def.name} --write`,
    '#',
    `# The same environment "nbmodernize env build ${def.name}" makes with debootstrap, for machines`,
    '# that can pull from a registry. Tag it the way the build tags its imported image:',
    `#   docker build -t nbmodernize/${def.name}:${hash} sandboxes/${def.name}`,
    `FROM ${def.distribution}:${def.suite}-slim`,
    'ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8',
    `RUN ${install.join(`${cont} && `)}`,
    `RUN ${sandboxLayoutCommands(def).join(`${cont} && `)}`,
    `USER ${SANDBOX_UID}:${SANDBOX_UID}`,
    ...workdir,
    '',
  ].join('\n');
}

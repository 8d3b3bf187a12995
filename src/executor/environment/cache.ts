/**
 * The build cache: <cacheDir>/envs/<name>-<hash>/{rootfs/, versions.json, build.log, COMPLETE}.
 * A directory with that name only ever appears by an atomic rename of a finished build, and
 * COMPLETE is written last inside it, so "exists with COMPLETE" means usable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { definitionHash, loadDefinition, type EnvDefinition } from './definition.js';
import { EnvVersionsSchema, type EnvVersions } from './versions.js';

export interface BuiltEnvironment {
  name: string;
  hash: string;
  dir: string;
  rootfs: string;
  versionsFile: string;
  versions: EnvVersions;
  /** "nbmodernize/<name>:<hash>" once imported into Docker (recorded at import; the engine may have lost it since). */
  dockerImage?: string;
}

export const COMPLETE_MARKER = 'COMPLETE';
export const DOCKER_MARKER = 'docker-image';

export function envsDir(cacheDir: string): string {
  return path.join(cacheDir, 'envs');
}

export function envDir(cacheDir: string, name: string, hash: string): string {
  return path.join(envsDir(cacheDir), `${name}-${hash}`);
}

export function dockerTag(name: string, hash: string): { repo: string; tag: string; ref: string } {
  const repo = `nbmodernize/${name}`;
  return { repo, tag: hash, ref: `${repo}:${hash}` };
}

/** Reads one cache entry; undefined unless it is complete and its versions file is valid. */
export function readBuiltEnvironment(dir: string): BuiltEnvironment | undefined {
  const rootfs = path.join(dir, 'rootfs');
  const versionsFile = path.join(dir, 'versions.json');
  try {
    if (!fs.existsSync(path.join(dir, COMPLETE_MARKER)) || !fs.statSync(rootfs).isDirectory()) return undefined;
    const versions = EnvVersionsSchema.parse(JSON.parse(fs.readFileSync(versionsFile, 'utf8')));
    const env: BuiltEnvironment = { name: versions.environment, hash: versions.hash, dir, rootfs, versionsFile, versions };
    const marker = path.join(dir, DOCKER_MARKER);
    if (fs.existsSync(marker)) env.dockerImage = fs.readFileSync(marker, 'utf8').trim() || undefined;
    return env;
  } catch {
    return undefined;
  }
}

export function findBuiltFor(def: EnvDefinition, cacheDir: string): BuiltEnvironment | undefined {
  const hash = definitionHash(def);
  const env = readBuiltEnvironment(envDir(cacheDir, def.name, hash));
  return env && env.name === def.name && env.hash === hash ? env : undefined;
}

/** The build for the current definition of `name`; throws only for an unknown name. */
export function findBuiltEnvironment(name: string, cacheDir: string): BuiltEnvironment | undefined {
  return findBuiltFor(loadDefinition(name), cacheDir);
}

/** Every complete build in the cache (all names, all hashes), newest first. */
export function listBuiltEnvironments(cacheDir: string, name?: string): BuiltEnvironment[] {
  const root = envsDir(cacheDir);
  let entries: string[];
  try {
    entries = fs.readdirSync(root);
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.startsWith('.') && (!name || e.startsWith(`${name}-`)))
    .map((e) => readBuiltEnvironment(path.join(root, e)))
    .filter((e): e is BuiltEnvironment => Boolean(e) && (!name || e!.name === name))
    .sort((a, b) => b.versions.builtAt.localeCompare(a.versions.builtAt));
}

// Temporary build dirs carry the builder's pid, so leftovers of a killed build can be recognised.
const TMP_RE = /^\.tmp-(.+)-(\d+)-[A-Za-z0-9]{6}$/;

export function tmpDirPrefix(name: string, hash: string): string {
  return `.tmp-${name}-${hash}-${process.pid}-`;
}

/** Temporary build dirs in the cache whose builder process is gone. */
export function staleTmpDirs(cacheDir: string, isAlive: (pid: number) => boolean = pidAlive): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(envsDir(cacheDir));
  } catch {
    return [];
  }
  return entries
    .map((e) => ({ e, m: TMP_RE.exec(e) }))
    .filter(({ m }) => m && !isAlive(Number(m[2])))
    .map(({ e }) => path.join(envsDir(cacheDir), e));
}

export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else (e.g. a build running under sudo).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Building the environment's rootfs into the cache (debootstrap, post-install fixes, sandbox layout,
 * version recording) and importing it into Docker. The public entry points of this directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError, errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { toolVersion } from '../../core/version.js';
import { dockerReachable, imageExists, importRootfsImage } from '../docker-engine.js';
import {
  COMPLETE_MARKER,
  DOCKER_MARKER,
  dockerTag,
  envDir,
  envsDir,
  findBuiltFor,
  readBuiltEnvironment,
  staleTmpDirs,
  tmpDirPrefix,
  type BuiltEnvironment,
} from './cache.js';
import { removeTree, withChroot, type ChrootSession } from './chroot.js';
import {
  DEBOOTSTRAP_TAIL,
  PHASE_MESSAGES,
  classifyDebootstrapFailure,
  debootstrapArgs,
  debootstrapPhase,
  type DebootstrapPhase,
} from './debootstrap.js';
import { definitionHash, loadDefinition, type EnvDefinition } from './definition.js';
import { requireHostTool, rootCommandPrefix } from './host-tools.js';
import { acquireBuildLock } from './lock.js';
import { resolveMirror } from './mirror.js';
import { runCommand } from './process.js';
import { APT_CLEANUP_COMMANDS, sandboxLayoutCommands } from './rootfs-setup.js';
import { SCRATCH_HOME, dpkgVersions, measurePython, type EnvVersions } from './versions.js';

export type { BuiltEnvironment } from './cache.js';
export type { EnvVersions } from './versions.js';
export { findBuiltEnvironment, listBuiltEnvironments } from './cache.js';

export type BuildEvent =
  | { type: 'phase'; phase: string; message: string }
  | { type: 'log'; line: string }
  | { type: 'done'; env: BuiltEnvironment; cached: boolean; elapsedMs: number };

export interface BuildOptions {
  cacheDir: string;
  mirror?: string;
  docker?: 'auto' | 'always' | 'never';
  onEvent?: (e: BuildEvent) => void;
  signal?: AbortSignal;
}

export async function buildEnvironment(name: string, opts: BuildOptions): Promise<BuiltEnvironment> {
  const started = Date.now();
  const emit = opts.onEvent ?? (() => {});
  const def = loadDefinition(name);
  const hash = definitionHash(def);
  const dockerMode = opts.docker ?? 'auto';

  const finish = async (env: BuiltEnvironment, cached: boolean) => {
    const withImage = await maybeImport(env, dockerMode, emit);
    emit({ type: 'done', env: withImage, cached, elapsedMs: Date.now() - started });
    return withImage;
  };

  const existing = findBuiltFor(def, opts.cacheDir);
  if (existing) return finish(existing, true);

  // Fail fast, before minutes of debootstrap, on anything that would stop the build later.
  rootCommandPrefix();
  const debootstrap = requireHostTool('debootstrap', 'debootstrap');
  for (const [tool, pkg] of [['chroot', 'coreutils'], ['mount', 'mount'], ['umount', 'mount']]) requireHostTool(tool, pkg);
  if (dockerMode === 'always' && !(await dockerReachable())) throw dockerUnreachable();
  const mirror = resolveMirror(opts.mirror);

  fs.mkdirSync(envsDir(opts.cacheDir), { recursive: true });
  const lock = await acquireBuildLock(path.join(envsDir(opts.cacheDir), `.${name}-${hash}.lock`), {
    signal: opts.signal,
    onWait: (pid) => emit({ type: 'phase', phase: 'waiting', message: `another build of ${name}-${hash} is running (pid ${pid})` }),
  });
  try {
    const builtMeanwhile = findBuiltFor(def, opts.cacheDir);
    if (builtMeanwhile) return await finish(builtMeanwhile, true);
    for (const stale of staleTmpDirs(opts.cacheDir)) await removeTree(stale);
    const env = await buildInto(def, hash, { ...opts, mirror, debootstrap, emit });
    return await finish(env, false);
  } finally {
    lock.release();
  }
}

interface BuildContext extends BuildOptions {
  mirror: string;
  debootstrap: string;
  emit: (e: BuildEvent) => void;
}

async function buildInto(def: EnvDefinition, hash: string, ctx: BuildContext): Promise<BuiltEnvironment> {
  const { emit, signal } = ctx;
  const finalDir = envDir(ctx.cacheDir, def.name, hash);
  const tmp = fs.mkdtempSync(path.join(envsDir(ctx.cacheDir), tmpDirPrefix(def.name, hash)));
  // mkdtemp makes it 0700; the sandbox uid must be able to reach the rootfs through it.
  fs.chmodSync(tmp, 0o755);
  const rootfs = path.join(tmp, 'rootfs');
  const logFile = path.join(tmp, 'build.log');
  const logFd = fs.openSync(logFile, 'a');
  const writeLog = (text: string) => fs.writeSync(logFd, text);
  const phase = (p: string, message: string) => {
    writeLog(`\n=== ${new Date().toISOString()} ${p}: ${message}\n`);
    emit({ type: 'phase', phase: p, message });
  };
  const onLine = (line: string) => emit({ type: 'log', line });
  let succeeded = false;
  try {
    await runDebootstrap(def, rootfs, { ...ctx, writeLog, phase, onLine });
    signal?.throwIfAborted();

    const versions = await withChroot(rootfs, { log: writeLog, onLine, signal }, async (session) => {
      phase('post-install', `running ${def.postInstall.length} post-install command(s) in the rootfs`);
      for (const cmd of def.postInstall) await mustRun(session, cmd, `post-install command "${cmd}"`, logFile);
      await mustRun(session, DEBOOTSTRAP_TAIL, 'finishing debootstrap', logFile);
      const audit = await session.exec(['dpkg', '--audit'], { captureStdout: true });
      if (audit.code !== 0 || audit.stdout.trim()) {
        throw new EnvironmentError(
          'packages are still not configured after the post-install commands',
          `fix "postInstall" in sandboxes/${def.name}/environment.json; dpkg --audit says: ${audit.stdout.trim().split('\n').slice(0, 5).join(' / ')}`,
        );
      }
      phase('finishing', `creating the sandbox user and mount points (${def.mountPoints.join(', ')}), cleaning apt caches`);
      await mustRun(session, [...sandboxLayoutCommands(def), ...APT_CLEANUP_COMMANDS].join('\n'), 'sandbox layout', logFile);

      phase('recording versions', 'importing each listed library inside the rootfs');
      const recorded = await recordVersions(session, def, hash, rootfs, (line) => {
        writeLog(`${line}\n`);
        onLine(line);
      });
      await mustRun(session, `rm -rf ${SCRATCH_HOME}`, 'removing scratch files', logFile);
      return recorded;
    });

    const broken = Object.entries(versions.pythonModules).filter(([, v]) => v === null);
    if (broken.length) log.warn(`environment ${def.name}: not importable: ${broken.map(([k]) => k).join(', ')} (see ${path.join(finalDir, 'build.log')})`);
    fs.writeFileSync(path.join(tmp, 'versions.json'), JSON.stringify(versions, null, 2) + '\n');
    fs.writeFileSync(path.join(tmp, COMPLETE_MARKER), `${versions.builtAt}\n`);
    fs.fsyncSync(logFd);
    fs.closeSync(logFd);
    // The only way a <name>-<hash> dir comes to exist: an interrupted build leaves just .tmp-*.
    fs.renameSync(tmp, finalDir);
    succeeded = true;
    fs.rmSync(failedLogPath(ctx.cacheDir, def.name, hash), { force: true });
    const env = readBuiltEnvironment(finalDir);
    if (!env) throw new EnvironmentError(`the build in ${finalDir} is unreadable right after building`);
    return env;
  } finally {
    if (!succeeded) {
      try {
        fs.closeSync(logFd);
      } catch {
        // closed before the rename failed
      }
      const kept = failedLogPath(ctx.cacheDir, def.name, hash);
      try {
        fs.copyFileSync(logFile, kept);
      } catch {
        // nothing logged yet
      }
      if (!(await removeTree(tmp))) log.warn(`could not remove the unfinished build ${tmp}; remove it by hand`);
    }
  }
}

type StepContext = BuildContext & {
  writeLog: (text: string) => void;
  phase: (p: string, message: string) => void;
  onLine: (line: string) => void;
};

async function runDebootstrap(def: EnvDefinition, rootfs: string, ctx: StepContext): Promise<void> {
  const args = debootstrapArgs(def, rootfs, ctx.mirror);
  ctx.phase('resolving', `debootstrap ${def.suite} (${def.packages.length} packages) from ${ctx.mirror}`);
  ctx.writeLog(`$ debootstrap ${args.join(' ')}\n`);
  let current: DebootstrapPhase | undefined = 'resolving';
  let output = '';
  const result = await runCommand(
    // umask 022: whatever umask we were started with, the sandbox uid must be able to read the files.
    [...rootCommandPrefix(), '/bin/sh', '-c', 'umask 022 && exec "$@"', 'sh', ctx.debootstrap, ...args],
    {
      signal: ctx.signal,
      log: ctx.writeLog,
      onLine: (line) => {
        output += line + '\n';
        ctx.onLine(line);
        const next = debootstrapPhase(line, current);
        if (next && next !== current) {
          current = next;
          ctx.phase(next, PHASE_MESSAGES[next]);
        }
      },
    },
  );
  if (result.code === 0) return;
  const verdict = classifyDebootstrapFailure(output, await readRootFile(path.join(rootfs, 'debootstrap', 'debootstrap.log')));
  ctx.writeLog(`\ndebootstrap exited ${result.code}: ${verdict.reason}\n`);
  if (!verdict.tolerated) {
    throw new EnvironmentError(
      `debootstrap failed (exit ${result.code}): ${verdict.reason}`,
      `last output: ${result.tail.slice(-3).join(' / ')} — full log: ${failedLogPath(ctx.cacheDir, def.name, definitionHash(def))}`,
    );
  }
  ctx.emit({ type: 'log', line: `debootstrap: ${verdict.reason}; the post-install commands repair this` });
}

function failedLogPath(cacheDir: string, name: string, hash: string): string {
  return path.join(envsDir(cacheDir), `${name}-${hash}.failed.log`);
}

/** A root-owned file in the rootfs, read directly when we can, through the root prefix otherwise. */
async function readRootFile(file: string): Promise<string | undefined> {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    const prefix = rootCommandPrefix();
    if (!prefix.length) return undefined;
    const r = await runCommand([...prefix, requireHostTool('cat', 'coreutils'), file], { captureStdout: true });
    return r.code === 0 ? r.stdout : undefined;
  }
}

async function mustRun(session: ChrootSession, script: string, what: string, logFile: string): Promise<void> {
  const r = await session.shell(script);
  if (r.code !== 0) {
    throw new EnvironmentError(`${what} failed in the rootfs (exit ${r.code})`, `last output: ${r.tail.slice(-3).join(' / ')} — log: ${logFile}`);
  }
}

async function recordVersions(
  session: ChrootSession,
  def: EnvDefinition,
  hash: string,
  rootfs: string,
  note: (line: string) => void,
): Promise<EnvVersions> {
  const report = await measurePython(session, def.pythonModules);
  for (const [dist, why] of Object.entries(report.errors)) note(`${dist}: ${why}`);
  const installed = await dpkgVersions(session);
  const missing = def.packages.filter((p) => !installed[p]);
  if (missing.length) throw new EnvironmentError(`listed packages are not installed in the rootfs: ${missing.join(', ')}`);
  return {
    environment: def.name,
    hash,
    builtAt: new Date().toISOString(),
    debian: fs.readFileSync(path.join(rootfs, 'etc', 'debian_version'), 'utf8').trim(),
    python: report.python,
    pythonModules: Object.fromEntries(Object.keys(def.pythonModules).map((d) => [d, report.modules[d] ?? null])),
    debPackages: Object.fromEntries(def.packages.map((p) => [p, installed[p]])),
    tool: toolVersion(),
  };
}

async function maybeImport(env: BuiltEnvironment, mode: 'auto' | 'always' | 'never', emit: (e: BuildEvent) => void): Promise<BuiltEnvironment> {
  if (mode === 'never') return env;
  if (mode === 'auto' && !(await dockerReachable())) return env;
  const { ref } = dockerTag(env.name, env.hash);
  if (await imageExists(ref)) return recordImage(env, ref);
  emit({ type: 'phase', phase: 'docker import', message: `importing the rootfs as ${ref}` });
  try {
    return recordImage(env, await ensureDockerImage(env));
  } catch (err) {
    if (mode === 'always') throw err;
    // auto: the rootfs is still usable by bwrap; Docker can be retried with ensureDockerImage.
    log.warn(`docker import of ${ref} failed: ${errorMessage(err)}`);
    emit({ type: 'log', line: `docker import failed: ${errorMessage(err)}` });
    return env;
  }
}

function recordImage(env: BuiltEnvironment, ref: string): BuiltEnvironment {
  try {
    if (env.dockerImage !== ref) fs.writeFileSync(path.join(env.dir, DOCKER_MARKER), `${ref}\n`);
  } catch {
    // a read-only shared cache: the marker is only a hint for findBuiltEnvironment
  }
  return { ...env, dockerImage: ref };
}

/** The environment's Docker image tag, importing the rootfs first when the engine lacks it. */
export async function ensureDockerImage(env: BuiltEnvironment): Promise<string> {
  const { repo, tag, ref } = dockerTag(env.name, env.hash);
  if (!(await dockerReachable())) throw dockerUnreachable();
  if (await imageExists(ref)) return ref;
  try {
    await importRootfsImage(env.rootfs, repo, tag);
  } catch (err) {
    throw new EnvironmentError(`docker import of ${env.rootfs} as ${ref} failed: ${errorMessage(err)}`, 'check that dockerd is running and has disk space');
  }
  recordImage(env, ref);
  return ref;
}

function dockerUnreachable(): EnvironmentError {
  return new EnvironmentError(
    'no Docker engine reachable at /var/run/docker.sock',
    'install it with: apt-get install docker.io, then start dockerd (or use --docker never / the bwrap sandbox)',
  );
}

/** `nbmodernize env build|info|list|dockerfile`: the fixed environment, built, described, exported. */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { EnvironmentError, ExitCode, UsageError } from '../../core/errors.js';
import { dockerReachable, imageExists } from '../../executor/docker-engine.js';
import { buildEnvironment, type BuildEvent, type BuiltEnvironment } from '../../executor/environment/build.js';
import { loadSymbolIndex, symbolIndexFile } from '../../executor/environment/symbol-index.js';
import { dockerTag, findBuiltFor, listBuiltEnvironments } from '../../executor/environment/cache.js';
import { definitionHash, knownEnvironments, loadDefinition } from '../../executor/environment/definition.js';
import { dockerfilePath, generateDockerfile } from '../../executor/environment/dockerfile.js';
import type { CliContext } from '../context.js';
import { printJson } from '../command-io.js';
import { buildProgress } from '../build-progress.js';

export const summary = 'build and inspect the fixed modern environment';

const DEFAULT_ENV = 'debian13';

const HELP: Record<string, string> = {
  env: `Usage: nbmodernize env <build|info|list|dockerfile> [NAME] [options]

  build [NAME]        build the environment's Debian rootfs (debootstrap, needs root or sudo -n) into the
                      cache; imports it into Docker when an engine is reachable. Instant when already built.
  info [NAME]         the built environment: Debian release, Python and library versions, rootfs, image
  list                known environment definitions and what is built
  dockerfile [NAME]   print the Dockerfile generated from the same definition (--write to update it)

NAME defaults to ${DEFAULT_ENV} (sandboxes/${DEFAULT_ENV}/environment.json).
Cache: $NBMODERNIZE_CACHE_DIR/envs/<name>-<hash>/ (default ~/.cache/nbmodernize).`,
  build: `Usage: nbmodernize env build [NAME] [--mirror URL] [--docker auto|always|never] [--json]

Builds sandboxes/NAME/environment.json into <cache>/envs/NAME-<hash>/ with debootstrap (root or
passwordless sudo; apt-get install debootstrap). A second build of the same definition returns at once.

  --mirror URL     Debian archive to use (default: the host's apt sources, else http://deb.debian.org/debian)
  --docker MODE    auto (default): import the rootfs as nbmodernize/NAME:<hash> when a Docker engine is
                   reachable; always: fail without one; never: skip Docker
  --json           print the built environment and its versions as JSON on stdout`,
  info: `Usage: nbmodernize env info [NAME] [--json]

Prints the built environment's hash, Debian release, Python, each library's version, the rootfs path
and the Docker image. Fails with the build command when the environment is not built.`,
  list: `Usage: nbmodernize env list [--json]

Lists environment definitions (sandboxes/*/environment.json) with their current hash and whether that
hash is built, plus other builds kept in the cache.`,
  dockerfile: `Usage: nbmodernize env dockerfile [NAME] [--write | --check]

Prints the Dockerfile equivalent of the debootstrap build, generated from environment.json.
  --write   update sandboxes/NAME/Dockerfile
  --check   exit 1 when sandboxes/NAME/Dockerfile differs from what would be generated`,
};

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    ctx.stdout(HELP.env + '\n');
    return sub ? ExitCode.ok : ExitCode.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    if (!HELP[sub]) throw new UsageError(`unknown env command "${sub}"`, 'try: nbmodernize env --help');
    ctx.stdout(HELP[sub] + '\n');
    return ExitCode.ok;
  }
  switch (sub) {
    case 'build':
      return build(rest, ctx);
    case 'info':
      return info(rest, ctx);
    case 'list':
      return list(rest, ctx);
    case 'dockerfile':
      return dockerfile(rest, ctx);
    default:
      throw new UsageError(`unknown env command "${sub}"`, 'try: nbmodernize env --help');
  }
}

function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: T, sub: string) {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new Error(`unexpected argument "${positionals[1]}"`);
    return { values, name: positionals[0] ?? DEFAULT_ENV };
  } catch (err) {
    throw new UsageError((err as Error).message, `see: nbmodernize env ${sub} --help`);
  }
}

async function build(args: string[], ctx: CliContext): Promise<number> {
  const { values, name } = parse(args, { mirror: { type: 'string' }, docker: { type: 'string' }, json: { type: 'boolean' } }, 'build');
  const docker = (values.docker ?? 'auto') as string;
  if (!['auto', 'always', 'never'].includes(docker)) throw new UsageError(`--docker must be auto, always or never (got "${docker}")`);
  const cacheDir = ctx.env.NBMODERNIZE_CACHE_DIR!;
  const progress = buildProgress(ctx);
  let done: Extract<BuildEvent, { type: 'done' }> | undefined;
  try {
    await buildEnvironment(name, {
      cacheDir,
      mirror: values.mirror as string | undefined,
      docker: docker as 'auto' | 'always' | 'never',
      signal: ctx.signal,
      onEvent: (e) => {
        if (e.type === 'done') done = e;
        progress.onEvent(e);
      },
    });
  } catch (err) {
    progress.stop();
    if (ctx.signal.aborted) {
      ctx.stderr('nbmodernize: build interrupted; nothing was added to the cache\n');
      return ExitCode.interrupted;
    }
    throw err;
  }
  progress.stop();
  const { env, cached, elapsedMs } = done!;
  // The public-name index the repairs of moved imports read (seconds; kept next to versions.json).
  const symbols = await loadSymbolIndex(env);
  if (values.json) {
    printJson(ctx, { ...env, cached, elapsedMs });
  } else {
    const how = cached ? 'already built' : `built in ${formatDuration(elapsedMs)}`;
    ctx.stdout(`${env.name} (hash ${env.hash}) ${how}: ${env.dir}\n`);
    ctx.stdout(`  Debian ${env.versions.debian}, Python ${env.versions.python}` + (env.dockerImage ? `, Docker image ${env.dockerImage}` : '') + '\n');
    ctx.stdout(`  versions: nbmodernize env info ${env.name}\n`);
    ctx.stdout(`  symbol index: ${Object.keys(symbols.modules).length} modules (${symbolIndexFile(env)})\n`);
  }
  return ExitCode.ok;
}

async function info(args: string[], ctx: CliContext): Promise<number> {
  const { values, name } = parse(args, { json: { type: 'boolean' } }, 'info');
  const cacheDir = ctx.env.NBMODERNIZE_CACHE_DIR!;
  const def = loadDefinition(name);
  const env = findBuiltFor(def, cacheDir);
  if (!env) {
    const others = listBuiltEnvironments(cacheDir, name);
    const note = others.length ? ` (the cache has older builds of other definitions: ${others.map((o) => o.hash).join(', ')})` : '';
    throw new EnvironmentError(
      `environment ${name} (hash ${definitionHash(def)}) is not built${note}`,
      `build it with: nbmodernize env build ${name}`,
    );
  }
  const image = await dockerImageState(env);
  if (values.json) {
    printJson(ctx, { ...env.versions, dir: env.dir, rootfs: env.rootfs, versionsFile: env.versionsFile, dockerImage: image.present ? image.ref : null, unavailable: def.unavailable });
    return ExitCode.ok;
  }
  const v = env.versions;
  const width = Math.max(...Object.keys(v.pythonModules).map((k) => k.length));
  const lines = [
    `environment   ${env.name} (hash ${env.hash})${def.description ? ` — ${def.description}` : ''}`,
    `debian        ${v.debian}`,
    `python        ${v.python}`,
    `rootfs        ${env.rootfs}`,
    `docker image  ${image.present ? image.ref : `${image.ref} (${image.why})`}`,
    `built         ${v.builtAt} by nbmodernize ${v.tool}`,
    'libraries',
    ...Object.entries(v.pythonModules).map(([dist, ver]) => `  ${dist.padEnd(width)}  ${ver ?? 'NOT IMPORTABLE'}`),
    `not in Debian (see the suggested replacements in --json): ${Object.keys(def.unavailable).join(', ')}`,
  ];
  ctx.stdout(lines.join('\n') + '\n');
  return ExitCode.ok;
}

async function dockerImageState(env: BuiltEnvironment): Promise<{ ref: string; present: boolean; why?: string }> {
  const { ref } = dockerTag(env.name, env.hash);
  if (!(await dockerReachable())) return { ref, present: false, why: 'no Docker engine reachable' };
  if (await imageExists(ref)) return { ref, present: true };
  return { ref, present: false, why: `not imported; nbmodernize env build ${env.name} imports it` };
}

async function list(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' } }, 'list');
  const cacheDir = ctx.env.NBMODERNIZE_CACHE_DIR!;
  const rows = knownEnvironments().map((name) => {
    const def = loadDefinition(name);
    const current = findBuiltFor(def, cacheDir);
    const builds = listBuiltEnvironments(cacheDir, name).map((b) => ({ hash: b.hash, builtAt: b.versions.builtAt, dir: b.dir, current: b.hash === current?.hash }));
    return { name, hash: definitionHash(def), built: Boolean(current), description: def.description ?? '', builds };
  });
  if (values.json) {
    printJson(ctx, rows);
    return ExitCode.ok;
  }
  for (const r of rows) {
    ctx.stdout(`${r.name}  hash ${r.hash}  ${r.built ? 'built' : `not built (nbmodernize env build ${r.name})`}  ${r.description}\n`);
    for (const b of r.builds) ctx.stdout(`  ${b.current ? '*' : ' '} ${b.hash}  ${b.builtAt}  ${b.dir}\n`);
  }
  return ExitCode.ok;
}

async function dockerfile(args: string[], ctx: CliContext): Promise<number> {
  const { values, name } = parse(args, { write: { type: 'boolean' }, check: { type: 'boolean' } }, 'dockerfile');
  const text = generateDockerfile(loadDefinition(name));
  const file = dockerfilePath(name);
  if (values.check) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current === text) return ExitCode.ok;
    ctx.stderr(`${file} is out of date; run: nbmodernize env dockerfile ${name} --write\n`);
    return 1;
  }
  if (values.write) {
    fs.writeFileSync(file, text);
    ctx.stderr(`wrote ${file}\n`);
  } else {
    ctx.stdout(text);
  }
  return ExitCode.ok;
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${(ms / 1000).toFixed(1)}s`;
}

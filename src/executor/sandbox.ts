/**
 * One entry point for all backends (papermill-style registry): pick, start, describe.
 * `auto` prefers the strongest isolation that is ready: docker (engine up, image built) ->
 * bwrap (rootfs built) -> host (a local Jupyter), and says which it chose and why.
 */
import { EnvironmentError } from '../core/errors.js';
import { dockerReachable, imageExists } from './docker-engine.js';
import { findBuiltEnvironment, buildEnvironment, type BuiltEnvironment, type BuildEvent } from './environment/build.js';
import { findHostTool } from './environment/host-tools.js';
import { startBwrap } from './sandbox-bwrap.js';
import { startDocker } from './sandbox-docker.js';
import { probeHostPython, startHost } from './sandbox-host.js';
import { startRemote } from './sandbox-remote.js';
import type { Sandbox, SandboxRequest } from './types.js';
import type { SandboxKind } from '../core/run-result.js';

export interface OpenSandboxOptions {
  signal?: AbortSignal;
  /** Build the environment when it is missing (first use); progress goes here. */
  onBuildEvent?: (e: BuildEvent) => void;
  autoBuild?: boolean;
}

export async function openSandbox(req: SandboxRequest, opts: OpenSandboxOptions = {}): Promise<Sandbox> {
  const { kind, reason, env } = await chooseBackend(req, opts);
  switch (kind) {
    case 'docker':
      return startDocker(req, env!, reason, opts.signal);
    case 'bwrap':
      return startBwrap(req, env!, reason, opts.signal);
    case 'host':
      return startHost(req, reason, opts.signal);
    case 'remote':
      return startRemote(req, reason, opts.signal);
  }
}

async function environmentFor(req: SandboxRequest, opts: OpenSandboxOptions): Promise<BuiltEnvironment> {
  const found = findBuiltEnvironment(req.environment, req.cacheDir);
  if (found) return found;
  if (opts.autoBuild === false) {
    throw new EnvironmentError(`environment ${req.environment} is not built`, `run: nbmodernize env build ${req.environment}`);
  }
  return buildEnvironment(req.environment, { cacheDir: req.cacheDir, onEvent: opts.onBuildEvent, signal: opts.signal });
}

export async function chooseBackend(req: SandboxRequest, opts: OpenSandboxOptions = {}): Promise<{ kind: SandboxKind; reason: string; env?: BuiltEnvironment }> {
  if (req.kind === 'remote') return { kind: 'remote', reason: `remote server ${req.url ?? ''}` };
  if (req.kind === 'host') return { kind: 'host', reason: `host Jupyter (${req.python ?? 'python3'})` };
  if (req.kind === 'docker') {
    if (!findHostTool('dockerd') && !(await dockerReachable())) {
      throw new EnvironmentError('no Docker engine is reachable on /var/run/docker.sock', 'install docker.io and start dockerd (see README), or use --sandbox bwrap');
    }
    if (!(await dockerReachable())) throw new EnvironmentError('the Docker engine does not answer on /var/run/docker.sock', 'start it: dockerd --bridge=none --iptables=false &');
    return { kind: 'docker', reason: 'requested', env: await environmentFor(req, opts) };
  }
  if (req.kind === 'bwrap') return { kind: 'bwrap', reason: 'requested', env: await environmentFor(req, opts) };

  // auto
  const built = findBuiltEnvironment(req.environment, req.cacheDir);
  if (built && (await dockerReachable())) {
    const tag = `nbmodernize/${built.name}:${built.hash}`;
    if (await imageExists(tag)) return { kind: 'docker', reason: `auto: Docker engine reachable and image ${tag} built`, env: built };
  }
  if (findHostTool('bwrap')) {
    const env = built ?? (await environmentFor(req, opts));
    return { kind: 'bwrap', reason: built ? 'auto: no Docker image ready; bubblewrap over the built rootfs' : 'auto: built the environment; bubblewrap over it', env };
  }
  if (probeHostPython(req.python ?? 'python3')) return { kind: 'host', reason: 'auto: neither docker nor bwrap available; host Jupyter (no isolation)' };
  throw new EnvironmentError('no sandbox backend is available', 'install bubblewrap (apt-get install bubblewrap) or docker.io, or pass --sandbox host --python PATH');
}

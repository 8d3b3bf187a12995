/**
 * Docker backend: a container from the environment's imported image with network none, uid
 * 1000, a read-only root, memory/CPU/pids limits, and the Jupyter server on a Unix socket in a
 * bind-mounted dir (we never talk to the container over a bridge address).
 */
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError, errorMessage } from '../core/errors.js';
import { log } from '../core/log.js';
import { containerOomKilled } from './cgroup.js';
import { OWNER_LABEL, removeContainerSync, removeOrphanContainers, startContainer } from './docker-engine.js';
import { ensureDockerImage, type BuiltEnvironment } from './environment/build.js';
import { linkDataIntoWorkDir, dataMounts, KAGGLE_WORKING } from './kaggle-layout.js';
import { diskLimits, diskMbFor, envSummary } from './sandbox-bwrap.js';
import { ENV_KERNEL_DIRS, SERVER_CONFIG_FILE, serverConfigSource, jupyterServerArgs, makeWorkspace, newToken, onProcessExit, sandboxEnv, threadEnv, waitForServer } from './server-process.js';
import type { Sandbox, SandboxRequest } from './types.js';

const SOCK_DIR = '/nbm/sock';
const SANDBOX_UID = 1000;

export async function startDocker(req: SandboxRequest, env: BuiltEnvironment, reason: string, signal?: AbortSignal): Promise<Sandbox> {
  const t0 = Date.now();
  const image = await ensureDockerImage(env);
  await removeOrphanContainers().catch((err) => log.warn(`could not sweep orphan containers: ${errorMessage(err)}`));
  // The working dir's quota is a filesystem mounted on the host and bind-mounted in (a container's
  // own size limit, --storage-opt, needs overlay2 on xfs with pquota, and our root is read-only anyway).
  const diskMb = diskMbFor(req);
  const ws = makeWorkspace('docker', diskMb);
  fs.writeFileSync(path.join(ws.sockDir, SERVER_CONFIG_FILE), serverConfigSource(ENV_KERNEL_DIRS));
  // The container runs as uid 1000, which must be able to create the socket and write outputs.
  fs.chownSync(ws.sockDir, SANDBOX_UID, SANDBOX_UID);
  fs.chownSync(ws.workDir, SANDBOX_UID, SANDBOX_UID);
  if (req.data && req.dataNextToNotebook) linkDataIntoWorkDir(ws.workDir, req.data, (m) => m.target);
  const token = newToken();
  const memoryBytes = req.memoryMb ? req.memoryMb * 1024 * 1024 : undefined;
  const binds = [
    { hostPath: ws.sockDir, target: SOCK_DIR, readOnly: false },
    { hostPath: ws.workDir, target: KAGGLE_WORKING, readOnly: false },
    ...(req.data ? dataMounts(req.data) : []),
  ];
  let container;
  try {
    container = await startContainer({
      image,
      cmd: ['python3', ...jupyterServerArgs({ sock: `${SOCK_DIR}/js.sock`, token, rootDir: KAGGLE_WORKING, configFile: `${SOCK_DIR}/${SERVER_CONFIG_FILE}` })],
      env: sandboxEnv(threadEnv(req.threads)),
      workingDir: KAGGLE_WORKING,
      user: `${SANDBOX_UID}:${SANDBOX_UID}`,
      binds,
      // HOME owned by the sandbox user: a tmpfs is root's 0755 otherwise, and HOME was not writable.
      tmpfs: { '/tmp': `rw,exec,nosuid,size=${diskMb}m`, '/nbm/home': `rw,nosuid,size=${diskMb}m,uid=${SANDBOX_UID},gid=${SANDBOX_UID},mode=0755` },
      memoryBytes,
      cpus: req.cpus,
      pids: req.pids ?? 512,
      ...(ws.quota?.mechanism === 'none' ? { fsizeBytes: diskMb * 1024 * 1024 } : {}),
      labels: { [OWNER_LABEL]: String(process.pid), 'io.nbmodernize.environment': `${env.name}:${env.hash}` },
    });
  } catch (err) {
    ws.remove();
    throw new EnvironmentError(`could not start a docker container from ${image}: ${errorMessage(err)}`);
  }
  const c = container;
  const unhook = onProcessExit(() => removeContainerSync(c.id));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await c.remove().catch((err) => log.warn(`could not remove container ${c.id.slice(0, 12)}: ${errorMessage(err)}`));
    unhook();
    ws.remove();
  };
  const endpoint = { baseUrl: 'http://localhost/', token, socketPath: path.join(ws.sockDir, 'js.sock') };
  try {
    await waitForServer(endpoint, undefined, 60_000, signal);
  } catch (err) {
    const logs = await c.logs();
    await stop();
    throw new EnvironmentError(`the Jupyter server in the container did not come up: ${errorMessage(err)} ${logs.slice(-500)}`);
  }
  return {
    kind: 'docker',
    reason,
    endpoint,
    workDirHost: ws.workDir,
    workDirInside: KAGGLE_WORKING,
    startMs: Date.now() - t0,
    limits: {
      network: 'none', readOnlyRoot: true, uid: SANDBOX_UID, image, pids: req.pids ?? 512, ...diskLimits(ws, diskMb),
      ...(req.memoryMb ? { memoryMb: req.memoryMb } : {}), ...(req.cpus ? { cpus: req.cpus } : {}), ...(req.threads ? { threads: req.threads } : {}),
    },
    environment: envSummary(env),
    killsAllOnStop: true,
    oomKilled: () => containerOomKilled(c.id),
    stop,
  };
}

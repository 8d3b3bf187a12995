/**
 * remote backend: an existing Jupyter Server / Kernel Gateway (URL + token). We own only the
 * kernel we start; the data must already be where the server's kernels can read it.
 */
import { EnvironmentError, UsageError } from '../core/errors.js';
import { waitForServer } from './server-process.js';
import type { Sandbox, SandboxRequest } from './types.js';

export async function startRemote(req: SandboxRequest, reason: string, signal?: AbortSignal): Promise<Sandbox> {
  if (!req.url) throw new UsageError('--sandbox remote needs --url URL (and --token TOKEN)');
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new UsageError(`--url ${req.url} is not a URL`);
  }
  const t0 = Date.now();
  const endpoint = { baseUrl: url.toString(), token: req.token ?? '' };
  try {
    await waitForServer(endpoint, undefined, 15_000, signal);
  } catch {
    throw new EnvironmentError(`no Jupyter server answered at ${url.origin}`, 'check --url and --token');
  }
  return {
    kind: 'remote',
    reason,
    endpoint,
    workDirHost: '',
    workDirInside: '',
    startMs: Date.now() - t0,
    limits: { server: url.origin },
    environment: { name: `remote:${url.host}`, hash: 'unpinned' },
    oomKilled: () => false,
    stop: async () => undefined,
  };
}

/**
 * remote backend: an existing Jupyter Server / Kernel Gateway (URL + token). We own only the
 * kernel we start; the data must already be where the server's kernels can read it.
 */
import { EnvironmentError, UsageError, errorMessage } from '../core/errors.js';
import { JupyterClient } from './jupyter-client.js';
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
  // GET /api answers without auth; the kernelspecs listing needs the token, so a wrong one fails here, clearly.
  const client = new JupyterClient(endpoint);
  try {
    const specs = await client.kernelSpecNames();
    if (!specs.some((s) => /python/i.test(s))) throw new EnvironmentError(`the server at ${url.origin} has no Python kernel (kernelspecs: ${specs.join(', ')})`);
  } catch (err) {
    if (err instanceof EnvironmentError) throw err;
    throw new EnvironmentError(`the server at ${url.origin} refused us: ${errorMessage(err)}`, 'check --token (or NBMODERNIZE_REMOTE_TOKEN)');
  } finally {
    await client.close();
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

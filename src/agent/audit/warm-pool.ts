/**
 * A worker's warm sandboxes (bwrap): the one serving the current notebook's data mount, and at
 * most one more started ahead for the next notebook when that one mounts different data. A warm
 * sandbox that fails to start or becomes unusable is replaced; when none can be had, the job
 * opens a sandbox of its own, so warmth only ever saves time.
 */
import { errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { chooseBackend } from '../../executor/sandbox.js';
import { startWarmBwrap, warmKey, type WarmSandbox } from '../../executor/sandbox-warm.js';
import type { Sandbox, SandboxRequest } from '../../executor/types.js';

export class WarmPool {
  private readonly pool = new Map<string, Promise<WarmSandbox | undefined>>();
  /** Keys that failed to start: not retried (a job then opens its own sandbox). */
  private readonly failed = new Set<string>();

  constructor(private readonly signal: AbortSignal) {}

  static serves(req: SandboxRequest): boolean {
    return req.kind === 'bwrap';
  }

  /** Start the warm sandbox for req unless it is already up or starting. */
  warmUp(req: SandboxRequest): void {
    const key = warmKey(req);
    if (this.pool.has(key) || this.failed.has(key) || this.signal.aborted) return;
    this.pool.set(key, (async () => {
      const { env, reason } = await chooseBackend(req, { signal: this.signal, autoBuild: false });
      return startWarmBwrap(req, env!, reason, this.signal);
    })().catch((err) => {
      this.failed.add(key);
      this.pool.delete(key);
      log.info(`no warm sandbox (each notebook gets its own): ${errorMessage(err)}`);
      return undefined;
    }));
  }

  /** A lease for req's notebook, or undefined (the caller opens a sandbox of its own). */
  async lease(req: SandboxRequest): Promise<Sandbox | undefined> {
    const key = warmKey(req);
    let warm = await this.pool.get(key);
    if (warm && !warm.usable()) {
      this.drop(key);
      warm = undefined;
    }
    if (!warm) {
      this.warmUp(req);
      warm = await this.pool.get(key);
    }
    if (!warm) return undefined;
    try {
      return await warm.lease();
    } catch (err) {
      log.info(`warm sandbox lease failed, the notebook gets its own sandbox: ${errorMessage(err)}`);
      this.drop(key);
      return undefined;
    }
  }

  /** The warm sandbox that serves req's notebooks died (its server is gone): the next lease gets a new one. */
  async died(req: SandboxRequest): Promise<boolean> {
    const warm = await this.pool.get(warmKey(req))?.catch(() => undefined);
    return Boolean(warm && !warm.usable());
  }

  /** Stop every warm sandbox whose key is not among keep. */
  retain(keep: SandboxRequest[]): void {
    const keys = new Set(keep.map(warmKey));
    for (const key of [...this.pool.keys()]) if (!keys.has(key)) this.drop(key);
  }

  async stopAll(): Promise<void> {
    const all = [...this.pool.values()];
    this.pool.clear();
    await Promise.all(all.map((p) => p.then((w) => w?.stop()).catch(() => undefined)));
  }

  private drop(key: string): void {
    const p = this.pool.get(key);
    this.pool.delete(key);
    void p?.then((w) => w?.stop()).catch((err) => log.warn(`stopping a warm sandbox: ${errorMessage(err)}`));
  }
}

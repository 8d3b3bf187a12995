import os from 'node:os';
import path from 'node:path';

/** Where built environments live: outside the checkout, shared by every clone on the machine. */
export function cacheDirFromEnv(env: NodeJS.ProcessEnv): string {
  if (env.NBMODERNIZE_CACHE_DIR) return path.resolve(env.NBMODERNIZE_CACHE_DIR);
  const xdg = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'nbmodernize');
}

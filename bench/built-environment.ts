/**
 * What the sandbox benchmarks need before they start: the built fixed environment and bubblewrap.
 * Without the environment they exit with the command that builds it (a benchmark never builds it:
 * the build's minutes would swamp what is measured).
 */
import { cacheDirFromEnv } from '../src/cli/cache-dir.js';
import { findBuiltEnvironment } from '../src/executor/environment/build.js';
import { requireHostTool } from '../src/executor/environment/host-tools.js';

export function builtEnvironmentOrExit(): { env: NonNullable<ReturnType<typeof findBuiltEnvironment>>; bwrap: string } {
  const env = findBuiltEnvironment('debian13', cacheDirFromEnv(process.env));
  if (!env) {
    console.error('build the environment first: nbmodernize env build');
    process.exit(2);
  }
  return { env, bwrap: requireHostTool('bwrap', 'bubblewrap') };
}

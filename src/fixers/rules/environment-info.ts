/**
 * Facts about the target environment the rules need: which libraries are unavailable (and what to
 * use instead), which modules import, and library versions (measured in the built environment's
 * versions.json when one exists, else the versions debian13 was measured at).
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../core/paths.js';
import type { EnvironmentInfo } from './context.js';
import { DEFAULT_ENV_VERSIONS } from './versions.js';
import { STDLIB_MODULES, DEBIAN13_SITE_MODULES } from './module-lists.js';

interface DefinitionLike {
  name: string;
  pythonModules: Record<string, string>;
  unavailable: Record<string, string[]>;
}

async function readDefinition(name: string): Promise<DefinitionLike> {
  try {
    const mod = await import('../../executor/environment/definition.js');
    return mod.loadDefinition(name) as DefinitionLike;
  } catch {
    const file = path.join(packageRoot(), 'sandboxes', name, 'environment.json');
    return JSON.parse(fs.readFileSync(file, 'utf8')) as DefinitionLike;
  }
}

export async function loadEnvironmentInfo(name = 'debian13'): Promise<EnvironmentInfo> {
  const def = await readDefinition(name);
  const modules = new Set<string>([...STDLIB_MODULES, ...Object.values(def.pythonModules ?? {}).map((m) => m.split('.')[0])]);
  if (name === 'debian13') for (const m of DEBIAN13_SITE_MODULES) modules.add(m);
  return { name: def.name ?? name, unavailable: def.unavailable ?? {}, modules };
}

/**
 * Library versions of the built environment (python + each library), or the defaults when it has
 * not been built here.
 */
export async function environmentVersions(name = 'debian13', cacheDir?: string): Promise<Record<string, string>> {
  if (cacheDir) {
    try {
      // cache.js only reads the build cache (build.js would pull in Docker and SSH clients).
      const mod = await import('../../executor/environment/cache.js');
      const built = mod.findBuiltEnvironment(name, cacheDir);
      if (built) {
        const out: Record<string, string> = { python: built.versions.python };
        for (const [k, v] of Object.entries(built.versions.pythonModules)) if (v) out[k] = v;
        return out;
      }
    } catch {
      // not built / executor not available: fall through
    }
  }
  return { ...DEFAULT_ENV_VERSIONS };
}

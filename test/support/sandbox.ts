/**
 * The sandbox request that tests use for real kernels. NBM_TEST_SANDBOX picks the backend
 * (default bwrap, which needs no daemon); the environment must have been built (npm test does it).
 */
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxRequest } from '../../src/executor/types.js';
import { packageRoot } from '../../src/core/paths.js';
import { OWNER_FILE } from '../../src/executor/disk-quota.js';

export function testCacheDir(): string {
  if (process.env.NBMODERNIZE_CACHE_DIR) return process.env.NBMODERNIZE_CACHE_DIR;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'nbmodernize');
}

export function testSandboxRequest(overrides: Partial<SandboxRequest> = {}): SandboxRequest {
  const kind = (process.env.NBM_TEST_SANDBOX as SandboxRequest['kind']) || 'bwrap';
  return { kind, environment: 'debian13', cacheDir: testCacheDir(), memoryMb: 4096, ...overrides };
}

/** The shared material (corpus, docs) sits beside the checkout. */
export function sharedDir(): string {
  return path.resolve(process.env.NBM_SHARED_DIR || path.join(packageRoot(), '..', 'shared'));
}

/** Quota filesystems of sandbox workspaces owned by `pid` (this process by default) still mounted. */
export function quotaMounts(pid = process.pid): string[] {
  const read = (f: string) => {
    try {
      return fs.readFileSync(f, 'utf8').trim();
    } catch {
      return '';
    }
  };
  return read('/proc/self/mountinfo').split('\n').map((l) => l.split(' ')[4]).filter((m): m is string => !!m)
    .filter((m) => m.startsWith(path.join(os.tmpdir(), 'nbm-')) && read(path.join(path.dirname(m), OWNER_FILE)) === String(pid));
}

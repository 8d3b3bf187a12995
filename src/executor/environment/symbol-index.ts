/**
 * Builds and caches the environment's symbol index (symbols.json next to versions.json): the public
 * names of its packages, read by importing them inside the rootfs under bubblewrap with no network
 * (sandboxes/<env>/symbol_index.py; about 2 s and 0.6 MB for debian13). Built on first use and by
 * `env build`; not part of the environment's hash, since it is derived from the rootfs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { log } from '../../core/log.js';
import { EMPTY_SYMBOL_INDEX, type SymbolIndex } from '../../core/symbol-index.js';
import type { BuiltEnvironment } from './cache.js';
import { sandboxesDir } from './definition.js';

const FILE = 'symbols.json';
const cache = new Map<string, Promise<SymbolIndex>>();

export function symbolIndexFile(env: BuiltEnvironment): string {
  return path.join(env.dir, FILE);
}

/** The index for `env`, built when missing. Never throws: a failed build gives the empty index (and a warning). */
export function loadSymbolIndex(env: BuiltEnvironment): Promise<SymbolIndex> {
  let p = cache.get(env.dir);
  if (!p) {
    p = load(env).catch((err) => {
      log.warn(`symbol index for ${env.name} unavailable: ${err instanceof Error ? err.message : err}`);
      return EMPTY_SYMBOL_INDEX;
    });
    cache.set(env.dir, p);
  }
  return p;
}

/** Bumped with symbol_index.py's VERSION when what it records changes: an older cached index is rebuilt. */
const INDEX_VERSION = 3;

async function load(env: BuiltEnvironment): Promise<SymbolIndex> {
  const file = symbolIndexFile(env);
  if (!fs.existsSync(file) || readVersion(file) !== INDEX_VERSION) await build(env, file);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { modules: raw.modules ?? {}, origins: raw.origins ?? {}, signatures: raw.signatures ?? {} };
}

function readVersion(file: string): number | undefined {
  try {
    const v = (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

async function build(env: BuiltEnvironment, file: string): Promise<void> {
  const script = path.join(sandboxesDir(), env.name, 'symbol_index.py');
  if (!fs.existsSync(script)) throw new Error(`no ${path.relative(sandboxesDir(), script)}`);
  const args = [
    '--ro-bind', env.rootfs, '/', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
    '--ro-bind', script, '/tmp/symbol_index.py', '--unshare-all', '--die-with-parent', '--clearenv',
    '--setenv', 'HOME', '/tmp', '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'MPLBACKEND', 'Agg',
    '--setenv', 'MPLCONFIGDIR', '/tmp/mpl', '--setenv', 'PYTHONDONTWRITEBYTECODE', '1',
    'python3', '/tmp/symbol_index.py', '150',
  ];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('bwrap', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-2000); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`symbol_index.py exited ${code}: ${err.trim().split('\n').pop() ?? ''}`))));
  });
  JSON.parse(out); // only a complete index is cached
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, out);
  fs.renameSync(tmp, file);
}

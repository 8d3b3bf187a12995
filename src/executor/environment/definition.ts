/**
 * The environment definition (sandboxes/<name>/environment.json): what goes into the rootfs, and
 * the hash that keys its cache directory and Docker image tag.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { EnvironmentError } from '../../core/errors.js';
import { packageRoot } from '../../core/paths.js';

// Debian policy: lower case, digits, + - . ; at least two characters, starting alphanumeric.
const debPackageName = z.string().regex(/^[a-z0-9][a-z0-9+.-]+$/, 'not a Debian package name');
const absolutePath = z
  .string()
  .regex(/^\/[A-Za-z0-9._\/-]*$/, 'must be an absolute path of plain characters')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

const DefinitionSchema = z.strictObject({
  // Free text for humans; not part of the hash (see definitionHash).
  $comment: z.string().optional(),
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower case letters, digits, - and _ only'),
  description: z.string().optional(),
  distribution: z.literal('debian'),
  suite: z.string().regex(/^[a-z][a-z0-9-]*$/, 'a Debian suite or codename such as trixie'),
  variant: z.enum(['minbase', 'buildd', 'fakechroot']),
  components: z.array(z.string().regex(/^[a-z][a-z0-9-]*$/)).min(1),
  packages: z.array(debPackageName).min(1),
  postInstall: z.array(z.string().min(1)),
  mountPoints: z.array(absolutePath),
  pythonModules: z.record(z.string().min(1), z.string().regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, 'not a Python module name')),
  unavailable: z.record(z.string().min(1), z.array(z.string())),
});

export interface EnvDefinition {
  name: string;
  suite: string;
  variant: string;
  components: string[];
  packages: string[];
  postInstall: string[];
  mountPoints: string[];
  pythonModules: Record<string, string>;
  unavailable: Record<string, string[]>;
  description?: string;
  distribution: string;
}

export function sandboxesDir(): string {
  return path.join(packageRoot(), 'sandboxes');
}

export function definitionPath(name: string, dir = sandboxesDir()): string {
  return path.join(dir, name, 'environment.json');
}

/** Names of the directories under sandboxes/ that hold an environment.json. */
export function knownEnvironments(dir = sandboxesDir()): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'environment.json')))
    .map((d) => d.name)
    .sort();
}

export function loadDefinition(name: string, dir = sandboxesDir()): EnvDefinition {
  const file = definitionPath(name, dir);
  // The name becomes a path component: refuse anything that could walk out of sandboxes/.
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name) || !fs.existsSync(file)) {
    const known = knownEnvironments(dir);
    throw new EnvironmentError(
      `unknown environment "${name}"`,
      known.length ? `known environments: ${known.join(', ')}` : `no environment definitions found under ${dir}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new EnvironmentError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const def = parseDefinition(raw, file);
  if (def.name !== name) {
    throw new EnvironmentError(`${file}: "name" is "${def.name}" but the directory is "${name}"`, 'make them the same');
  }
  return def;
}

/** Validates a parsed environment.json; `source` names the file in error messages. */
export function parseDefinition(raw: unknown, source = 'environment.json'): EnvDefinition {
  const parsed = DefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
    throw new EnvironmentError(`invalid environment definition ${source}: ${problems.join('; ')}`);
  }
  const { $comment: _comment, ...def } = parsed.data;
  const dupes = def.packages.filter((p, i) => def.packages.indexOf(p) !== i);
  if (dupes.length) throw new EnvironmentError(`invalid environment definition ${source}: packages listed twice: ${dupes.join(', ')}`);
  return def;
}

/** JSON with object keys sorted at every level, so key order in the file never changes the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function definitionHash(def: EnvDefinition): string {
  const { $comment: _comment, ...rest } = def as EnvDefinition & { $comment?: string };
  return createHash('sha256').update(canonicalJson(rest)).digest('hex').slice(0, 12);
}

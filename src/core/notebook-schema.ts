/**
 * nbformat 4.5 validation with the schema shipped by nbformat itself (schemas/, copied from the
 * environment's python3-nbformat), so "valid" means what Jupyter means by it. The one ajv module.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Ajv } from 'ajv';
import { packageRoot } from './paths.js';
import type { Notebook } from './notebook.js';

let validator: ((nb: unknown) => boolean) & { errors?: any[] | null } | undefined;

function compile() {
  const schema = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'schemas', 'nbformat.v4.5.schema.json'), 'utf8'));
  // The file declares draft-04; the keywords it uses mean the same in ajv's default draft.
  delete schema.$schema;
  const ajv = new Ajv({ strict: false, allErrors: false });
  return ajv.compile(schema);
}

export function validateNotebook(nb: Notebook): string[] {
  validator ??= compile();
  if (validator(nb)) return [];
  return (validator.errors ?? []).slice(0, 5).map((e: any) => `${e.instancePath || '/'} ${e.message}`);
}

/** nbformat 4.5 requires cell ids; give old notebooks stable ones (same notebook -> same ids). */
export function upgradeToV45(nb: Notebook): Notebook {
  const seen = new Set<string>();
  const cells = nb.cells.map((cell, i) => {
    let id = typeof cell.id === 'string' && /^[a-zA-Z0-9-_]{1,64}$/.test(cell.id) ? cell.id : undefined;
    if (!id || seen.has(id)) {
      const src = Array.isArray(cell.source) ? cell.source.join('') : cell.source;
      id = crypto.createHash('sha1').update(`${i}\0${src}`).digest('hex').slice(0, 8);
      while (seen.has(id)) id = crypto.createHash('sha1').update(id).digest('hex').slice(0, 8);
    }
    seen.add(id);
    return { ...cell, id };
  });
  return { ...nb, nbformat: 4, nbformat_minor: 5, cells };
}

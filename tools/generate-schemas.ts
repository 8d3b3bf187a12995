/** Writes schemas/*.schema.json from the zod definitions (the single source of truth). `npm run schemas`. */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';
import { allSchemas } from './schema-list.js';

for (const [file, schema] of Object.entries(allSchemas())) {
  const out = path.join(packageRoot(), 'schemas', file);
  fs.writeFileSync(out, JSON.stringify(schema, null, 2) + '\n');
  console.log(`wrote ${path.relative(packageRoot(), out)}`);
}

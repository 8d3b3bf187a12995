import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../src/core/paths.js';
import { allSchemas } from '../../../tools/schema-list.js';

it('committed JSON Schemas match the zod definitions (run: npm run schemas)', () => {
  for (const [file, schema] of Object.entries(allSchemas())) {
    const committed = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'schemas', file), 'utf8'));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(schema)), `${file} is stale`);
  }
});

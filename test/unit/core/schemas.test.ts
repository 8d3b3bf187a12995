import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../src/core/paths.js';
import { generatedSchemas } from '../../../src/core/schemas.js';

it('committed JSON Schemas match the zod definitions (run: npm run schemas)', () => {
  for (const [file, schema] of Object.entries(generatedSchemas())) {
    const committed = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'schemas', file), 'utf8'));
    assert.deepEqual(committed, JSON.parse(JSON.stringify(schema)), `${file} is stale`);
  }
});

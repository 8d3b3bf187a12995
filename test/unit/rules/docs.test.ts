/** docs/rules.md is generated from the rule definitions; this keeps it current (NBM_UPDATE_DOCS=1 rewrites it). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../src/core/paths.js';
import { ALL_RULES } from '../../../src/fixers/rules/index.js';
import { renderRulesMarkdown } from '../../../src/fixers/rules/docs.js';

it('docs/rules.md lists every rule as defined', () => {
  const file = path.join(packageRoot(), 'docs', 'rules.md');
  const want = renderRulesMarkdown(ALL_RULES);
  if (process.env.NBM_UPDATE_DOCS === '1') fs.writeFileSync(file, want);
  assert.equal(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '', want, 'docs/rules.md is stale: run NBM_UPDATE_DOCS=1 npx tsx --test test/unit/rules/docs.test.ts');
});

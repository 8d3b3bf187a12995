/**
 * docs/rules.md and docs/rules/<library>.md are generated from the rule definitions; this keeps them
 * current (NBM_UPDATE_DOCS=1 rewrites them, and removes pages of libraries that have no rules left).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../src/core/paths.js';
import { ALL_RULES, codeOf } from '../../../src/fixers/rules/index.js';
import { renderRulesMarkdown } from '../../../src/fixers/rules/docs.js';
import { renderRulePages } from '../../../src/fixers/rules/docs-pages.js';

const UPDATE = process.env.NBM_UPDATE_DOCS === '1';
const STALE = 'is stale: run NBM_UPDATE_DOCS=1 npx tsx --test test/unit/rules/docs.test.ts';
const docs = path.join(packageRoot(), 'docs');
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

it('docs/rules.md lists every rule as defined', () => {
  const file = path.join(docs, 'rules.md');
  const want = renderRulesMarkdown(ALL_RULES);
  if (UPDATE) fs.writeFileSync(file, want);
  assert.equal(read(file), want, `docs/rules.md ${STALE}`);
});

it('docs/rules/<library>.md explains every rule as defined', () => {
  const dir = path.join(docs, 'rules');
  const pages = renderRulePages(ALL_RULES);
  if (UPDATE) {
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.md') && !pages.has(f)) fs.rmSync(path.join(dir, f));
    for (const [f, text] of pages) fs.writeFileSync(path.join(dir, f), text);
  }
  const extra = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md') && !pages.has(f)) : [];
  assert.deepEqual(extra, [], `docs/rules/ ${STALE}`);
  for (const [f, text] of pages) assert.equal(read(path.join(dir, f)), text, `docs/rules/${f} ${STALE}`);
});

it('every rule with a code has a section its table row links to', () => {
  const table = renderRulesMarkdown(ALL_RULES);
  const pages = [...renderRulePages(ALL_RULES).values()].join('\n');
  for (const r of ALL_RULES) {
    const code = codeOf(r);
    if (!code) continue;
    assert.ok(table.includes(`[${code}](rules/${r.library}.md#${code.toLowerCase()})`), code);
    assert.ok(pages.includes(`<a id="${code.toLowerCase()}"></a>\n### ${code} \`${r.id}\``), code);
  }
});

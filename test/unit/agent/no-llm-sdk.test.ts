/**
 * `--no-llm` never loads an LLM SDK: importing the loop and the modernize / audit commands, and
 * choosing "no LLM", resolves neither `openai` nor `@anthropic-ai/sdk` (a resolve hook records
 * every specifier the process asks for).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../../src/core/paths.js';

it('a rules-only run loads no LLM SDK', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-sdk-'));
  const seen = path.join(dir, 'seen.txt');
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(hooks, `import fs from 'node:fs';\nexport async function resolve(s, c, next) { fs.appendFileSync(${JSON.stringify(seen)}, s + '\\n'); return next(s, c); }\n`);
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify('file://' + hooks)});\n`);
  const script = `
    await import('./src/agent/modernize.ts');
    await import('./src/cli/commands/modernize.ts');
    await import('./src/cli/commands/audit.ts');
    const { providerFromEnv } = await import('./src/fixers/llm/factory.ts');
    if (providerFromEnv({ OPENAI_API_KEY: 'k' }, { noLlm: true }).provider !== null) throw new Error('--no-llm chose a provider');
    providerFromEnv({ OPENAI_API_KEY: 'k' }, {}); // even a configured provider loads its SDK only on its first call
  `;
  const r = spawnSync(process.execPath, ['--import', register, '--import', 'tsx', '--input-type=module', '-e', script], { cwd: packageRoot(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const specifiers = fs.readFileSync(seen, 'utf8').split('\n');
  assert.ok(specifiers.includes('zod'), 'the hook saw the imports');
  assert.deepEqual(specifiers.filter((s) => s === 'openai' || s.startsWith('@anthropic-ai/')), []);
  fs.rmSync(dir, { recursive: true, force: true });
});

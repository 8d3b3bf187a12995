import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { packageRoot } from '../../../src/core/paths.js';

it('nbmodernize --help lists every command with its one-line summary', async () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const { main } = await import('./src/cli/main.ts'); await main(['--help']);"], { cwd: packageRoot(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  for (const name of ['run', 'env', 'scan', 'fix', 'modernize', 'audit', 'report', 'check']) {
    const { summary } = await import(`../../../src/cli/commands/${name}.ts`);
    assert.ok(r.stdout.includes(`  ${name.padEnd(10)} ${summary}`), `${name}: ${summary}`);
  }
});

/** The built binary (node bin/nbmodernize.js; needs `npm run build`): rules, --help, scan with selectors. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../support/cli.js';
import { makeNotebook } from '../../support/notebooks.js';

it('rules PD001 --json prints the rule', async () => {
  const r = await runCli(['rules', 'PD001', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const rule = JSON.parse(r.stdout);
  assert.equal(rule.code, 'PD001');
  assert.equal(rule.id, 'pandas-ix');
  assert.equal(rule.removedIn, '1.0');
  assert.ok(rule.example.before && rule.example.after && rule.link);
});

it('rules lists every rule; rules pandas-ix explains it; an unknown code exits 2', async () => {
  const list = await runCli(['rules']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^SK001\s+sklearn-/m);
  const one = await runCli(['rules', 'pandas-ix']);
  assert.match(one.stdout, /^PD001 pandas-ix: /);
  const bad = await runCli(['rules', 'ZZ001']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown rule selector "ZZ001"/);
});

it('--help lists every command, rules among them', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  for (const name of ['run', 'modernize', 'scan', 'fix', 'rules', 'check', 'audit', 'report', 'env']) assert.match(r.stdout, new RegExp(`^  ${name} +\\S`, 'm'));
});

it('scan --select / --ignore and an ignore comment', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-rules-bin-'));
  const nb = path.join(dir, 'old.ipynb');
  fs.writeFileSync(nb, JSON.stringify(makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1]})\nprint df.ix[0]', '# nbmodernize: ignore[PD]\ndf.ix[0]'])));
  const r = await runCli(['scan', nb, '--select', 'PD', '--json'], { env: { NBMODERNIZE_CACHE_DIR: path.join(dir, 'cache') } });
  assert.equal(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.deepEqual(json.notebooks[0].findings.map((f: any) => [f.code, f.cell]), [['PD001', 0]]);
  assert.deepEqual(json.notebooks[0].suppressed.map((f: any) => [f.code, f.cell]), [['PD001', 1]]);
  const none = await runCli(['scan', nb, '--ignore', 'PD,PY'], { env: { NBMODERNIZE_CACHE_DIR: path.join(dir, 'cache') } });
  assert.equal(none.code, 0, none.stdout + none.stderr);
  const bad = await runCli(['scan', nb, '--select', 'P']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--select: unknown rule selector "P"/);
});

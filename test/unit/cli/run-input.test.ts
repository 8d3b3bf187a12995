/** Bad input to `nbmodernize run` fails fast with one clear line and a distinct exit code (no sandbox needed). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../support/cli.js';
import { makeNotebook } from '../../support/notebooks.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-cli-'));
const write = (name: string, content: unknown) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

const cases: Array<[string, string, number, RegExp]> = [
  ['malformed JSON', write('bad.ipynb', '{"cells": [ oops'), 3, /not valid JSON/],
  ['missing file', path.join(dir, 'nope.ipynb'), 3, /cannot read/],
  ['not a notebook', write('list.ipynb', '[1,2]'), 3, /not a notebook/],
  ['nbformat 2', write('v2.ipynb', { nbformat: 2, worksheets: [] }), 3, /unsupported nbformat 2/],
  ['R kernel', write('r.ipynb', { ...makeNotebook(['x <- 1']), metadata: { kernelspec: { name: 'ir', language: 'R', display_name: 'R' } } }), 4, /R kernel.*Python notebooks only/],
  ['no code cells', write('md.ipynb', makeNotebook([{ markdown: '# only prose' }])), 6, /no code cells/],
];

for (const [label, file, code, message] of cases) {
  it(`run rejects ${label} with exit ${code}`, async () => {
    const r = await runCli(['run', file, '--out-dir', path.join(dir, 'out')]);
    assert.equal(r.code, code, r.stderr);
    assert.match(r.stderr, message);
    assert.ok(r.stderr.trim().split('\n').length <= 2, `short message: ${r.stderr}`);
    assert.equal(r.stdout, '');
  });
}

it('run rejects a missing data dir with exit 5', async () => {
  const nb = write('ok.ipynb', makeNotebook(['print(1)']));
  const r = await runCli(['run', nb, '--data', path.join(dir, 'no-such-data')]);
  assert.equal(r.code, 5, r.stderr);
  assert.match(r.stderr, /data directory .* does not exist/);
});

it('run rejects unknown flags and bad values with exit 2', async () => {
  const nb = write('ok2.ipynb', makeNotebook(['print(1)']));
  assert.equal((await runCli(['run', nb, '--bogus'])).code, 2);
  assert.equal((await runCli(['run', nb, '--timeout', '-3'])).code, 2);
  assert.equal((await runCli(['run', nb, '--sandbox', 'vm'])).code, 2);
  assert.equal((await runCli(['run'])).code, 2);
});

it('run refuses to overwrite its input', async () => {
  const nb = write('same.ipynb', makeNotebook(['print(1)']));
  const before = fs.readFileSync(nb, 'utf8');
  const r = await runCli(['run', nb, '-o', nb]);
  assert.equal(r.code, 2);
  assert.equal(fs.readFileSync(nb, 'utf8'), before);
});

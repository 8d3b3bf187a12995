import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localModuleMissing, selectProjectFiles, stageProject, unchangedStaged } from '../../../src/executor/project-files.js';

function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-project-'));
  fs.writeFileSync(path.join(dir, 'helpers.py'), 'def f():\n    return 1\n');
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(path.join(dir, 'lib', 'util.py'), 'X = 2\n');
  fs.writeFileSync(path.join(dir, 'small.csv'), 'a\n1\n');
  fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(2048));
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref');
  fs.mkdirSync(path.join(dir, 'venv'));
  fs.writeFileSync(path.join(dir, 'venv', 'pyvenv.cfg'), '');
  fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
  return dir;
}

describe('project files', () => {
  it('selects source and small files; skips hidden, virtualenvs, symlinks and files over the limit, each with a reason', () => {
    const dir = project();
    const sel = selectProjectFiles({ dir, maxFileBytes: 1024 });
    assert.deepEqual(sel.files.map((f) => f.rel), ['helpers.py', 'lib/util.py', 'small.csv']);
    const why = Object.fromEntries(sel.skipped.map((s) => [s.rel, s.reason]));
    assert.equal(why['.git'], 'hidden');
    assert.match(why['big.bin'], /larger than/);
    assert.match(why.passwd, /symlink/);
    assert.match(why.venv, /virtualenv/);
  });

  it('stages writable copies; the originals are untouched and only changed copies count as outputs', () => {
    const dir = project();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-work-'));
    const req = { dir, maxFileBytes: 1024 };
    const manifest = stageProject(req, selectProjectFiles(req), work);
    fs.writeFileSync(path.join(work, 'small.csv'), 'a\n1\n2\n');
    assert.equal(fs.readFileSync(path.join(dir, 'small.csv'), 'utf8'), 'a\n1\n');
    assert.deepEqual([...unchangedStaged(manifest, work)].sort(), ['helpers.py', 'lib/util.py']);
  });

  it('names a helper module that is missing from the project, once and plainly', () => {
    assert.match(localModuleMissing("No module named 'utils'", ['helpers.py'], new Set(['numpy']), '/repo')!, /its own module utils.*\/repo/);
    assert.equal(localModuleMissing("No module named 'helpers'", ['helpers.py'], new Set()), undefined);
    assert.equal(localModuleMissing("No module named 'numpy.foo'", [], new Set(['numpy'])), undefined);
  });
});

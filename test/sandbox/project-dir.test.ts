/**
 * The notebook's own project in the real sandbox: a helper module and a small file of its
 * repository are there; the originals stay untouched when the notebook writes over its copies;
 * staged inputs are not reported as outputs; without the project the helper is missing, said plainly.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNotebook } from '../../src/executor/run-notebook.js';
import { modernizeNotebook } from '../../src/agent/modernize.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook } from '../support/notebooks.js';

function repo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-repo-'));
  fs.writeFileSync(path.join(dir, 'helpers.py'), 'def double(x):\n    return 2 * x\n');
  fs.writeFileSync(path.join(dir, 'small.csv'), 'a\n1\n2\n');
  return dir;
}
const NB = () => makeNotebook(['from helpers import double\nimport pandas as pd\ndf = pd.read_csv("small.csv")\nprint(double(df.a.sum()))', 'df.assign(b=1).to_csv("small.csv", index=False)\nopen("out.txt", "w").write("x")']);

describe('the notebook\'s own project (real kernels)', { timeout: 600_000 }, () => {
  it('runs with its helper module and small file; originals untouched; only real outputs reported', async () => {
    const dir = repo();
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-proj-out-'));
    const { result, notebook } = await runNotebook(NB(), { sandbox: testSandboxRequest({ project: { dir } }), outDir, timeoutS: 120 });
    assert.equal(result.status, 'ok', JSON.stringify(result.error));
    assert.match(JSON.stringify((notebook.cells[0] as any).outputs), /6/);
    assert.equal(fs.readFileSync(path.join(dir, 'small.csv'), 'utf8'), 'a\n1\n2\n', 'the original is untouched');
    assert.deepEqual(result.producedFiles.map((f) => f.name).sort(), ['out.txt', 'small.csv'], 'helpers.py is an input, not an output; the rewritten small.csv is an output');
  });

  it('without the project the helper is missing, and modernize says it is the notebook\'s own module', async () => {
    const dir = repo();
    const nb = NB();
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-proj-out-'));
    const report = await modernizeNotebook(nb, { sandbox: testSandboxRequest({ project: { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-empty-')) } }), outDir, notebookPath: path.join(dir, 'nb.ipynb'), llm: { provider: null, reason: 'test' }, timeoutS: 120 });
    assert.equal(report.verdict, 'not-reproduced');
    assert.equal(report.stopReason, 'unfixable');
    assert.match(report.reason, /its own module helpers/);
    const ok = await modernizeNotebook(NB(), { sandbox: testSandboxRequest({ project: { dir } }), outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-proj-out-')), notebookPath: path.join(dir, 'nb.ipynb'), llm: { provider: null, reason: 'test' }, timeoutS: 120 });
    assert.equal(ok.verdict, 'reproduced', ok.reason);
  });
});

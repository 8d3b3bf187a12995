/**
 * A real notebook from ../shared/corpus (read in place) that runs clean in the modern stack, in
 * both sandboxes, with the corpus data mounted Kaggle-style and next to the notebook (its author
 * read 'train.csv' from the notebook's folder).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readNotebookFile } from '../../src/core/notebook.js';
import { validateNotebook } from '../../src/core/notebook-schema.js';
import { runNotebook } from '../../src/executor/run-notebook.js';
import { dockerReachable } from '../../src/executor/docker-engine.js';
import { sharedDir, testSandboxRequest } from '../support/sandbox.js';

const NOTEBOOK = path.join(sharedDir(), 'corpus', 'notebooks', 'titanic', 'APO1979__titanic.ipynb');
const DATA = { dir: path.join(sharedDir(), 'corpus', 'data', 'titanic'), competition: 'titanic' };

for (const kind of ['bwrap', 'docker'] as const) {
  it(`corpus notebook APO1979__titanic runs clean in ${kind}`, { timeout: 300_000 }, async (t) => {
    if (kind === 'docker' && !(await dockerReachable())) {
      if (process.env.CI === 'true') assert.fail('CI=true but no Docker engine');
      return t.skip('no Docker engine');
    }
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-corpus-'));
    const original = readNotebookFile(NOTEBOOK).notebook;
    const { result, notebook } = await runNotebook(original, {
      sandbox: testSandboxRequest({ kind, data: { ...DATA }, dataNextToNotebook: true }),
      outDir: out,
    });
    assert.equal(result.status, 'ok', result.message);
    assert.ok(result.cells.length >= 10 && result.cells.every((c) => c.status === 'ok'));
    assert.deepEqual(validateNotebook(notebook), []);
    assert.ok(result.producedFiles.some((f) => f.name.endsWith('.csv')), 'it writes its submission');
    assert.ok(result.cells.some((c) => c.state?.variables.some((v) => v.type === 'DataFrame' && v.shape?.[0] === 891)), 'train data in the state summary');
  });
}

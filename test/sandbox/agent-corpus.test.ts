/** Rules-only modernization of real corpus notebooks (read in place), end to end in the sandbox. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readNotebookFile } from '../../src/core/notebook.js';
import { modernizeNotebook } from '../../src/agent/modernize.js';
import { ModernizeReport } from '../../src/core/modernize-report.js';
import { sharedDir, testSandboxRequest } from '../support/sandbox.js';
import { calibratedS } from '../support/speed.js';

// These notebooks compute (model fits): their budget follows the machine's measured speed.
const BUDGET_S = calibratedS(300);

const cases = [
  { competition: 'house-prices', name: 'Gleiwer__3_Data_preparation' },
  { competition: 'titanic', name: 'peawinter__titanic' },
];

for (const c of cases) {
  it(`modernizes ${c.name} with rules only until it reproduces`, { timeout: (BUDGET_S + 300) * 1000 }, async () => {
    const file = path.join(sharedDir(), 'corpus', 'notebooks', c.competition, `${c.name}.ipynb`);
    const before = fs.readFileSync(file, 'utf8');
    const report = await modernizeNotebook(readNotebookFile(file).notebook, {
      sandbox: testSandboxRequest({ kind: 'bwrap', data: { dir: path.join(sharedDir(), 'corpus', 'data', c.competition), competition: c.competition, exclude: ['ground_truth'] } }),
      outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-agent-corpus-')),
      notebookPath: file,
      llm: { provider: null, reason: 'test: rules only' },
      timeoutS: BUDGET_S,
    });
    ModernizeReport.parse(report);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.ok(report.fixes.length > 0 && report.fixes.every((f) => f.sourceKind === 'rule'));
    assert.equal(report.llm.calls, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'the corpus file is untouched');
  });
}

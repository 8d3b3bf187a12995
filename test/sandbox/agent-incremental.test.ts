/**
 * Incremental re-execution gives the same verdict as full re-runs on the same case, with fewer
 * cell executions (asserted on counts, not times).
 */
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { modernizeNotebook } from '../../src/agent/modernize.js';
import { providerFromEnv } from '../../src/fixers/llm/index.js';
import { LlmStandin, type StandinRequest } from '../support/llm-standin.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook } from '../support/notebooks.js';

let standin: LlmStandin;
before(async () => {
  standin = await LlmStandin.start();
});
after(async () => {
  await standin.stop();
});

// Six healthy cells, then three cells that each fail once (errors only a model fixes).
const CELLS = [
  'import numpy as np\nrng = np.random.RandomState(0)',
  'a = 1',
  'data = rng.rand(1000, 10)',
  'means = data.mean(axis=0)',
  'b = a + 1',
  'scale = float(means.sum() > 0)',
  'c = b.plus(1)',
  'd = c.times(2)',
  'e = d.minus(0)',
  'print(int(e * scale))',
];
const FIXES: Record<string, string> = { 'b.plus(1)': 'c = b + 1', 'c.times(2)': 'd = c * 2', 'd.minus(0)': 'e = d - 0' };

/** Answers with the fix for whichever broken cell the prompt is about. */
const answer = {
  dynamic: (req: StandinRequest) => {
    const body = JSON.stringify(req.body);
    const key = Object.keys(FIXES).find((k) => body.includes(`is cell ${CELLS.findIndex((c) => c.includes(k))}`) || body.includes(k));
    return { reply: `Plan: fix the call.\n\`\`\`python\n${FIXES[key!]}\n\`\`\`` };
  },
};

async function modernize(incremental: boolean) {
  const nb = makeNotebook(CELLS);
  (nb.cells[9] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '6\n' }];
  // Each run its own script: replies one run leaves unused cannot answer the other's requests.
  const session = standin.session([answer, answer, answer]);
  const choice = providerFromEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: session.openaiBaseUrl }, { llm: 'openai' });
  const report = await modernizeNotebook(nb, {
    sandbox: testSandboxRequest({ kind: 'bwrap' }),
    outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-incr-')),
    notebookPath: '/virtual/incremental.ipynb',
    llm: { provider: choice.provider, reason: choice.reason, model: choice.model, providerName: 'openai' },
    incremental,
  });
  // Each run asks for exactly its three fixes: a leftover answer would serve the next run.
  standin.expectConsumed();
  return report;
}

it('incremental and full re-runs reach the same verdict; incremental executes fewer cells', { timeout: 600_000 }, async () => {
  const inc = await modernize(true);
  const full = await modernize(false);
  assert.equal(inc.verdict, 'reproduced', inc.reason);
  assert.equal(full.verdict, inc.verdict);
  assert.deepEqual(inc.fixes.map((f) => f.cell), [6, 7, 8]);
  assert.deepEqual(full.fixes.map((f) => f.cell), [6, 7, 8]);
  assert.deepEqual(inc.reexecutions.map((r) => r.mode), ['incremental', 'incremental', 'incremental']);
  assert.deepEqual(full.reexecutions.map((r) => r.mode), ['restart', 'restart', 'restart']);
  // incremental: 7 + 2 + 2 + 2 + a final clean run of 10 = 23; full: 7 + 8 + 9 + 10 = 34.
  assert.equal(inc.cellExecutions, 23);
  assert.equal(full.cellExecutions, 34);
  assert.ok(inc.cellExecutions < full.cellExecutions);
});

it('a rule fix in a cell that bound names before failing resumes at that cell, not from cell 0', { timeout: 600_000 }, async () => {
  // Cell 2 imports and binds `alphas` before its failing call (scikit-learn 1.2's parameter check
  // refuses max_iter=1e4): re-running cell 2 binds both again, so nothing above it needs to re-run.
  const nb = makeNotebook([
    'import numpy as np\nX = np.arange(40.).reshape(20, 2)\ny = X[:, 0] * 3 + 1',
    'n = len(y)',
    'from sklearn.linear_model import Lasso\nalphas = [0.1, 0.2]\nmodel = Lasso(max_iter=1e4, alpha=alphas[0]).fit(X, y)\nprint(round(model.score(X, y), 2), n)',
  ]);
  (nb.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '1.0 20\n' }];
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-incr-rebind-'));
  const report = await modernizeNotebook(nb, {
    sandbox: testSandboxRequest({ kind: 'bwrap' }),
    outDir,
    notebookPath: '/virtual/rebind.ipynb',
    llm: { provider: null, reason: 'test: rules only' },
    incremental: true,
  });
  assert.equal(report.verdict, 'reproduced', report.reason);
  assert.deepEqual(report.fixes.filter((f) => f.step > 0).map((f) => f.cell), [2]);
  // The fix may be a verified candidate: its trial's re-execution is in the trajectory.
  const events = fs.readFileSync(path.join(outDir, 'trajectory.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const re = events.filter((e) => e.type === 'reexecution');
  assert.ok(re.length >= 1, 'a re-execution after the fix');
  assert.equal(re[0].mode, 'incremental', JSON.stringify(re));
  assert.equal(re[0].fromCell, 2);
  assert.match(re[0].reason, /alphas/);
  assert.equal(report.cellExecutions, 3 + 1 + 3, 'the first run, cell 2 again, the final clean run');
});

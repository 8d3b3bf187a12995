/**
 * `nbmodernize modernize` through the compiled CLI: the example (rules only, says so), the LLM via
 * the SDKs' own environment variables pointing at the loopback stand-in, and record -> replay
 * giving the same result with the server gone.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { makeNotebook } from '../support/notebooks.js';
import { LlmStandin } from '../support/llm-standin.js';
import { packageRoot } from '../../src/core/paths.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-climod-'));
const NO_LLM_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' };

it('modernizes the bundled 2016-style example with rules only, and says it is rules only', { timeout: 300_000 }, async () => {
  const root = packageRoot();
  const example = path.join(root, 'examples', 'legacy-titanic.ipynb');
  const before = fs.readFileSync(example, 'utf8');
  const out = path.join(dir, 'example');
  const r = await runCli(['modernize', example, '--data', path.join(root, 'examples', 'data', 'mini-titanic'), '--competition', 'titanic', '--out-dir', out, '--sandbox', 'bwrap', '--json'], { env: NO_LLM_ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /rules only/);
  const report = JSON.parse(r.stdout);
  assert.equal(report.verdict, 'reproduced');
  assert.equal(report.oracle, 'stored-outputs');
  assert.equal(report.llm.calls, 0);
  assert.ok(report.fixes.length >= 4 && report.fixes.every((f: any) => f.sourceKind === 'rule'));
  assert.ok(report.fixes.some((f: any) => /py2-print/.test(f.source)));
  assert.equal(fs.readFileSync(example, 'utf8'), before, 'the original is never modified');
  for (const f of ['legacy-titanic.modernized.ipynb', 'changes.diff', 'report.json', 'trajectory.jsonl', 'edits.jsonl', 'files/submission.csv']) {
    assert.ok(fs.existsSync(path.join(out, f)), f);
  }
  const modernized = JSON.parse(fs.readFileSync(path.join(out, 'legacy-titanic.modernized.ipynb'), 'utf8'));
  assert.equal(modernized.metadata.nbmodernize.verdict, 'reproduced');
  assert.ok(modernized.cells.some((c: any) => c.metadata?.nbmodernize?.changed));
});

it('uses the LLM through OPENAI_BASE_URL, records the traffic, and replays it without the server', { timeout: 300_000 }, async () => {
  const nb = makeNotebook(['import math', 'print(math.sqroot(16))']);
  (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '4.0\n' }];
  const file = path.join(dir, 'typo.ipynb');
  fs.writeFileSync(file, JSON.stringify(nb));
  const recording = path.join(dir, 'llm.jsonl');
  const standin = await LlmStandin.start([{ reply: 'Plan: typo.\n```python\nprint(math.sqrt(16))\n```' }]);
  let first;
  try {
    const r = await runCli(['modernize', file, '--out-dir', path.join(dir, 'rec'), '--sandbox', 'bwrap', '--llm', 'openai', '--model', 'gpt-4.1-mini', '--record-llm', recording, '--json'], {
      env: { ...NO_LLM_ENV, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: standin.openaiBaseUrl },
    });
    assert.equal(r.code, 0, r.stderr);
    first = JSON.parse(r.stdout);
    assert.equal(standin.requests.length, 1);
    assert.equal(standin.requests[0].apiKey, 'test-key');
  } finally {
    await standin.stop();
  }
  assert.equal(first.verdict, 'reproduced');
  assert.equal(first.llm.calls, 1);
  assert.equal(first.llm.model, 'gpt-4.1-mini');
  assert.ok(fs.readFileSync(recording, 'utf8').trim().split('\n').length >= 1);
  const again = await runCli(['modernize', file, '--out-dir', path.join(dir, 'replay'), '--sandbox', 'bwrap', '--replay-llm', recording, '--json'], { env: NO_LLM_ENV });
  assert.equal(again.code, 0, again.stderr);
  const second = JSON.parse(again.stdout);
  assert.equal(second.verdict, first.verdict);
  assert.deepEqual(second.fixes.map((f: any) => [f.type, f.cell]), first.fixes.map((f: any) => [f.type, f.cell]));
  assert.equal(fs.readFileSync(path.join(dir, 'replay', 'changes.diff'), 'utf8'), fs.readFileSync(path.join(dir, 'rec', 'changes.diff'), 'utf8'));
});

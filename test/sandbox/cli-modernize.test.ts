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

it('--llm-mode tools with --llm-max-tokens and --llm-timeout: a tool conversation (Anthropic) recorded, then replayed without the server', { timeout: 300_000 }, async () => {
  const nb = makeNotebook(['import math', 'root = math.sqroot(16)', 'print(root)']);
  (nb.cells[2] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '4.0\n' }];
  const file = path.join(dir, 'tools.ipynb');
  fs.writeFileSync(file, JSON.stringify(nb));
  const bad = await runCli(['modernize', file, '--llm-mode', 'chat'], { env: NO_LLM_ENV });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /unknown --llm-mode "chat"/);
  const recording = path.join(dir, 'tools.jsonl');
  const fix = [{ op: 'search_replace', cell: 1, search: 'math.sqroot', replace: 'math.sqrt' }];
  const standin = await LlmStandin.start([
    { reply: '', toolCalls: [{ name: 'view_cell', input: { n: 2 } }, { name: 'search_notebook', input: { text: 'root' } }] },
    { reply: 'The typo sqroot.', toolCalls: [{ name: 'submit', input: { edits: fix, plan: 'math has sqrt, not sqroot.' } }] },
  ]);
  const flags = ['--sandbox', 'bwrap', '--llm-mode', 'tools', '--llm-max-tokens', '512', '--llm-timeout', '30', '--json'];
  let first;
  try {
    const r = await runCli(['modernize', file, '--out-dir', path.join(dir, 'tools-rec'), '--llm', 'anthropic', '--record-llm', recording, ...flags], {
      env: { ...NO_LLM_ENV, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: standin.anthropicBaseUrl },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /LLM anthropic claude-sonnet-4-6, tool mode/);
    first = JSON.parse(r.stdout);
    assert.equal(standin.requests.length, 2);
    for (const q of standin.requests) {
      assert.equal(q.body.max_tokens, 512);
      assert.ok(q.body.tools.some((t: any) => t.name === 'try_patch'));
    }
    assert.match(JSON.stringify(standin.requests[1].body.messages.at(-1)), /cell 1 line 1: root = math.sqroot\(16\)/);
  } finally {
    await standin.stop();
  }
  assert.equal(first.verdict, 'reproduced');
  assert.equal(first.llm.calls, 2);
  const again = await runCli(['modernize', file, '--out-dir', path.join(dir, 'tools-replay'), '--replay-llm', recording, ...flags], { env: NO_LLM_ENV });
  assert.equal(again.code, 0, again.stderr);
  const second = JSON.parse(again.stdout);
  assert.equal(second.verdict, 'reproduced');
  assert.equal(second.llm.calls, 2);
  assert.equal(fs.readFileSync(path.join(dir, 'tools-replay', 'changes.diff'), 'utf8'), fs.readFileSync(path.join(dir, 'tools-rec', 'changes.diff'), 'utf8'));
});

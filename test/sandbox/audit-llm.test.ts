/**
 * `audit --fix` with the LLM through the compiled CLI, real kernels in bwrap and the real OpenAI
 * SDK talking to the loopback stand-in: what an interruption and a failing provider do to the
 * record. Ctrl-C cancels the request in flight (the SDK's own abort) and the notebook is given
 * back, not finished; a provider failure is "could not evaluate", never a verdict on the notebook;
 * an outage stops the batch with its own exit code; --resume (--retry-failed) runs them again.
 */
import { it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, descendants, alive } from '../support/cli.js';
import { LlmStandin } from '../support/llm-standin.js';
import { readSummary, waitFor, withOutputs, writeTree } from '../support/audit-inputs.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-audit-llm-'));
let standin: LlmStandin;
before(async () => {
  standin = await LlmStandin.start();
});
after(async () => {
  await standin.stop();
});
// A scripted reply nobody asked for fails the test that scripted it, and never answers the next one.
afterEach(() => standin.expectConsumed());

const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: standin.openaiBaseUrl, ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' });
const FIXED = 'total = df.a.sum()\nprint(total)';
const reply = { reply: `Plan: the method is sum.\n\n\`\`\`python\n${FIXED}\n\`\`\`\n` };

/** Notebooks only the model can fix (a typo no rule knows). */
function typoDir(name: string, n: number): string {
  const files: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) files[`nb${i}.ipynb`] = withOutputs([['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', ''], ['total = df.a.summ()\nprint(total)', '6\n']]);
  return writeTree(path.join(root, name), files);
}

function storeLines(out: string): any[] {
  return fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

const audit = (input: string, out: string, ...extra: string[]) => ['audit', input, '--out-dir', out, '--sandbox', 'bwrap', '--fix', '--llm', 'openai', ...extra];

it('SIGINT while the model holds its reply: the request is aborted, the audit exits within 5 s, nothing is left running, the notebook is given back and --resume runs it', async (t) => {
  const input = typoDir('held', 1);
  const out = path.join(root, 'out-held');
  // The reply would come after 10 minutes: only an abort ends the call sooner.
  standin.push({ delayMs: 600_000, then: reply });
  const before = standin.requests.length;
  let pid = 0;
  const running = runCli(audit(input, out, '--jobs', '1'), { env: env(), onSpawn: (p) => (pid = p) });
  await waitFor(() => standin.requests.length > before, 180_000, 'the LLM request');
  const tree = descendants(pid);
  assert.ok(tree.length > 2, 'a worker and its sandbox run under the audit');
  const t0 = Date.now();
  process.kill(pid, 'SIGINT');
  const r = await running;
  const stopMs = Date.now() - t0;
  assert.equal(r.code, 130, r.stderr);
  t.diagnostic(`stopped ${stopMs} ms after SIGINT`);
  assert.ok(stopMs < 5000, `the audit took ${stopMs} ms to stop after SIGINT`);
  assert.deepEqual(tree.filter(alive), [], 'no worker, sandbox or kernel is left');
  await waitFor(() => standin.abandoned === 1, 5000, 'the stand-in to see the client go away');
  const lines = storeLines(out);
  assert.ok(lines.some((l) => l.type === 'released' && l.id === 'nb0.ipynb' && l.reason === 'interrupted'), 'recorded as interrupted');
  assert.ok(!lines.some((l) => l.type === 'finished'), 'not recorded as finished');
  assert.match(r.stderr, /audit interrupted/);

  standin.push(reply);
  const resumed = await runCli(audit(input, out, '--resume'), { env: env() });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /1 notebooks, 1 to run/);
  const s = readSummary(out);
  assert.deepEqual([s.notebooks[0]!.verdict, s.notebooks[0]!.before], ['reproduced', 'not-reproduced'], s.notebooks[0]!.reason);
});

it('a provider outage: each notebook is "failed" with stop reason llm-error and the provider\'s error; after N in a row the audit stops starting notebooks (exit 11); --resume --retry-failed runs them again', async () => {
  const input = typoDir('outage', 3);
  const out = path.join(root, 'out-outage');
  // 503 on every attempt (Retry-After 0 keeps the retries quick): 1 call + 4 retries per notebook.
  for (let i = 0; i < 10; i++) standin.push({ status: 503, retryAfter: 0, message: 'upstream overloaded' });
  const before = standin.requests.length;
  const r = await runCli(audit(input, out, '--jobs', '1', '--max-provider-failures', '2'), { env: env() });
  assert.equal(r.code, 11, r.stderr);
  assert.equal(standin.requests.length - before, 10, 'two notebooks, five attempts each; the third never started');
  assert.match(r.stderr, /stopped early: the LLM provider failed for 2 notebooks in a row \(last: openai: HTTP 503/);
  assert.match(r.stderr, /--resume --retry-failed/);
  const finished = storeLines(out).filter((l) => l.type === 'finished').map((l) => l.record);
  assert.equal(finished.length, 2, 'the finished results are kept, nothing else is recorded');
  for (const rec of finished) {
    assert.deepEqual([rec.verdict, rec.status, rec.stopReason, rec.taxonomy.cause], ['failed', 'llm-error', 'llm-error', 'llm-error']);
    assert.match(rec.reason, /LLM provider failed: .*HTTP 503 \(server\): (503 )?upstream overloaded/);
    assert.match(rec.error.evalue, /HTTP 503/);
    assert.equal(rec.before.verdict, 'not-reproduced');
  }
  assert.equal(readSummary(out).outcomes['could not evaluate'], 2);

  // Plain --resume keeps the failed records and runs only the notebook never started.
  standin.push(reply);
  const resumed = await runCli(audit(input, out, '--resume'), { env: env() });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /3 notebooks, 2 already done, 1 to run/);
  // --retry-failed: the provider is back, the two run again and reproduce.
  standin.push(reply, reply);
  const retried = await runCli(audit(input, out, '--resume', '--retry-failed'), { env: env() });
  assert.equal(retried.code, 0, retried.stderr);
  assert.match(retried.stderr, /3 notebooks, 1 already done, 2 to run/);
  const s = readSummary(out);
  assert.deepEqual(s.totals, { notebooks: 3, reproduced: 3, 'not-reproduced': 0, failed: 0 });
});

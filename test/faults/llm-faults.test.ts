/**
 * Fault suite, LLM group: a misbehaving provider through the loopback stand-in, the real OpenAI SDK
 * and a real kernel in bwrap. Every fault is retried (and then recovers), rejected (the reply's
 * patch never runs; the reason goes back to the model) or recorded (verdict "failed", stop reason
 * llm-error, the provider's error): never a hang (each case has a deadline), never a crash.
 */
import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { modernizeNotebook, type AgentEvent } from '../../src/agent/modernize.js';
import { providerFromEnv } from '../../src/fixers/llm/index.js';
import { LlmStandin, type StandinStep } from '../support/llm-standin.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook } from '../support/notebooks.js';

let standin: LlmStandin;
before(async () => {
  standin = await LlmStandin.start();
});
after(async () => {
  await standin.stop();
});

const GOOD = 'total = df.a.sum()\nprint(total)';
const answer = (code: string): StandinStep => ({ reply: `Plan: fix the call.\n\n\`\`\`python\n${code}\n\`\`\`\n` });
const good = answer(GOOD);
const times = (n: number, step: StandinStep) => Array.from({ length: n }, () => step);

/** A typo only the model can fix; the stored output is what the fixed cell prints. */
function notebook() {
  const nb = makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)']);
  (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '6\n' }];
  return nb;
}

async function modernize(script: StandinStep[]) {
  standin.push(...script);
  const before = standin.requests.length;
  const events: AgentEvent[] = [];
  // Per-attempt timeout 1 s and quick backoff: the real policy, scaled down.
  const choice = providerFromEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: standin.openaiBaseUrl }, { llm: 'openai', timeoutMs: 1000, retry: { baseDelayMs: 10, maxDelayMs: 50 } });
  const report = await modernizeNotebook(notebook(), {
    sandbox: testSandboxRequest({ kind: 'bwrap' }),
    outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-fault-llm-')),
    notebookPath: '/kaggle/working/fault.ipynb',
    llm: { provider: choice.provider, reason: choice.reason, model: choice.model, providerName: 'openai' },
    forbiddenPaths: ['/kaggle/input/mini/ground_truth.csv'],
    timeoutS: 120,
    onEvent: (e) => events.push(e),
  });
  // What was refused: the replies whose patch failed validation (their reason went back to the model).
  const rejected = events.flatMap((e) => (e.type === 'llm' ? e.calls.filter((c) => c.outcome === 'invalid').map((c) => c.feedback ?? '') : []));
  return { report, requests: standin.requests.length - before, rejected };
}

const CASE = { timeout: 180_000 };

describe('LLM faults', () => {
  afterEach(() => standin.expectConsumed());

  it('a timeout, then an answer: retried, reproduces', CASE, async () => {
    const r = await modernize([{ delayMs: 5000, then: good }, good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.equal(r.requests, 2);
  });

  it('timeouts past the retries: recorded as failed / llm-error', CASE, async () => {
    const r = await modernize(times(5, { delayMs: 5000, then: good }));
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['failed', 'llm-error']);
    assert.match(r.report.reason, /timed out/);
    assert.equal(r.requests, 5);
  });

  it('a 429 storm, then an answer: retried, reproduces', CASE, async () => {
    const r = await modernize([...times(4, { status: 429, retryAfter: 0, message: 'slow down' }), good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.equal(r.requests, 5);
  });

  it('a 429 storm past the retries: recorded as failed / llm-error with the 429', CASE, async () => {
    const r = await modernize(times(5, { status: 429, retryAfter: 0, message: 'slow down' }));
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['failed', 'llm-error']);
    assert.match(r.report.reason, /HTTP 429 \(rate-limit\)/);
  });

  it('5xx (500, 502, 503), then an answer: retried, reproduces', CASE, async () => {
    const r = await modernize([{ status: 500 }, { status: 502 }, { status: 503 }, good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
  });

  it('5xx past the retries: recorded as failed / llm-error', CASE, async () => {
    const r = await modernize(times(5, { status: 500, message: 'boom' }));
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['failed', 'llm-error']);
    assert.match(r.report.reason, /HTTP 500 \(server\)/);
  });

  it('truncated JSON: recorded as failed / llm-error (malformed reply), not retried', CASE, async () => {
    const r = await modernize([{ malformed: '{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi' }]);
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['failed', 'llm-error']);
    assert.match(r.report.reason, /not valid JSON|malformed/i);
  });

  it('empty choices: recorded as failed / llm-error (no message content)', CASE, async () => {
    const r = await modernize([{ malformed: JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [] }) }]);
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['failed', 'llm-error']);
    assert.match(r.report.reason, /no message content/);
  });

  it('a reply that runs `!pip install`: rejected, the next reply reproduces', CASE, async () => {
    const r = await modernize([answer(`!pip install pandas==0.19\n${GOOD}`), good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.ok(r.rejected.some((x) => /install/.test(x)), r.rejected.join(' | '));
  });

  it('a reply that calls the network: rejected, the next reply reproduces', CASE, async () => {
    const r = await modernize([answer(`import requests\nrequests.get("http://203.0.113.1/data.csv")\n${GOOD}`), good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.ok(r.rejected.some((x) => /network|URL/.test(x)), r.rejected.join(' | '));
  });

  it('a reply that reads the ground truth: rejected, the next reply reproduces', CASE, async () => {
    const r = await modernize([answer(`truth = pd.read_csv("../input/mini/ground_truth.csv")\n${GOOD}`), good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.ok(r.rejected.some((x) => /ground-truth/.test(x)), r.rejected.join(' | '));
  });

  it('a reply that writes literal predictions: rejected, the next reply reproduces', CASE, async () => {
    const literals = Array.from({ length: 25 }, (_, i) => i % 2).join(', ');
    const r = await modernize([answer(`predictions = [${literals}]\n${GOOD}`), good]);
    assert.equal(r.report.verdict, 'reproduced', r.report.reason);
    assert.ok(r.rejected.some((x) => /literal/.test(x)), r.rejected.join(' | '));
  });

  it('only hostile replies: all rejected, the loop stops with no-fix-available (nothing hostile ever ran)', CASE, async () => {
    const r = await modernize(times(4, answer(`!pip install lightgbm\n${GOOD}`)));
    assert.deepEqual([r.report.verdict, r.report.stopReason], ['not-reproduced', 'no-fix-available']);
    assert.equal(r.report.fixes.length, 0);
    assert.equal(r.requests, 4, 'the first reply and 3 reflections');
  });
});

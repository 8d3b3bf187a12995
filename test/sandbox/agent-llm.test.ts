/**
 * The modernization loop with the LLM, end to end: real kernels in the real sandbox, the real
 * OpenAI and Anthropic SDKs talking HTTP to a loopback stand-in that answers from a script.
 */
import { describe, it, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { modernizeNotebook, type ModernizeOptions } from '../../src/agent/modernize.js';
import { ModernizeReport } from '../../src/core/modernize-report.js';
import { providerFromEnv } from '../../src/fixers/llm/index.js';
import { LlmStandin, type StandinRequest } from '../support/llm-standin.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook } from '../support/notebooks.js';
import type { Notebook } from '../../src/core/notebook.js';

/** A notebook as it was saved after its original run: stored stdout per code cell. */
function withStoredOutputs(nb: Notebook, outputs: Record<number, string>): Notebook {
  for (const [i, text] of Object.entries(outputs)) {
    (nb.cells[Number(i)] as any).outputs = [{ output_type: 'stream', name: 'stdout', text }];
  }
  return nb;
}

const reply = (code: string, plan = 'Plan: the smallest change that fixes it.') => ({ reply: `${plan}\n\n\`\`\`python\n${code}\n\`\`\`\n` });

function outDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-agent-'));
}

let standin: LlmStandin;
before(async () => {
  standin = await LlmStandin.start();
});
after(async () => {
  await standin.stop();
});


function options(kind: 'openai' | 'anthropic', extra: Partial<ModernizeOptions> = {}, capUsd = 1): ModernizeOptions {
  const env = kind === 'openai'
    ? { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: standin.openaiBaseUrl }
    : { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: standin.anthropicBaseUrl };
  const choice = providerFromEnv(env, { llm: kind, retry: { baseDelayMs: 10, maxDelayMs: 50 } as any });
  assert.ok(choice.provider, choice.reason);
  // The agent meters the provider against its spend cap (checked before each call).
  const provider = choice.provider;
  return {
    sandbox: testSandboxRequest({ kind: 'bwrap' }),
    outDir: outDir(),
    notebookPath: '/virtual/test.ipynb',
    llm: { provider, reason: choice.reason, model: choice.model, providerName: kind },
    timeoutS: 120,
    budgets: { spendCapUsd: capUsd },
    ...extra,
  };
}

describe('modernize with an LLM (loopback stand-in, real SDKs, real kernels)', { timeout: 600_000 }, () => {
  // One test's unconsumed scripted replies must never answer the next test's requests, and a test
  // that scripted a reply the code never asked for fails (a test that expects fewer calls clears its script).
  afterEach(() => standin.expectConsumed());

  it('fixes an error only an LLM can fix (OpenAI wire format) and reproduces', async () => {
    const nb = withStoredOutputs(makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)']), { 1: '6\n' });
    standin.push(reply('total = df.a.sum()\nprint(total)'));
    const before = standin.requests.length;
    const report = await modernizeNotebook(nb, options('openai'));
    ModernizeReport.parse(report);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(report.stopReason, 'reproduced');
    assert.equal(report.oracle, 'stored-outputs');
    assert.deepEqual(report.fixes.map((f) => [f.type, f.sourceKind, f.cell]), [['error-repair', 'llm', 1]]);
    assert.equal(report.llm.calls, 1);
    assert.ok(report.llm.inputTokens > 0 && report.llm.outputTokens > 0);
    const req = standin.requests[before];
    assert.equal(req.api, 'openai');
    const prompt = JSON.stringify(req.body);
    assert.match(prompt, /summ/, 'the failing cell is in the prompt');
    assert.match(prompt, /AttributeError/, 'so is its error');
    assert.match(prompt, /df = pd\.DataFrame/, 'and the cell defining what it uses (def-use)');
    const modernized = JSON.parse(fs.readFileSync(report.artifacts.notebook, 'utf8'));
    assert.equal(modernized.cells[1].metadata.nbmodernize.fixType, 'error-repair');
    assert.match(fs.readFileSync(report.artifacts.diff, 'utf8'), /-total = df\.a\.summ\(\)\n\+total = df\.a\.sum\(\)/);
    const edits = fs.readFileSync(report.artifacts.edits, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(edits[0].before, 'total = df.a.summ()\nprint(total)');
    assert.equal(edits[0].error.ename, 'AttributeError');
  });

  it('recovers from a malformed reply (reflection) and a 429 (retry) with the Anthropic wire format', async () => {
    const nb = withStoredOutputs(makeNotebook(['values = [3, 1, 2]', 'print(sorted(values, reversed=True))']), { 1: '[3, 2, 1]\n' });
    standin.push({ status: 429, retryAfter: 0, message: 'slow down' }, { reply: 'I would change the keyword, but here is no code block.' }, reply('print(sorted(values, reverse=True))'));
    const before = standin.requests.length;
    const report = await modernizeNotebook(nb, options('anthropic'));
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(standin.requests.length - before, 3, '429, malformed, good');
    assert.equal(standin.requests[before].api, 'anthropic');
    assert.equal(report.llm.calls, 2, 'the retried 429 is one call; the malformed reply and the good one are two');
    const third = JSON.stringify(standin.requests[before + 2].body);
    assert.match(third, /python/i, 'the reflection tells the model what was wrong');
  });

  it('runtime-reduction: a needlessly slow loop over a 20 s budget is rewritten and the notebook reproduces', async () => {
    // Slow by waiting, not by computing: 200 x 0.25 s is 50 s on any machine, so it exceeds the 20 s
    // budget however fast the machine is (a pure-CPU loop finished in time on a fast one).
    const slow = 'import time\ntotal = 0\nfor i in range(n):\n    time.sleep(0.25)\n    total += i % 7\nprint(total)';
    const nb = withStoredOutputs(makeNotebook(['n = 200', slow]), { 1: '594\n' });
    standin.push({
      dynamic: (req: StandinRequest) => {
        assert.match(JSON.stringify(req.body), /runtime/i, 'the runtime-reduction prompt');
        return reply('total = sum(range(7)) * (n // 7) + sum(range(n % 7))\nprint(total)', 'Plan: same result in closed form.');
      },
    });
    const report = await modernizeNotebook(nb, options('openai', { timeoutS: 20 }));
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(report.baseline.status, 'budget-exceeded');
    assert.deepEqual(report.fixes.map((f) => f.type), ['runtime-reduction']);
  });

  it('score-calibration: a drift no rule explains goes to the model, which sees the original value', async () => {
    // (A changed library default is now pinned by a verified rule candidate before any model call;
    // this drift comes from the author's own arithmetic, which no rule knows.)
    const nb = withStoredOutputs(makeNotebook([
      'counts = [7, 2]',
      'print("ratio: %.2f" % (counts[0] / counts[1]))',
    ]), { 1: 'ratio: 3.00\n' });
    standin.push({
      dynamic: (req: StandinRequest) => {
        const body = JSON.stringify(req.body);
        assert.match(body, /3\.00/, 'the original value is in the prompt');
        return reply('print("ratio: %.2f" % (counts[0] // counts[1]))', 'Plan: the original ran with floor division.');
      },
    });
    const report = await modernizeNotebook(nb, options('openai', { tolerance: 0.01 }));
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.deepEqual(report.fixes.map((f) => [f.type, f.sourceKind]), [['score-calibration', 'llm']]);
    assert.ok(report.comparisons.some((c) => c.original === 3 && c.new === 3));
  });

  it('an AbortSignal from the caller cancels the LLM request in flight and stops the loop and the kernel at once: interrupted', async () => {
    const nb = makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)']);
    // A reply held for 10 minutes: only the abort ends the call sooner.
    standin.push({ delayMs: 600_000, then: reply('total = df.a.sum()\nprint(total)') });
    const before = standin.requests.length;
    const abandoned = standin.abandoned;
    const ctl = new AbortController();
    const running = modernizeNotebook(nb, options('openai', { signal: ctl.signal }));
    while (standin.requests.length === before) await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    ctl.abort(new Error('the caller gave up'));
    const report = await running;
    const stopMs = Date.now() - t0;
    assert.ok(stopMs < 5000, `stopped ${stopMs} ms after the abort`);
    assert.equal(report.stopReason, 'interrupted', report.reason);
    assert.equal(standin.abandoned, abandoned + 1, 'the SDK closed the request');
  });

  it('a provider that keeps failing: verdict "failed" (could not evaluate), stop reason llm-error, the provider\'s error as the reason', async () => {
    const nb = makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)']);
    standin.push({ status: 401, message: 'invalid key' });
    const report = await modernizeNotebook(nb, options('openai'));
    assert.deepEqual([report.verdict, report.stopReason], ['failed', 'llm-error']);
    assert.match(report.reason, /openai: HTTP 401 \(auth\)/);
  });

  it('stops with a recorded reason when the spend cap is reached', async () => {
    const nb = makeNotebook(['x = undefined_name + 1']);
    // Each reply is bad; the cap (tiny) is hit after the first call.
    standin.push({ reply: 'no code', usage: { input: 400_000, output: 10 } }, { reply: 'no code' }, { reply: 'no code' }, { reply: 'no code' });
    const before = standin.requests.length;
    const report = await modernizeNotebook(nb, options('openai', {}, 0.0001));
    assert.equal(report.verdict, 'not-reproduced');
    assert.equal(report.stopReason, 'spend-cap', report.reason);
    assert.ok(standin.requests.length - before <= 1, 'no call is sent once the cap would be exceeded');
    standin.clearScript();
  });
});

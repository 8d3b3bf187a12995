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
import { LlmStandin, type StandinRequest, type StandinSession, type StandinStep } from '../support/llm-standin.js';
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


/** The same options with --llm-mode tools. */
function toolMode(o: ModernizeOptions): ModernizeOptions {
  return { ...o, llm: { ...o.llm!, mode: 'tools' } };
}

/** The run's trajectory.jsonl, one event a line. */
function trajectoryOf(o: ModernizeOptions): any[] {
  return fs.readFileSync(path.join(o.outDir, 'trajectory.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

/** One test's script: its replies answer only its own requests. */
function script(...steps: StandinStep[]): StandinSession {
  return standin.session(steps);
}

function options(kind: 'openai' | 'anthropic', session: StandinSession, extra: Partial<ModernizeOptions> = {}, capUsd = 1): ModernizeOptions {
  const env = kind === 'openai'
    ? { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: session.openaiBaseUrl }
    : { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: session.anthropicBaseUrl };
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
    const llm = script(reply('total = df.a.sum()\nprint(total)'));
    const report = await modernizeNotebook(nb, options('openai', llm));
    ModernizeReport.parse(report);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(report.stopReason, 'reproduced');
    assert.equal(report.oracle, 'stored-outputs');
    assert.deepEqual(report.fixes.map((f) => [f.type, f.sourceKind, f.cell]), [['error-repair', 'llm', 1]]);
    assert.equal(report.llm.calls, 1);
    assert.ok(report.llm.inputTokens > 0 && report.llm.outputTokens > 0);
    const req = llm.requests[0];
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
    const llm = script({ status: 429, retryAfter: 0, message: 'slow down' }, { reply: 'I would change the keyword, but here is no code block.' }, reply('print(sorted(values, reverse=True))'));
    const report = await modernizeNotebook(nb, options('anthropic', llm));
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(llm.requests.length, 3, '429, malformed, good');
    assert.equal(llm.requests[0].api, 'anthropic');
    assert.equal(report.llm.calls, 2, 'the retried 429 is one call; the malformed reply and the good one are two');
    const third = JSON.stringify(llm.requests[2].body);
    assert.match(third, /python/i, 'the reflection tells the model what was wrong');
  });

  it('runtime-reduction: a needlessly slow loop over a 20 s budget is rewritten and the notebook reproduces', async () => {
    // Slow by waiting, not by computing: 200 x 0.25 s is 50 s on any machine, so it exceeds the 20 s
    // budget however fast the machine is (a pure-CPU loop finished in time on a fast one).
    const slow = 'import time\ntotal = 0\nfor i in range(n):\n    time.sleep(0.25)\n    total += i % 7\nprint(total)';
    const nb = withStoredOutputs(makeNotebook(['n = 200', slow]), { 1: '594\n' });
    const llm = script({
      dynamic: (req: StandinRequest) => {
        assert.match(JSON.stringify(req.body), /runtime/i, 'the runtime-reduction prompt');
        return reply('total = sum(range(7)) * (n // 7) + sum(range(n % 7))\nprint(total)', 'Plan: same result in closed form.');
      },
    });
    const report = await modernizeNotebook(nb, options('openai', llm, { timeoutS: 20 }));
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
    const llm = script({
      dynamic: (req: StandinRequest) => {
        const body = JSON.stringify(req.body);
        assert.match(body, /3\.00/, 'the original value is in the prompt');
        return reply('print("ratio: %.2f" % (counts[0] // counts[1]))', 'Plan: the original ran with floor division.');
      },
    });
    const report = await modernizeNotebook(nb, options('openai', llm, { tolerance: 0.01 }));
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.deepEqual(report.fixes.map((f) => [f.type, f.sourceKind]), [['score-calibration', 'llm']]);
    assert.ok(report.comparisons.some((c) => c.original === 3 && c.new === 3));
  });

  it('an AbortSignal from the caller cancels the LLM request in flight and stops the loop and the kernel at once: interrupted', async () => {
    const nb = makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)']);
    // A reply held for 10 minutes: only the abort ends the call sooner.
    const llm = script({ delayMs: 600_000, then: reply('total = df.a.sum()\nprint(total)') });
    const abandoned = standin.abandoned;
    const ctl = new AbortController();
    const running = modernizeNotebook(nb, options('openai', llm, { signal: ctl.signal }));
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
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
    const llm = script({ status: 401, message: 'invalid key' });
    const report = await modernizeNotebook(nb, options('openai', llm));
    assert.deepEqual([report.verdict, report.stopReason], ['failed', 'llm-error']);
    assert.match(report.reason, /openai: HTTP 401 \(auth\)/);
  });

  it('stops with a recorded reason when the spend cap is reached', async () => {
    const nb = makeNotebook(['x = undefined_name + 1']);
    // Each reply is bad; the cap (tiny) is hit after the first call.
    const llm = script({ reply: 'no code', usage: { input: 400_000, output: 10 } }, { reply: 'no code' }, { reply: 'no code' }, { reply: 'no code' });
    const report = await modernizeNotebook(nb, options('openai', llm, {}, 0.0001));
    assert.equal(report.verdict, 'not-reproduced');
    assert.equal(report.stopReason, 'spend-cap', report.reason);
    assert.ok(llm.requests.length <= 1, 'no call is sent once the cap would be exceeded');
    llm.script.length = 0; // the replies after the cap are never asked for, by design
  });

  it('a give-up ends the work at once: model-declined, the reason in the report and the trajectory, no reflection', async () => {
    const nb = makeNotebook(['import pandas as pd', 'weather = pd.read_pickle(lookup_path("weather-2016"))\nprint(len(weather))']);
    // The second reply would be a (bad) patch: it must never be asked for, and it leaks into no other test.
    const llm = script({ reply: 'The notebook needs the author\'s lookup_path helper and a pickle the data does not have.\nGIVE_UP: lookup_path and the weather pickle come from the author\'s machine; no input here provides them' }, reply('weather = []\nprint(0)'));
    const o = options('anthropic', llm);
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.stopReason, 'model-declined', report.reason);
    assert.equal(report.verdict, 'not-reproduced');
    assert.match(report.reason, /the model declined cell 1: lookup_path and the weather pickle come from the author's machine/);
    assert.equal(llm.requests.length, 1, 'one call, no reflection round');
    assert.equal(llm.pending, 1);
    llm.script.length = 0; // checked above: never asked for
    assert.equal(report.llm.calls, 1);
    const events = trajectoryOf(o);
    const call = events.find((e) => e.type === 'llm');
    assert.equal(call.failure.kind, 'declined');
    assert.deepEqual(call.calls.map((c: any) => c.outcome), ['declined']);
    assert.ok(!events.some((e) => e.type === 'rejected'), 'a decline is not a rejected patch');
    assert.equal(events.at(-1).type, 'stop');
  });

  it('a helper defined later is shown to the model, which moves its cell up; the written notebook has it in place', async () => {
    // No rule can move it: the helper's cell reads `radii` (inside a function body), whose cell reads
    // the failing cell's own result, so the run-order candidate finds no order that works.
    const nb = withStoredOutputs(makeNotebook([
      'import math',
      'a = disc_area(2)\nprint(a)',
      'radii = [1, a]',
      'def disc_area(r):\n    return round(math.pi * r * r, 2)\n\ndef total_area():\n    return sum(disc_area(r) for r in radii)',
      'print(total_area())',
    ]), { 1: '12.57\n', 4: '499.53\n' });
    const llm = script({
      dynamic: (req: StandinRequest) => {
        const prompt = req.body.messages.at(-1).content as string;
        assert.match(prompt, /## Cell 3 \(defines disc_area; LATER in the notebook, it runs after cell 1\)\n```python\ndef disc_area\(r\):/, 'the later definition, with its source');
        assert.match(prompt, /## Cell 2 \(uses a from cell 1; keep them compatible\)/, 'the cell reading what the target defines');
        return { reply: 'Plan: disc_area is defined in cell 3, after its first use; run cell 3 first.\n## === move cell 3 before cell 1\n' };
      },
    });
    const o = options('openai', llm);
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(llm.requests.length, 1);
    assert.deepEqual(report.fixes.map((f) => [f.sourceKind, f.cells]), [['llm', [3]]]);
    const written = JSON.parse(fs.readFileSync(report.artifacts.notebook, 'utf8'));
    assert.deepEqual(written.cells.map((c: any) => (Array.isArray(c.source) ? c.source.join('') : c.source).split('\n')[0]),
      ['import math', 'def disc_area(r):', 'a = disc_area(2)', 'radii = [1, a]', 'print(total_area())']);
    const events = trajectoryOf(o);
    const call = events.find((e) => e.type === 'llm');
    assert.ok(call.context.included.includes('after:3') && call.context.included.includes('after:2'), JSON.stringify(call.context));
    assert.deepEqual(call.context.dropped, []);
    assert.deepEqual(events.find((e) => e.type === 'fix' && e.fix.sourceKind === 'llm').edits, [{ cell: 3, op: 'move', before: 1 }]);
  });

  it('insert and delete: a new cell runs before the one that needs it, a stray debug cell goes; diff and notebook show both', async () => {
    const nb = withStoredOutputs(makeNotebook(['import math', 'print("debug", scratch_value)', 'print(sq(3) + math.floor(0.5))']), { 2: '9\n' });
    const llm = script({ reply: [
      'Plan: cell 1 prints a scratch name nothing defines (it printed nothing in the original run); sq was never defined.',
      '## === delete cell 1: a debug print of a name no cell defines; it printed nothing in the original run',
      '## === insert before cell 2',
      '```python\ndef sq(x):\n    return x * x\n```',
    ].join('\n') });
    const o = options('anthropic', llm);
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(llm.requests.length, 1);
    assert.deepEqual(report.fixes.map((f) => [f.sourceKind, f.cells]), [['llm', [1, 3]]]);
    const written = JSON.parse(fs.readFileSync(report.artifacts.notebook, 'utf8'));
    assert.deepEqual(written.cells.map((c: any) => (Array.isArray(c.source) ? c.source.join('') : c.source)), ['import math', 'def sq(x):\n    return x * x', 'print(sq(3) + math.floor(0.5))']);
    assert.equal(written.cells[1].metadata.nbmodernize.changed, true);
    assert.match(written.cells[2].outputs.map((x: any) => x.text).join(''), /^9/);
    const diff = fs.readFileSync(report.artifacts.diff, 'utf8');
    assert.match(diff, /a\/new cell 1[\s\S]*\+def sq\(x\):/);
    assert.match(diff, /a\/deleted cell 1[\s\S]*-print\("debug", scratch_value\)/);
    // Review replays changes cell by cell on the original: it says plainly that it cannot do structural ones yet.
    const { readReviewInput } = await import('../../src/agent/review/changes.js');
    const original = path.join(o.outDir, 'original.ipynb');
    fs.writeFileSync(original, JSON.stringify(nb));
    assert.throws(() => readReviewInput(o.outDir, { original }), /inserted, moved or deleted cells/);
  });

  it('tool mode: the model inspects a live value, a try_patch fails, a second passes, it submits (OpenAI function calling)', async () => {
    const nb = withStoredOutputs(makeNotebook(['import pandas as pd\nframe = pd.DataFrame({"Age": ["22", "38", "26"]})', 'print(frame.Age.mean())']), { 1: '28.666666666666668\n' });
    const lastTool = (req: StandinRequest): string => req.body.messages.at(-1).content;
    const edit = (source: string) => [{ op: 'replace', cell: 1, source }];
    const llm = script(
      { reply: '', toolCalls: [{ name: 'inspect', input: { name: 'frame' } }] },
      { dynamic: (req) => {
        assert.match(lastTool(req), /^frame: pandas\.core\.frame\.DataFrame\nshape: \[3, 1\]\ndtypes: Age:object\nhead:\n  Age\n0  22/, 'the live value, from the kernel');
        return { reply: '', toolCalls: [{ name: 'try_patch', input: { edits: edit('print(frame.Age.astype(float).means())') } }] };
      } },
      { dynamic: (req) => {
        assert.match(lastTool(req), /FAILED in cell 1: AttributeError/);
        return { reply: '', toolCalls: [{ name: 'try_patch', input: { edits: edit('print(frame.Age.astype(float).mean())') } }] };
      } },
      { dynamic: (req) => {
        assert.match(lastTool(req), /oracle \(stored-outputs\): MATCHES the original run/);
        return { reply: '', toolCalls: [{ name: 'submit', input: { edits: edit('print(frame.Age.astype(float).mean())'), plan: 'Age holds strings: pandas 2 no longer averages them; cast to float first.' } }] };
      } },
    );
    const o = toolMode(options('openai', llm));
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.equal(llm.requests.length, 4);
    assert.deepEqual(report.fixes.map((f) => [f.sourceKind, f.cells, f.summary]), [['llm', [1], 'Age holds strings: pandas 2 no longer averages them; cast to float first.']]);
    const events = trajectoryOf(o);
    const call = events.find((e) => e.type === 'llm');
    assert.equal(call.mode, 'tools');
    assert.deepEqual(call.tools.map((t: any) => [t.tool, t.ok]), [['inspect', true], ['try_patch', true], ['try_patch', true]]);
    assert.ok(events.filter((e) => e.type === 'execution').length >= 4, 'the baseline, two trials and the run after the patch');
  });

  it('tool mode: give_up through the tool (Anthropic tool_use) stops with model-declined', async () => {
    const nb = makeNotebook(['import pandas as pd', 'w = pd.read_pickle(lookup_path("weather"))\nprint(len(w))']);
    const llm = script(
      { reply: '', toolCalls: [{ name: 'list_data', input: {} }, { name: 'search_notebook', input: { text: 'lookup_path' } }] },
      { reply: 'lookup_path is nowhere in the notebook.', toolCalls: [{ name: 'give_up', input: { reason: 'lookup_path and the weather pickle are not part of the notebook or its data' } }] },
    );
    const o = toolMode(options('anthropic', llm));
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.stopReason, 'model-declined', report.reason);
    assert.match(report.reason, /lookup_path and the weather pickle are not part of the notebook/);
    assert.equal(llm.requests.length, 2);
    assert.match(JSON.stringify(llm.requests[1].body.messages.at(-1)), /cell 1 line 1: w = pd.read_pickle\(lookup_path/);
  });

  it('tool mode on a server that refuses tools (400): the single-reply contract answers instead, for the rest of the notebook', async () => {
    // Two errors only a model fixes (rules know neither typo).
    const nb = withStoredOutputs(makeNotebook(['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'total = df.a.summ()\nprint(total)', 'print(max(df.a).bit_lenght())']), { 1: '6\n', 2: '2\n' });
    const llm = script(
      { status: 400, message: 'this server does not support tools' },
      reply('total = df.a.sum()\nprint(total)'),
      reply('print(max(df.a).bit_length())'),
    );
    const o = toolMode(options('openai', llm));
    const report = await modernizeNotebook(nb, o);
    assert.equal(report.verdict, 'reproduced', report.reason);
    assert.deepEqual(llm.requests.map((r) => Boolean(r.body.tools)), [true, false, false], 'tools once; then replies only');
    const events = trajectoryOf(o);
    assert.ok(events.some((e) => e.type === 'rejected' && /tool mode refused by the server/.test(e.reason)));
    assert.deepEqual(events.filter((e) => e.type === 'llm').map((e) => e.mode), ['reply', 'reply']);
  });
});

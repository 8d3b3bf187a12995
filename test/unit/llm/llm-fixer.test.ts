/** The propose/validate/reflect cycle through the real SDKs against the loopback stand-in. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { standinFactory, type LlmStandin } from '../../support/llm-standin.js';
import { OpenAiProvider } from '../../../src/fixers/llm/openai-provider.js';
import { AnthropicProvider } from '../../../src/fixers/llm/anthropic-provider.js';
import { MeteredProvider, SpendTracker } from '../../../src/fixers/llm/spend.js';
import { proposePatch } from '../../../src/fixers/llm/llm-fixer.js';
import { buildContext } from '../../../src/fixers/context/builder.js';
import { makeNotebook } from '../context/fixtures.js';

const standin = standinFactory(after);

const NB = makeNotebook([
  "import pandas as pd\ntrain = pd.read_csv('../input/train.csv')",
  'X = train[["Pclass", "Fare"]].as_matrix()',
]);
const ERROR = { ename: 'AttributeError', evalue: "'DataFrame' object has no attribute 'as_matrix'", traceback: ['AttributeError: ...'] };
const GOOD = 'Plan: `as_matrix` was removed in pandas 1.0; use `to_numpy()`.\n```python\nX = train[["Pclass", "Fare"]].to_numpy()\n```';

async function context(): Promise<string> {
  return (await buildContext({ notebook: NB, targetCell: 1, fixType: 'error-repair', error: ERROR })).text;
}

test('malformed reply, then an invalid patch, then a good one: two reflections, one patch', async () => {
  const s = await standin(
    { reply: 'You should downgrade pandas.' },
    { reply: 'Plan: install old pandas.\n```python\n!pip install pandas==0.25\nX = train[["Pclass", "Fare"]].as_matrix()\n```' },
    { reply: GOOD },
  );
  const provider = new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s.openaiBaseUrl });
  const r = await proposePatch({ provider, notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context(), allowedCells: [1] });
  assert.equal(r.failure, undefined);
  assert.deepEqual(r.patch!.edits, [{ cell: 1, op: 'replace', newSource: 'X = train[["Pclass", "Fare"]].to_numpy()' }]);
  assert.deepEqual(r.patch!.source, { kind: 'llm', model: 'gpt-4o-mini', provider: 'openai' });
  assert.equal(r.patch!.summary, '`as_matrix` was removed in pandas 1.0; use `to_numpy()`.');
  assert.deepEqual(r.calls.map((c) => c.outcome), ['malformed', 'invalid', 'ok']);
  assert.equal(r.newSources!.get(1), 'X = train[["Pclass", "Fare"]].to_numpy()');
  assert.ok(r.costUsd > 0);
  assert.ok(r.promptTokens > 100);
  // The model saw its own replies and the reasons.
  const third = s.requests[2]!.body.messages;
  assert.deepEqual(third.map((m: any) => m.role), ['system', 'user', 'assistant', 'user', 'assistant', 'user']);
  assert.match(third[3].content, /no fenced ```python code block/);
  assert.match(third[5].content, /installs packages/);
  assert.match(s.requests[0]!.body.messages[1].content, /## Cell 1 \(the failing cell\)/);
  assert.match(s.requests[0]!.body.messages[1].content, /## Cell 0 \(defines train\)/);
});

test('gives up after the reflection budget with the last reason', async () => {
  const s = await standin({ reply: 'no code' }, { reply: 'no code' }, { reply: 'still no code' });
  const provider = new AnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'k', baseURL: s.anthropicBaseUrl });
  const r = await proposePatch({ provider, notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context(), maxReflections: 2 });
  assert.equal(r.patch, undefined);
  assert.equal(r.failure!.kind, 'malformed');
  assert.match(r.failure!.message, /no usable patch after 3 replies \(2 reflections\)/);
  assert.equal(s.requests.length, 3);
});

test('a spend cap mid-way ends with a typed llm-error failure (budget), not an exception', async () => {
  const s = await standin({ reply: 'no code', usage: { input: 50_000, output: 500 } }, { reply: GOOD });
  const tracker = new SpendTracker({ capUsd: 0.01 });
  const provider = new MeteredProvider(new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s.openaiBaseUrl }), tracker);
  const r = await proposePatch({ provider, notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context(), maxTokens: 5000 });
  assert.equal(r.failure!.kind, 'llm-error');
  assert.equal(r.failure!.llmKind, 'budget');
  assert.equal(r.calls.length, 1);
  assert.equal(s.requests.length, 1);
  assert.equal(tracker.summary.refusedCalls, 1);
});

test('--llm-timeout and --llm-max-tokens reach both SDKs through the flags', async () => {
  const { llmTuningFrom } = await import('../../../src/cli/options.js');
  const { providerFromEnv } = await import('../../../src/fixers/llm/factory.js');
  const tuning = llmTuningFrom({ 'llm-timeout': '0.25', 'llm-max-tokens': '77' });
  assert.deepEqual(tuning, { timeoutMs: 250, maxTokens: 77 });
  assert.throws(() => llmTuningFrom({ 'llm-timeout': '0' }), /--llm-timeout must be a positive number/);
  for (const kind of ['openai', 'anthropic'] as const) {
    // A reply slower than the timeout: the request is abandoned after 0.25 s (no retries here).
    const s = await standin({ delayMs: 5000, then: { reply: GOOD } }, { reply: GOOD });
    const env = kind === 'openai' ? { OPENAI_BASE_URL: s.openaiBaseUrl } : { ANTHROPIC_BASE_URL: s.anthropicBaseUrl };
    const choice = providerFromEnv(env, { llm: kind, ...tuning, retry: { maxRetries: 0 } });
    assert.equal(choice.maxTokens, 77);
    const input = { provider: choice.provider!, notebook: NB, fixType: 'error-repair' as const, targetCell: 1, context: await context(), maxTokens: choice.maxTokens! };
    const slow = await proposePatch(input);
    assert.equal(slow.failure?.kind, 'llm-error');
    assert.equal(slow.failure?.llmKind, 'timeout', `${kind}: ${slow.failure?.message}`);
    const ok = await proposePatch(input);
    assert.equal(ok.failure, undefined);
    assert.equal(s.requests.length, 2);
    for (const r of s.requests) assert.equal(r.body.max_tokens, 77, `${kind} sends the flag's output limit`);
  }
});

test('GIVE_UP ends the fix at once with its reason: one call, no reflection', async () => {
  const s = await standin({ reply: 'The notebook needs the 2016 weather file, which is not in the data.\nGIVE_UP: the input weather.csv is not in the data provided' }, { reply: GOOD });
  const provider = new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s.openaiBaseUrl });
  const r = await proposePatch({ provider, notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context() });
  assert.equal(r.patch, undefined);
  assert.deepEqual(r.failure, { kind: 'declined', message: 'the input weather.csv is not in the data provided' });
  assert.deepEqual(r.calls.map((c) => c.outcome), ['declined']);
  assert.equal(s.requests.length, 1);
  assert.match(s.requests[0]!.body.messages[0].content, /GIVE_UP: <reason>/, 'the contract offers it');
});

test('a request for a cell is answered once with its source, then the fix is accepted (the cell may change)', async () => {
  const nb = makeNotebook(['import pandas as pd', 'print(helper(2))', 'def helper(x):\n    return x * 2']);
  const s = await standin(
    { reply: 'To fix this I need to see cell 2, where helper is defined. Could you show me cell 2?' },
    { reply: 'Plan: define helper before it is used.\n## === cell 1\n```python\ndef helper(x):\n    return x * 2\nprint(helper(2))\n```' },
  );
  const provider = new AnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'k', baseURL: s.anthropicBaseUrl });
  const r = await proposePatch({ provider, notebook: nb, fixType: 'error-repair', targetCell: 1, context: 'cell 1 fails: NameError helper', allowedCells: [1], maxReflections: 0 });
  assert.equal(r.failure, undefined, r.failure?.message);
  assert.deepEqual(r.calls.map((c) => c.outcome), ['request', 'ok'], 'the request costs no reflection round (maxReflections 0)');
  assert.deepEqual(r.viewed, [2]);
  const answer = s.requests[1]!.body.messages.at(-1).content;
  assert.match(answer, /## Cell 2\n```python\ndef helper\(x\):\n    return x \* 2\n```/);
});

test('asking again for a shown cell, or an unchanged cell twice, is a decline, not four wasted calls', async () => {
  const s = await standin({ reply: 'VIEW_CELL: 0' }, { reply: 'VIEW_CELL: 0' }, { reply: GOOD });
  const provider = new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s.openaiBaseUrl });
  const r = await proposePatch({ provider, notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context() });
  assert.deepEqual(r.calls.map((c) => c.outcome), ['request', 'declined']);
  assert.equal(r.failure!.kind, 'declined');
  assert.match(r.failure!.message, /asked for cell 0 again/);

  const same = 'Plan: the cell is fine; the problem is elsewhere.\n```python\nX = train[["Pclass", "Fare"]].as_matrix()\n```';
  const s2 = await standin({ reply: same }, { reply: same }, { reply: GOOD });
  const r2 = await proposePatch({ provider: new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s2.openaiBaseUrl }), notebook: NB, fixType: 'error-repair', targetCell: 1, context: await context() });
  assert.deepEqual(r2.calls.map((c) => c.outcome), ['invalid', 'declined']);
  assert.match(s2.requests[1]!.body.messages.at(-1).content, /reply with the line GIVE_UP/);
  assert.match(r2.failure!.message, /returned cell 1 unchanged twice: the cell is fine/);
});

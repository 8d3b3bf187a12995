/**
 * The providers through the REAL SDKs against the loopback stand-in (no traffic leaves 127.0.0.1).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LlmStandin } from '../../support/llm-standin.js';
import { OpenAiProvider } from '../../../src/fixers/llm/openai-provider.js';
import { AnthropicProvider } from '../../../src/fixers/llm/anthropic-provider.js';
import { LlmError } from '../../../src/fixers/llm/errors.js';
import { MeteredProvider, SpendTracker } from '../../../src/fixers/llm/spend.js';
import { RecordingProvider, ReplayProvider } from '../../../src/fixers/llm/record-replay.js';
import { parseReply } from '../../../src/fixers/llm/reply-parser.js';
import type { LlmProvider, LlmRequest } from '../../../src/fixers/llm/types.js';

const servers: LlmStandin[] = [];
after(async () => {
  for (const s of servers) await s.stop().catch(() => {});
});

async function standin(...args: Parameters<typeof LlmStandin.start>): Promise<LlmStandin> {
  const s = await LlmStandin.start(...args);
  servers.push(s);
  return s;
}

const REQ: LlmRequest = {
  system: 'You fix notebooks.',
  messages: [{ role: 'user', content: 'Fix cell 3.' }],
  maxTokens: 500,
  temperature: 0,
  cacheKey: 'nb-1',
};

function sleeps(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

function openai(s: LlmStandin, extra: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}): OpenAiProvider {
  return new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'sk-test', baseURL: s.openaiBaseUrl, retry: { sleep: async () => {} }, ...extra });
}
function anthropic(s: LlmStandin, extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}): AnthropicProvider {
  return new AnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'ak-test', baseURL: s.anthropicBaseUrl, retry: { sleep: async () => {} }, ...extra });
}

test('openai: plain success, wire format and usage', async () => {
  const s = await standin([{ reply: 'Plan.\n```python\nx = 1\n```', usage: { input: 1000, output: 200, cacheRead: 400 } }]);
  const res = await openai(s).complete(REQ);
  assert.equal(res.text, 'Plan.\n```python\nx = 1\n```');
  assert.equal(res.provider, 'openai');
  assert.equal(res.model, 'gpt-4o-mini');
  assert.deepEqual(res.usage, { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 400 });
  assert.equal(res.priced, true);
  // 600 uncached * 0.15 + 400 cached * 0.075 + 200 out * 0.6, per Mtok
  assert.ok(Math.abs(res.costUsd - (600 * 0.15 + 400 * 0.075 + 200 * 0.6) / 1e6) < 1e-12);
  assert.equal(res.attempts, 1);
  assert.equal(s.requests.length, 1);
  const r = s.requests[0]!;
  assert.equal(r.api, 'openai');
  assert.equal(r.path, '/v1/chat/completions');
  assert.equal(r.apiKey, 'sk-test');
  assert.equal(r.body.model, 'gpt-4o-mini');
  assert.deepEqual(r.body.messages[0], { role: 'system', content: 'You fix notebooks.' });
  assert.deepEqual(r.body.messages[1], { role: 'user', content: 'Fix cell 3.' });
  assert.equal(r.body.max_tokens, 500, 'custom base URL -> max_tokens');
  assert.equal(r.body.temperature, 0);
  assert.equal(r.body.prompt_cache_key, undefined, 'not sent to compatible servers by default');
  assert.notEqual(r.body.stream, true);
});

test('openai: official-API style options (max_completion_tokens, prompt_cache_key, no temperature for reasoning models)', async () => {
  const s = await standin([{ reply: 'a' }]);
  await openai(s, { model: 'gpt-5-mini', maxTokensParam: 'max_completion_tokens', sendCacheKey: true }).complete(REQ);
  const b = s.requests[0]!.body;
  assert.equal(b.max_completion_tokens, 500);
  assert.equal(b.max_tokens, undefined);
  assert.equal(b.prompt_cache_key, 'nb-1');
  assert.equal(b.temperature, undefined);
});

test('anthropic: plain success, cache_control on the system block, cache usage', async () => {
  const s = await standin([{ reply: 'done', usage: { input: 3000, output: 100, cacheRead: 2000, cacheWrite: 500 } }]);
  const res = await anthropic(s).complete(REQ);
  assert.equal(res.text, 'done');
  assert.equal(res.provider, 'anthropic');
  assert.deepEqual(res.usage, { inputTokens: 3000, outputTokens: 100, cacheReadTokens: 2000, cacheWriteTokens: 500 });
  const expected = (500 * 1 + 2000 * 0.1 + 500 * 1.25 + 100 * 5) / 1e6;
  assert.ok(Math.abs(res.costUsd - expected) < 1e-12, `${res.costUsd} vs ${expected}`);
  const r = s.requests[0]!;
  assert.equal(r.api, 'anthropic');
  assert.equal(r.path, '/v1/messages');
  assert.equal(r.apiKey, 'ak-test');
  assert.deepEqual(r.body.system, [{ type: 'text', text: 'You fix notebooks.', cache_control: { type: 'ephemeral' } }]);
  assert.deepEqual(r.body.messages, [{ role: 'user', content: 'Fix cell 3.' }]);
  assert.equal(r.body.max_tokens, 500);
});

test('429 with Retry-After then success: one retry, the wait is the server\'s', async () => {
  for (const make of [openai, anthropic]) {
    const s = await standin([{ status: 429, retryAfter: 3 }, { reply: 'ok after 429' }]);
    const { delays, sleep } = sleeps();
    const res = await make(s, { retry: { sleep } }).complete(REQ);
    assert.equal(res.text, 'ok after 429');
    assert.equal(res.attempts, 2);
    assert.deepEqual(delays, [3000]);
    assert.equal(s.requests.length, 2);
  }
});

test('500 then success: exponential backoff with jitter', async () => {
  for (const make of [openai, anthropic]) {
    const s = await standin([{ status: 500 }, { status: 503 }, { reply: 'ok after 5xx' }]);
    const { delays, sleep } = sleeps();
    const res = await make(s, { retry: { sleep, random: () => 0.5, baseDelayMs: 100 } }).complete(REQ);
    assert.equal(res.text, 'ok after 5xx');
    assert.equal(res.attempts, 3);
    assert.deepEqual(delays, [75, 150]);
  }
});

test('dynamic steps answer from the request', async () => {
  const s = await standin([{ dynamic: (r) => ({ reply: `you said: ${r.body.messages.at(-1).content}` }) }]);
  assert.equal((await anthropic(s).complete(REQ)).text, 'you said: Fix cell 3.');
});

test('retries are bounded: persistent 500 gives a typed server error', async () => {
  const s = await standin([{ status: 500 }, { status: 500 }, { status: 500 }, { reply: 'never' }]);
  await assert.rejects(openai(s, { retry: { maxRetries: 2, sleep: async () => {} } }).complete(REQ), (e: unknown) => {
    assert.ok(e instanceof LlmError);
    assert.equal(e.llmKind, 'server');
    assert.equal(e.details.status, 500);
    assert.equal(e.details.attempts, 3);
    return true;
  });
  assert.equal(s.requests.length, 3);
});

test('auth and bad-request errors are typed and not retried', async () => {
  const s = await standin([], { requireKey: 'right' });
  await assert.rejects(openai(s, { apiKey: 'wrong' }).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'auth' && !e.message.includes('wrong'));
  assert.equal(s.requests.length, 1);
  const s2 = await standin([{ status: 400, message: 'max_tokens too large' }]);
  await assert.rejects(anthropic(s2).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'bad-request' && /max_tokens too large/.test(e.message));
  assert.equal(s2.requests.length, 1);
});

test('timeout: a slow server is retried, then succeeds', async () => {
  const s = await standin([{ delayMs: 1500 }, { reply: 'fast' }]);
  const res = await openai(s, { timeoutMs: 300 }).complete(REQ);
  assert.equal(res.text, 'fast');
  assert.equal(res.attempts, 2);
});

test('timeout and dropped connections end as typed errors when retries run out', async () => {
  const s = await standin([{ delayMs: 1500 }]);
  await assert.rejects(anthropic(s, { timeoutMs: 200, retry: { maxRetries: 0 } }).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'timeout');
  const s2 = await standin([{ hangUp: true }]);
  await assert.rejects(openai(s2, { retry: { maxRetries: 0 } }).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'connection');
});

test('malformed body is a malformed-reply error (both providers)', async () => {
  const s = await standin([{ malformed: '{"not": "a completion"' }, { malformed: '{"choices": []}' }, { malformed: '{"id":"x","type":"message"}' }]);
  await assert.rejects(openai(s).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'malformed-reply');
  await assert.rejects(openai(s).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'malformed-reply');
  await assert.rejects(anthropic(s).complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'malformed-reply');
});

test('a reply that breaks the contract, then a good one: the parser error becomes the reflection', async () => {
  const s = await standin([
    { reply: 'I would change the import.\n```python\nimport a\n```\nand\n```python\nimport b\n```' },
    { reply: 'Use the new module.\n```python\nfrom sklearn.model_selection import train_test_split\n```' },
  ]);
  const p = anthropic(s);
  const first = await p.complete(REQ);
  const parsed1 = parseReply(first.text, { targetCell: 4, fixType: 'error-repair', source: { kind: 'llm', model: p.model, provider: p.provider } });
  assert.equal(parsed1.ok, false);
  assert.ok(!parsed1.ok && /2 fenced code blocks/.test(parsed1.error));
  const second = await p.complete({
    ...REQ,
    messages: [...REQ.messages, { role: 'assistant', content: first.text }, { role: 'user', content: !parsed1.ok ? parsed1.reflection : '' }],
  });
  const parsed2 = parseReply(second.text, { targetCell: 4, fixType: 'error-repair', source: { kind: 'llm', model: p.model, provider: p.provider } });
  assert.ok(parsed2.ok);
  assert.deepEqual(parsed2.ok && parsed2.patch.edits, [{ cell: 4, op: 'replace', newSource: 'from sklearn.model_selection import train_test_split' }]);
  assert.equal(s.requests[1]!.body.messages.length, 3);
  assert.match(s.requests[1]!.body.messages[2].content, /2 fenced code blocks/);
});

test('spend cap reached: the next call is refused before it is sent', async () => {
  const s = await standin([{ reply: 'one', usage: { input: 100_000, output: 1000 } }, { reply: 'two' }]);
  const tracker = new SpendTracker({ capUsd: 0.02 });
  const p = new MeteredProvider(openai(s), tracker);
  const res = await p.complete(REQ);
  assert.equal(res.text, 'one');
  // 100k * 0.15 + 1000 * 0.6 per Mtok = 0.0156
  assert.ok(Math.abs(tracker.summary.costUsd - 0.0156) < 1e-9);
  await assert.rejects(p.complete({ ...REQ, maxTokens: 8000 }), (e: unknown) => e instanceof LlmError && e.llmKind === 'budget' && e.exitCode === 9);
  assert.equal(s.requests.length, 1, 'the refused call never reached the server');
  assert.equal(tracker.summary.refusedCalls, 1);
  assert.equal(tracker.summary.calls, 1);
});

test('record then replay gives the same answers with the server stopped', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-llm-'));
  const file = path.join(dir, 'llm.jsonl');
  const s = await standin([{ reply: 'first answer' }, { status: 400, message: 'bad' }, { reply: 'third answer' }]);
  const rec = new RecordingProvider(anthropic(s), file);
  const reqs: LlmRequest[] = [REQ, { ...REQ, messages: [{ role: 'user', content: 'second' }] }, { ...REQ, messages: [{ role: 'user', content: 'third' }] }];
  const live: string[] = [];
  for (const r of reqs) {
    try {
      live.push((await rec.complete(r)).text);
    } catch (e) {
      live.push(`error:${(e as LlmError).llmKind}`);
    }
  }
  assert.deepEqual(live, ['first answer', 'error:bad-request', 'third answer']);
  await s.stop();
  servers.splice(servers.indexOf(s), 1);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 3);

  const replay = new ReplayProvider(file);
  assert.equal(replay.provider, 'anthropic');
  assert.equal(replay.model, 'claude-haiku-4-5');
  // Out of order: matched by hash.
  assert.equal((await replay.complete(reqs[2]!)).text, 'third answer');
  await assert.rejects(replay.complete(reqs[1]!), (e: unknown) => e instanceof LlmError && e.llmKind === 'bad-request');
  const again = await replay.complete(reqs[0]!);
  assert.equal(again.text, 'first answer');
  assert.equal(again.usage.inputTokens > 0, true);
  assert.deepEqual(replay.matches, ['hash', 'hash', 'hash']);
  await assert.rejects(replay.complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'replay-exhausted' && /exhausted/.test(e.message));
});

test('providers never fall back to the environment for keys or base URLs', async () => {
  const s = await standin([{ reply: 'x' }]);
  const saved = { ...process.env };
  process.env.OPENAI_API_KEY = 'sk-from-env';
  process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
  try {
    const p: LlmProvider = new OpenAiProvider({ model: 'm', baseURL: s.openaiBaseUrl, retry: { maxRetries: 0 } });
    await p.complete(REQ);
    assert.notEqual(s.requests[0]!.apiKey, 'sk-from-env');
  } finally {
    process.env = saved;
  }
});

test('tool calls in both wire formats: tools sent, calls parsed, results sent back; recorded and replayed', async () => {
  const tools = [{ name: 'view_cell', description: 'Show a cell.', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }];
  for (const kind of ['openai', 'anthropic'] as const) {
    const s = await standin([
      { reply: kind === 'anthropic' ? 'Let me look.' : '', toolCalls: [{ name: 'view_cell', input: { n: 3 }, id: 'c1' }, { name: 'view_cell', input: { n: 4 }, id: 'c2' }] },
      { reply: 'Done.' },
    ]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-rec-')), 'tools.jsonl');
    const provider = new RecordingProvider(kind === 'openai' ? openai(s) : anthropic(s), file);
    assert.equal(provider.tools, true);
    const first: LlmRequest = { ...REQ, tools };
    const r1 = await provider.complete(first);
    assert.deepEqual(r1.toolCalls, [{ id: 'c1', name: 'view_cell', input: { n: 3 } }, { id: 'c2', name: 'view_cell', input: { n: 4 } }]);
    const second: LlmRequest = { ...first, messages: [...first.messages, { role: 'assistant', content: r1.text, toolCalls: r1.toolCalls }, { role: 'tool', toolCallId: 'c1', content: 'cell 3 source' }, { role: 'tool', toolCallId: 'c2', content: 'cell 4 source' }] };
    const r2 = await provider.complete(second);
    assert.equal(r2.text, 'Done.');
    assert.equal(r2.toolCalls, undefined);
    const [b1, b2] = s.requests.map((r) => r.body);
    if (kind === 'openai') {
      assert.deepEqual(b1.tools, [{ type: 'function', function: tools[0] }]);
      assert.deepEqual(b2.messages.slice(2), [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'view_cell', arguments: '{"n":3}' } }, { id: 'c2', type: 'function', function: { name: 'view_cell', arguments: '{"n":4}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'cell 3 source' },
        { role: 'tool', tool_call_id: 'c2', content: 'cell 4 source' },
      ]);
    } else {
      assert.deepEqual(b1.tools, [{ name: 'view_cell', description: 'Show a cell.', input_schema: tools[0]!.parameters }]);
      assert.deepEqual(b2.messages.slice(1), [
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'c1', name: 'view_cell', input: { n: 3 } }, { type: 'tool_use', id: 'c2', name: 'view_cell', input: { n: 4 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'cell 3 source' }, { type: 'tool_result', tool_use_id: 'c2', content: 'cell 4 source' }] },
      ], 'both results in one user turn');
    }
    // The recording answers the same conversation without the server.
    await s.stop();
    const replay = new ReplayProvider(file, { fallback: 'none' });
    assert.equal(replay.tools, true);
    assert.deepEqual((await replay.complete(first)).toolCalls, r1.toolCalls);
    assert.equal((await replay.complete(second)).text, 'Done.');
  }
});

test('an abort cancels the request in flight through the SDK (both providers): typed "interrupted", not retried, at once', async () => {
  for (const make of [openai, anthropic]) {
    const s = await standin([{ delayMs: 600_000, then: { reply: 'too late' } }]);
    const ctl = new AbortController();
    const call = make(s).complete(REQ, { signal: ctl.signal });
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const t0 = Date.now();
    ctl.abort();
    await assert.rejects(call, (err: unknown) => err instanceof LlmError && err.llmKind === 'interrupted' && !err.retryable);
    assert.ok(Date.now() - t0 < 2000, 'the call ends on the abort, not on the reply');
    while (s.abandoned === 0) await new Promise((r) => setTimeout(r, 10));
    assert.equal(s.requests.length, 1, 'no retry after an abort');
  }
});

test('an abort during a backoff wait ends the call without another attempt', async () => {
  const s = await standin([{ status: 503, retryAfter: 60 }, { reply: 'never asked' }]);
  const ctl = new AbortController();
  // The real sleep: the server asked for 60 s.
  const call = openai(s, { retry: {} }).complete(REQ, { signal: ctl.signal });
  while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
  setTimeout(() => ctl.abort(), 50);
  await assert.rejects(call, (err: unknown) => err instanceof LlmError && err.llmKind === 'interrupted');
  assert.equal(s.requests.length, 1);
  assert.equal(s.pending, 1);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { costOf, priceFor, worstCaseCost } from '../../../src/fixers/llm/pricing.js';
import { LlmError, httpError, kindForStatus, retryAfterMs } from '../../../src/fixers/llm/errors.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, withRetry } from '../../../src/fixers/llm/retry.js';
import { MeteredProvider, SpendTracker, sumSpend } from '../../../src/fixers/llm/spend.js';
import { providerFromEnv } from '../../../src/fixers/llm/factory.js';
import { OpenAiProvider } from '../../../src/fixers/llm/openai-provider.js';
import { AnthropicProvider } from '../../../src/fixers/llm/anthropic-provider.js';
import { RecordingProvider, ReplayProvider, requestHash } from '../../../src/fixers/llm/record-replay.js';
import type { LlmProvider, LlmRequest, LlmResponse } from '../../../src/fixers/llm/types.js';

const REQ: LlmRequest = { system: 's', messages: [{ role: 'user', content: 'u' }], maxTokens: 100, temperature: 0 };

class Fake implements LlmProvider {
  readonly provider = 'fake';
  calls = 0;
  constructor(readonly model: string, private readonly answer: (req: LlmRequest, n: number) => Partial<LlmResponse> | Error) {}
  async complete(req: LlmRequest): Promise<LlmResponse> {
    const a = this.answer(req, ++this.calls);
    if (a instanceof Error) throw a;
    return { text: 'ok', usage: { inputTokens: 10, outputTokens: 5 }, model: this.model, provider: 'fake', costUsd: 0.01, priced: true, latencyMs: 3, attempts: 1, ...a };
  }
}

test('pricing: exact names, dated snapshots by longest prefix, unknown models unpriced', () => {
  assert.equal(priceFor('gpt-4o')!.input, 2.5);
  assert.equal(priceFor('gpt-4o-mini-2024-07-18')!.input, 0.15);
  assert.equal(priceFor('gpt-4o-2024-08-06')!.input, 2.5);
  assert.equal(priceFor('claude-opus-4-5-20251101')!.output, 25);
  assert.equal(priceFor('claude-opus-4-20250514')!.output, 75);
  assert.equal(priceFor('o3-mini')!.input, 1.1);
  assert.equal(priceFor('gpt-4o.bad'), undefined);
  assert.deepEqual(costOf('qwen2.5-coder:7b', { inputTokens: 1000, outputTokens: 1000 }), { costUsd: 0, priced: false });
  const c = costOf('claude-haiku-4-5', { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 250_000 });
  assert.ok(Math.abs(c.costUsd - (0.25 * 1 + 0.5 * 0.1 + 0.25 * 1.25 + 5)) < 1e-9);
  assert.ok(Math.abs(worstCaseCost('gpt-4o', 4000, 1000).costUsd - (1000 * 2.5 + 1000 * 10) / 1e6) < 1e-12);
  const custom = costOf('my-model', { inputTokens: 1e6, outputTokens: 0 }, { 'my-model': { input: 7, output: 1 } });
  assert.deepEqual(custom, { costUsd: 7, priced: true });
});

test('errors: status kinds, Retry-After forms, no secrets in messages', () => {
  assert.deepEqual([401, 403, 400, 404, 408, 422, 429, 500, 529, undefined].map(kindForStatus),
    ['auth', 'auth', 'bad-request', 'bad-request', 'timeout', 'bad-request', 'rate-limit', 'server', 'server', 'connection']);
  assert.equal(retryAfterMs({ 'Retry-After': '7' }), 7000);
  assert.equal(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }), 250);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now), 5000);
  assert.equal(retryAfterMs({ 'retry-after': 'soon' }), undefined);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  const e = httpError('openai', 429, 'slow down', { 'retry-after': '3' });
  assert.equal(e.llmKind, 'rate-limit');
  assert.equal(e.retryable, true);
  assert.equal(e.details.retryAfterMs, 3000);
  assert.equal(new LlmError('budget', 'x').exitCode, 9);
  assert.equal(new LlmError('auth', 'x').retryable, false);
});

test('retry: bounded, backoff grows with jitter, Retry-After honoured, overlong Retry-After not waited', async () => {
  const p = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
  const err = new LlmError('server', 'x');
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((r) => backoffDelay({ ...p, random: () => 0 }, r, err)), [50, 100, 200, 400, 500, 500]);
  assert.deepEqual([1, 2].map((r) => backoffDelay({ ...p, random: () => 0.999 }, r, err)), [100, 200]);

  const delays: number[] = [];
  let n = 0;
  const r = await withRetry(async () => { if (++n < 3) throw new LlmError('timeout', 't'); return 'done'; }, { ...p, sleep: async (ms) => void delays.push(ms), random: () => 0 });
  assert.deepEqual(r, { value: 'done', attempts: 3 });
  assert.deepEqual(delays, [50, 100]);

  n = 0;
  await assert.rejects(withRetry(async () => { n++; throw new LlmError('connection', 'c'); }, { ...p, maxRetries: 2, sleep: async () => {} }), (e: unknown) => e instanceof LlmError && e.details.attempts === 3);
  assert.equal(n, 3);

  n = 0;
  await assert.rejects(withRetry(async () => { n++; throw new LlmError('bad-request', 'b'); }, { ...p, sleep: async () => {} }));
  assert.equal(n, 1, 'non-retryable kinds are not retried');

  n = 0;
  const ra = new LlmError('rate-limit', 'r', { retryAfterMs: 3_600_000 });
  await assert.rejects(withRetry(async () => { n++; throw ra; }, { ...p, sleep: async () => assert.fail('must not wait an hour') }), /more than the 120 s allowed/);
  assert.equal(n, 1);

  await assert.rejects(withRetry(async () => { throw new TypeError('bug'); }, p), TypeError);
});

test('spend: per-notebook cap by worst case or spent, call cap, failures counted, run totals', async () => {
  const t = new SpendTracker({ capUsd: 0.025 });
  const p = new MeteredProvider(new Fake('gpt-4o-mini', () => ({})), t);
  await p.complete(REQ);
  await p.complete(REQ);
  assert.equal(t.summary.calls, 2);
  assert.ok(Math.abs(t.summary.costUsd - 0.02) < 1e-12);
  assert.ok(Math.abs(t.remainingUsd! - 0.005) < 1e-12);
  // worst case of the next call: 100 output tokens at $0.6/M is tiny, so one more fits...
  await p.complete(REQ);
  // ...and now 0.03 > cap.
  await assert.rejects(p.complete(REQ), (e: unknown) => e instanceof LlmError && e.llmKind === 'budget' && /spend cap reached/.test(e.message));
  assert.equal(t.summary.refusedCalls, 1);

  const worst = new SpendTracker({ capUsd: 0.01 });
  await assert.rejects(new MeteredProvider(new Fake('gpt-4o', () => ({})), worst).complete({ ...REQ, maxTokens: 2000 }), /could cost up to \$0\.02/);
  const spentOnly = new SpendTracker({ capUsd: 0.01, estimate: 'spent' });
  await new MeteredProvider(new Fake('gpt-4o', () => ({})), spentOnly).complete({ ...REQ, maxTokens: 2000 });

  const calls = new SpendTracker({ maxCalls: 2 });
  const failing = new MeteredProvider(new Fake('m', (_r, n) => (n === 1 ? new LlmError('server', 'x') : {})), calls);
  await assert.rejects(failing.complete(REQ));
  await failing.complete(REQ);
  await assert.rejects(failing.complete(REQ), /call cap reached: 2 calls/);
  assert.equal(calls.summary.failedCalls, 1);

  const unpriced = new SpendTracker({ capUsd: 1 });
  await new MeteredProvider(new Fake('local', () => ({ priced: false, costUsd: 0 })), unpriced).complete(REQ);
  assert.equal(unpriced.summary.unpricedCalls, 1);
  const run = sumSpend(t.summary, calls.summary, unpriced.summary);
  assert.equal(run.calls, 3 + 1 + 1);
  assert.equal(run.refusedCalls, 2);
});

test('providerFromEnv: rules only without key or base URL, with a reason; explicit choices; no env leakage', () => {
  const none = providerFromEnv({});
  assert.equal(none.provider, null);
  assert.match(none.reason, /rules only: no LLM configured/);
  assert.match(providerFromEnv({ OPENAI_API_KEY: 'k' }, { noLlm: true }).reason, /--no-llm/);
  assert.equal(providerFromEnv({ OPENAI_API_KEY: 'k' }, { llm: 'none' }).provider, null);
  assert.throws(() => providerFromEnv({}, { llm: 'gemini' }), /unknown --llm "gemini"/);

  const o = providerFromEnv({ OPENAI_API_KEY: 'sk-secret', ANTHROPIC_API_KEY: 'ak' });
  assert.equal(o.kind, 'openai');
  assert.ok(o.provider instanceof OpenAiProvider);
  assert.equal(o.model, 'gpt-4.1-mini');
  assert.ok(!o.reason.includes('sk-secret'));

  const a = providerFromEnv({ OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'ak' }, { llm: 'anthropic', model: 'claude-haiku-4-5' });
  assert.ok(a.provider instanceof AnthropicProvider);
  assert.equal(a.provider!.model, 'claude-haiku-4-5');

  const local = providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, { model: 'qwen' });
  assert.equal(local.kind, 'openai');
  assert.equal(local.baseUrl, 'http://127.0.0.1:8080/v1');
  assert.match(local.reason, /no key, OPENAI_BASE_URL set/);
  assert.equal(providerFromEnv({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }).kind, 'anthropic');
  assert.equal(providerFromEnv({}, { baseUrl: 'http://127.0.0.1:1234/v1' }).kind, 'openai');

  const missing = providerFromEnv({ OPENAI_API_KEY: 'sk' }, { llm: 'anthropic' });
  assert.equal(missing.provider, null);
  assert.match(missing.reason, /--llm anthropic needs ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL/);
  assert.equal(providerFromEnv({ OPENAI_API_KEY: '  ' }).provider, null, 'blank values count as unset');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-fac-'));
  const rec = providerFromEnv({ OPENAI_API_KEY: 'sk' }, { recordLlm: path.join(dir, 'r.jsonl') });
  assert.ok(rec.provider instanceof RecordingProvider);
  fs.writeFileSync(path.join(dir, 'p.jsonl'), JSON.stringify({ v: 1, seq: 0, hash: 'h', at: '', provider: 'openai', model: 'gpt-4o', request: REQ, response: { text: 'x' } }) + '\n');
  const rep = providerFromEnv({}, { replayLlm: path.join(dir, 'p.jsonl') });
  assert.equal(rep.kind, 'replay');
  assert.ok(rep.provider instanceof ReplayProvider);
});

test('record/replay: hash ignores cacheKey; sequence fallback; strict mode; bad files', async () => {
  assert.equal(requestHash(REQ), requestHash({ ...REQ, cacheKey: 'x' }));
  assert.notEqual(requestHash(REQ), requestHash({ ...REQ, temperature: 0.5 }));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-rr-'));
  const file = path.join(dir, 'sub', 'llm.jsonl');
  const rec = new RecordingProvider(new Fake('m', (r) => ({ text: `answer to ${r.messages[0]!.content}` })), file);
  await rec.complete(REQ);
  await rec.complete({ ...REQ, messages: [{ role: 'user', content: 'two' }] });
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.seq, l.provider, l.model, l.response.text]), [[0, 'fake', 'm', 'answer to u'], [1, 'fake', 'm', 'answer to two']]);

  const seq = new ReplayProvider(file);
  assert.equal((await seq.complete({ ...REQ, messages: [{ role: 'user', content: 'changed prompt' }] })).text, 'answer to u');
  assert.deepEqual(seq.matches, ['sequence']);
  assert.equal(seq.remaining, 1);

  const strict = new ReplayProvider(file, { fallback: 'none' });
  await assert.rejects(strict.complete({ ...REQ, messages: [{ role: 'user', content: 'new' }] }), (e: unknown) => e instanceof LlmError && e.llmKind === 'replay-exhausted' && /no recorded answer/.test(e.message));

  fs.writeFileSync(path.join(dir, 'bad.jsonl'), '{"hash": "x"}\n');
  assert.throws(() => new ReplayProvider(path.join(dir, 'bad.jsonl')), /bad\.jsonl:1: not an LLM record/);
  assert.throws(() => new ReplayProvider(path.join(dir, 'missing.jsonl')), /cannot read the LLM recording/);
});

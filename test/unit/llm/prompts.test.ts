import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRequest, REPLY_CONTRACT, systemPrompt, withReflection } from '../../../src/fixers/llm/prompts.js';
import { parseReply } from '../../../src/fixers/llm/reply-parser.js';

test('each fix type states its own constraints; all carry the hard rules and the reply contract', () => {
  const er = systemPrompt('error-repair');
  const rr = systemPrompt('runtime-reduction');
  const sc = systemPrompt('score-calibration');
  for (const s of [er, rr, sc]) {
    assert.ok(s.includes(REPLY_CONTRACT));
    assert.match(s, /never install/);
    assert.match(s, /no network/);
    assert.match(s, /Never read test labels or ground-truth files/);
  }
  assert.match(er, /SMALLEST change that fixes its ROOT CAUSE/);
  assert.ok(!er.includes('NEVER subsample'));
  assert.match(rr, /Keep the model, its hyperparameters, the features and ALL the data\. NEVER subsample/);
  assert.match(sc, /back to the ORIGINAL value: not beyond it/);
  assert.match(sc, /No leakage/);
  // Stable across calls (cacheable): nothing per-notebook in the system prompt.
  assert.equal(systemPrompt('error-repair'), er);
});

test('the request names the target cell, carries the context and defaults', () => {
  const req = buildRequest({ fixType: 'error-repair', targetCell: 12, context: '## Cell 12 (the failing cell)\n```python\nx\n```', cacheKey: 'nb' });
  assert.equal(req.messages.length, 1);
  assert.match(req.messages[0]!.content, /# Notebook context\n\n## Cell 12/);
  assert.match(req.messages[0]!.content, /Fix the error in cell 12\. The target cell is cell 12\./);
  assert.equal(req.maxTokens, 4096);
  assert.equal(req.temperature, 0);
  assert.equal(req.cacheKey, 'nb');
  const next = withReflection(req, 'bad reply', 'Your previous reply could not be used: ...');
  assert.deepEqual(next.messages.map((m) => m.role), ['user', 'assistant', 'user']);
  assert.equal(next.system, req.system);
  assert.equal(req.messages.length, 1, 'the original request is not mutated');
});

test('the example in the reply contract is itself parseable', () => {
  const example = REPLY_CONTRACT.slice(REPLY_CONTRACT.indexOf('cell N\n<<<<<<<')).replace('cell N', 'cell 3');
  const r = parseReply(example.split('\n').slice(0, 6).join('\n'), { targetCell: 3, fixType: 'error-repair', source: { kind: 'llm', model: 'm', provider: 'p' } });
  assert.ok(r.ok, !r.ok ? r.error : '');
  assert.deepEqual(r.ok && r.patch.edits, [{ cell: 3, op: 'search-replace', search: 'exact current lines', replace: 'new lines' }]);
});

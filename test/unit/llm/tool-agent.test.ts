/** The tool-mode conversation through the real SDKs against the loopback stand-in (handlers are fakes: no kernel here). */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { standinFactory, type LlmStandin } from '../../support/llm-standin.js';
import { OpenAiProvider } from '../../../src/fixers/llm/openai-provider.js';
import { AnthropicProvider } from '../../../src/fixers/llm/anthropic-provider.js';
import { RecordingProvider, ReplayProvider } from '../../../src/fixers/llm/record-replay.js';
import { editsFromTool, proposeWithTools, type ToolHandlers } from '../../../src/fixers/llm/tool-agent.js';
import type { LlmProvider } from '../../../src/fixers/llm/types.js';
import type { Patch } from '../../../src/core/patch.js';
import { makeNotebook } from '../context/fixtures.js';

const standin = standinFactory(after);
const openai = (s: LlmStandin) => new OpenAiProvider({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: s.openaiBaseUrl, retry: { maxRetries: 0 } });
const anthropic = (s: LlmStandin) => new AnthropicProvider({ model: 'claude-haiku-4-5', apiKey: 'k', baseURL: s.anthropicBaseUrl, retry: { maxRetries: 0 } });

const NB = makeNotebook([
  "import pandas as pd\ntrain = pd.DataFrame({'Age': ['22', '38']})",
  "print(train.Age.mean())",
]);
const FIX = [{ op: 'replace', cell: 1, source: "print(train.Age.astype(float).mean())" }];

function handlers(tries: string[] = []): ToolHandlers & { tried: Patch[] } {
  const tried: Patch[] = [];
  return {
    tried,
    viewCell: (n) => `cell ${n}: ${NB.cells[n] ? 'source...' : 'none'}`,
    searchNotebook: (t) => `cell 1 line 1: ${t}`,
    inspect: async (name) => `${name}: pandas.core.frame.DataFrame\nshape: [2, 1]\ndtypes: Age:object`,
    listData: () => 'train.csv (10 bytes)',
    tryPatch: async (p) => { tried.push(p); return tries.shift() ?? 'ran cells 0..1: status ok\noracle: MATCHES'; },
  };
}

const input = (provider: LlmProvider, h: ToolHandlers, extra = {}) => ({ provider, notebook: NB, fixType: 'error-repair' as const, targetCell: 1, context: 'Cell 1 fails: TypeError', handlers: h, allowedCells: [1], ...extra });

test('look, then a failing try_patch, a passing one, and submit (OpenAI function calling)', async () => {
  const s = await standin(
    { reply: '', toolCalls: [{ name: 'inspect', input: { name: 'train' } }, { name: 'view_cell', input: { n: 0 } }] },
    { reply: '', toolCalls: [{ name: 'try_patch', input: { edits: [{ op: 'replace', cell: 1, source: 'print(train.Age.mean(numeric_only=True))' }] } }] },
    { reply: '', toolCalls: [{ name: 'try_patch', input: { edits: FIX } }] },
    { reply: '', toolCalls: [{ name: 'submit', input: { edits: FIX, plan: 'Age is read as text; cast it to float before the mean.' } }] },
  );
  const h = handlers(['ran cells 1..1 (1 cells): FAILED in cell 1: TypeError: could not convert']);
  const r = await proposeWithTools(input(openai(s), h));
  assert.equal(r.failure, undefined, r.failure?.message);
  assert.deepEqual(r.patch!.edits, [{ cell: 1, op: 'replace', newSource: "print(train.Age.astype(float).mean())" }]);
  assert.equal(r.patch!.summary, 'Age is read as text; cast it to float before the mean.');
  assert.equal(r.format, 'tool-edits');
  assert.deepEqual(r.steps.map((x) => x.tool), ['inspect', 'view_cell', 'try_patch', 'try_patch']);
  assert.equal(h.tried.length, 2);
  assert.deepEqual(r.calls.map((c) => c.outcome), ['request', 'request', 'request', 'ok']);
  // The model saw the inspection and the failed trial before its second try.
  const third = s.requests[2]!.body.messages;
  assert.deepEqual(third.filter((m: any) => m.role === 'tool').map((m: any) => m.content.split('\n')[0]), ['train: pandas.core.frame.DataFrame', 'cell 0: source...', 'ran cells 1..1 (1 cells): FAILED in cell 1: TypeError: could not convert']);
  assert.deepEqual(s.requests[0]!.body.tools.map((t: any) => t.function.name), ['view_cell', 'search_notebook', 'inspect', 'list_data', 'try_patch', 'submit', 'give_up']);
  assert.match(s.requests[0]!.body.messages[0].content, /How to work \(tools\)/);
});

test('give_up ends the conversation with its reason (Anthropic tool_use); an invalid submit is answered, not fatal', async () => {
  const s = await standin(
    { reply: 'Trying a shortcut.', toolCalls: [{ name: 'submit', input: { edits: [{ op: 'replace', cell: 1, source: 'acc = 0.81\nprint(acc)' }], plan: 'hard-code' } }] },
    { reply: '', toolCalls: [{ name: 'give_up', input: { reason: 'the Age column needs data this notebook does not have' } }] },
  );
  const r = await proposeWithTools(input(anthropic(s), handlers()));
  assert.deepEqual(r.failure, { kind: 'declined', message: 'the Age column needs data this notebook does not have' });
  assert.match(r.steps[0]!.output, /rejected before running:\n- cell 1: line 1: assigns the literal 0.81 to acc/);
  const second = s.requests[1]!.body.messages;
  assert.equal(second.at(-1).content[0].type, 'tool_result');
});

test('budgets reached mid-conversation: tool steps, then model calls', async () => {
  const look = { reply: '', toolCalls: [{ name: 'view_cell', input: { n: 0 } }, { name: 'list_data', input: {} }] };
  const s = await standin(look, look, look);
  const steps = await proposeWithTools(input(openai(s), handlers(), { budgets: { maxToolSteps: 3 } }));
  assert.equal(steps.failure?.kind, 'budget');
  assert.match(steps.failure!.message, /tool step budget reached \(3 tool calls\)/);
  assert.equal(steps.steps.length, 3);
  assert.equal(s.requests.length, 2);
  const s2 = await standin(look, look, look);
  const calls = await proposeWithTools(input(anthropic(s2), handlers(), { budgets: { maxCalls: 2 } }));
  assert.match(calls.failure!.message, /model call budget reached \(2 calls\)/);
  assert.equal(s2.requests.length, 2);
  assert.equal(s2.pending, 1);
});

test('a server that refuses tools (400 on the first call) asks for the reply-contract fallback', async () => {
  const s = await standin({ status: 400, message: "tools are not supported by this model" });
  const r = await proposeWithTools(input(openai(s), handlers()));
  assert.equal(r.fallback, true);
  assert.equal(r.failure?.llmKind, 'bad-request');
});

test('a recorded tool conversation replays to the same patch without the server', async () => {
  const s = await standin(
    { reply: '', toolCalls: [{ name: 'inspect', input: { name: 'train' } }] },
    { reply: '', toolCalls: [{ name: 'submit', input: { edits: FIX, plan: 'cast Age' } }] },
  );
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-tools-')), 'rec.jsonl');
  const live = await proposeWithTools(input(new RecordingProvider(anthropic(s), file), handlers()));
  await s.stop();
  const replayed = await proposeWithTools(input(new ReplayProvider(file, { fallback: 'none' }), handlers()));
  assert.deepEqual(replayed.patch, live.patch);
  assert.deepEqual(replayed.steps, live.steps);
});

test('editsFromTool: every op, and precise errors', () => {
  assert.deepEqual(editsFromTool([
    { op: 'search_replace', cell: 2, search: 'a', replace: 'b' }, { op: 'insert', cell: 2, position: 'after', source: 'x = 1' },
    { op: 'move', cell: 5, before: 2 }, { op: 'delete', cell: 3, reason: 'stale' },
  ]), [
    { cell: 2, op: 'search-replace', search: 'a', replace: 'b' }, { cell: 2, op: 'insert', position: 'after', newSource: 'x = 1' },
    { cell: 5, op: 'move', before: 2 }, { cell: 3, op: 'delete', reason: 'stale' },
  ]);
  assert.equal(editsFromTool([]), 'edits must be a non-empty array of edit objects');
  assert.equal(editsFromTool([{ op: 'move', cell: 1 }]), 'edit 1: op "move" needs before');
  assert.equal(editsFromTool([{ op: 'replace', cell: '1', source: 'x' }]), 'edit 1: "cell" must be an integer');
});

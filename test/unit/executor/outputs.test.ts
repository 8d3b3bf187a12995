import { it } from 'node:test';
import assert from 'node:assert/strict';
import { OutputCollector, stripAnsi } from '../../../src/executor/outputs.js';

const msg = (msg_type: string, content: any): any => ({ header: { msg_type }, content });

it('merges consecutive stream chunks and separates stdout from stderr', () => {
  const c = new OutputCollector();
  c.handle(msg('stream', { name: 'stdout', text: 'a' }));
  c.handle(msg('stream', { name: 'stdout', text: 'b\n' }));
  c.handle(msg('stream', { name: 'stderr', text: 'warn\n' }));
  c.handle(msg('stream', { name: 'stdout', text: 'c' }));
  assert.deepEqual(c.finish().map((o: any) => [o.name, o.text]), [['stdout', 'ab\n'], ['stderr', 'warn\n'], ['stdout', 'c']]);
});

it('honours clear_output(wait=True) and update_display_data', () => {
  const c = new OutputCollector();
  c.handle(msg('display_data', { data: { 'text/plain': 'v1' }, metadata: {}, transient: { display_id: 'd' } }));
  c.handle(msg('update_display_data', { data: { 'text/plain': 'v2' }, metadata: {}, transient: { display_id: 'd' } }));
  assert.equal((c.outputs[0] as any).data['text/plain'], 'v2');
  c.handle(msg('clear_output', { wait: true }));
  assert.equal(c.outputs.length, 1, 'wait=True clears only when the next output arrives');
  c.handle(msg('stream', { name: 'stdout', text: 'after' }));
  assert.deepEqual(c.finish().map((o: any) => o.text), ['after']);
});

it('bounds huge streams keeping head and tail with a marker, across many chunks', () => {
  const c = new OutputCollector({ maxStreamChars: 1000, maxOutputs: 10, maxRichBytes: 100 });
  c.handle(msg('stream', { name: 'stdout', text: 'START' + 'x'.repeat(3000) }));
  for (let i = 0; i < 5; i++) c.handle(msg('stream', { name: 'stdout', text: 'y'.repeat(1000) }));
  c.handle(msg('stream', { name: 'stdout', text: 'END' }));
  const text = (c.finish()[0] as any).text as string;
  assert.ok(text.startsWith('START'));
  assert.ok(text.endsWith('END'));
  assert.ok(text.length < 1200);
  const m = /\[nbmodernize: (\d+) characters of output truncated\]/.exec(text);
  assert.ok(m);
  assert.equal(Number(m[1]), 5 + 3000 + 5000 + 3 - 1000);
  assert.equal(c.truncated, true);
});

it('caps the number of outputs and drops oversized rich data', () => {
  const c = new OutputCollector({ maxStreamChars: 1000, maxOutputs: 3, maxRichBytes: 100 });
  for (let i = 0; i < 5; i++) c.handle(msg('display_data', { data: { 'text/plain': `p${i}`, 'text/html': 'h'.repeat(i === 0 ? 500 : 5) }, metadata: {} }));
  const outs = c.finish() as any[];
  assert.equal(outs.length, 4);
  assert.equal(outs[0].data['text/html'], undefined);
  assert.equal(outs[0].data['text/plain'], 'p0');
  assert.match(outs[3].text, /2 outputs of output truncated/);
});

it('strips ANSI colour codes from tracebacks', () => {
  assert.equal(stripAnsi('\u001b[0;31mValueError\u001b[0m: boom'), 'ValueError: boom');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { commandLine, descendants, isRunning, processId, sweepDescendants } from '../../../src/executor/process-tree.js';

test('descendants walks the whole tree below a pid, parents first', () => {
  const procs = [
    { pid: 10, ppid: 1, state: 'S' },
    { pid: 11, ppid: 10, state: 'S' },
    { pid: 12, ppid: 11, state: 'S' },
    { pid: 13, ppid: 12, state: 'S' },
    { pid: 14, ppid: 11, state: 'S' },
    { pid: 20, ppid: 1, state: 'S' },
  ];
  assert.deepEqual(descendants(10, procs).map((p) => p.pid), [11, 12, 14, 13]);
  assert.deepEqual(descendants(13, procs), []);
});

test('sweepDescendants kills everything below root but the kept process and its ancestors', async () => {
  // root: a shell with a kept child (a sleep marked by its argument) and two stragglers, one nested.
  const root = spawn('/bin/sh', ['-c', 'sleep 300.1 & sleep 300.2 & sh -c "sleep 300.3" & wait'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const before = descendants(root.pid!).map((p) => commandLine(p.pid));
    assert.ok(before.some((c) => c.includes('300.3')), before.join(' | '));
    const killed = sweepDescendants(root.pid!, (p) => commandLine(p.pid).includes('300.1'));
    assert.ok(killed >= 3, `killed ${killed}`);
    await new Promise((r) => setTimeout(r, 200));
    const left = descendants(root.pid!).filter((p) => p.state !== 'Z').map((p) => commandLine(p.pid));
    assert.deepEqual(left, ['sleep 300.1']);
  } finally {
    sweepDescendants(root.pid!, () => false);
    root.kill('SIGKILL');
  }
});

test('isRunning sees a kill at once, before Node has handled the child\'s exit, and a zombie is not running', () => {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  const id = processId(child.pid!);
  assert.ok(id, 'a live process has an identity');
  assert.equal(isRunning(id), true);
  assert.equal(isRunning({ ...id, start: `${id.start}1` }), false, 'another process under the same pid is not it');
  process.kill(child.pid!, 'SIGKILL');
  // No await until the end: Node cannot have run the child's exit handlers, as when a sandbox's
  // run fails on the server's closed socket before its exit event. The kill lands in the kernel
  // at once; the loop only waits for the scheduler, however slow the machine.
  let seen = isRunning(id);
  for (let i = 0; seen && i < 10_000_000; i++) seen = isRunning(id);
  assert.equal(seen, false);
  assert.equal(child.exitCode, null, 'Node has not seen the exit yet');
  assert.equal(child.signalCode, null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EnvironmentError, ExitCode } from '../../../src/core/errors.js';
import { findHostTool, requireHostTool } from '../../../src/executor/environment/host-tools.js';

test('a missing host tool names the Debian package to install', () => {
  assert.throws(() => requireHostTool('nbm-no-such-tool', 'bubblewrap'), (err: unknown) => {
    assert.ok(err instanceof EnvironmentError);
    assert.equal(err.message, 'nbm-no-such-tool not found');
    assert.match(err.hint!, /apt-get install bubblewrap$/);
    assert.equal(err.exitCode, ExitCode.environment);
    return true;
  });
});

test('tools are found on PATH and in the sbin dirs a user PATH may lack', () => {
  assert.equal(findHostTool('sh', '/nonexistent'), '/usr/bin/sh');
  assert.ok(requireHostTool('sh', 'dash').endsWith('/sh'));
});

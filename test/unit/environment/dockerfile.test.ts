import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { definitionHash, loadDefinition } from '../../../src/executor/environment/definition.js';
import { dockerfilePath, generateDockerfile } from '../../../src/executor/environment/dockerfile.js';

test('the committed Dockerfile is what the generator makes from environment.json now', () => {
  const def = loadDefinition('debian13');
  const committed = fs.readFileSync(dockerfilePath('debian13'), 'utf8');
  assert.equal(committed, generateDockerfile(def), 'stale: run `nbmodernize env dockerfile debian13 --write`');
});

test('the Dockerfile installs exactly the definition packages and sets up the sandbox layout', () => {
  const def = loadDefinition('debian13');
  const text = generateDockerfile(def);
  assert.match(text, /^# GENERATED from sandboxes\/debian13\/environment\.json/);
  assert.match(text, /nbmodernize env dockerfile debian13 --write/);
  assert.ok(text.includes(`definition hash ${definitionHash(def)}`));
  assert.match(text, /^FROM debian:trixie-slim$/m);
  assert.match(text, /apt-get install -y --no-install-recommends/);
  const installBlock = text.split('apt-get install -y --no-install-recommends \\\n')[1].split(' && ')[0];
  const installed = installBlock.split('\\\n').map((l) => l.trim()).filter(Boolean);
  assert.deepEqual(installed, def.packages);
  for (const mp of def.mountPoints) assert.ok(text.includes(mp));
  assert.match(text, /^USER 1000:1000$/m);
  for (const cmd of def.postInstall) assert.ok(text.includes(cmd));
});

test('a changed definition changes the Dockerfile', () => {
  const def = loadDefinition('debian13');
  const other = generateDockerfile({ ...def, packages: [...def.packages, 'python3-lxml'] });
  assert.notEqual(other, generateDockerfile(def));
  assert.ok(other.includes('      python3-lxml'));
});

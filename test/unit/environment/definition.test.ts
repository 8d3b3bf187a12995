import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { EnvironmentError } from '../../../src/core/errors.js';
import {
  canonicalJson,
  definitionHash,
  knownEnvironments,
  loadDefinition,
  parseDefinition,
  sandboxesDir,
} from '../../../src/executor/environment/definition.js';

const raw = () => JSON.parse(fs.readFileSync(path.join(sandboxesDir(), 'debian13', 'environment.json'), 'utf8'));

test('the shipped debian13 definition loads and hashes to 12 hex chars', () => {
  const def = loadDefinition('debian13');
  assert.equal(def.name, 'debian13');
  assert.equal(def.suite, 'trixie');
  assert.ok(def.packages.includes('python3-pandas'));
  assert.equal((def as any).$comment, undefined);
  assert.match(definitionHash(def), /^[0-9a-f]{12}$/);
  assert.ok(knownEnvironments().includes('debian13'));
});

test('the hash ignores key order and $comment', () => {
  const a = parseDefinition(raw());
  const shuffled = Object.fromEntries(Object.entries(raw()).reverse());
  shuffled.$comment = 'something else entirely';
  shuffled.pythonModules = Object.fromEntries(Object.entries(raw().pythonModules).reverse());
  const b = parseDefinition(shuffled);
  assert.equal(definitionHash(a), definitionHash(b));
  assert.equal(definitionHash({ ...a, $comment: 'x' } as any), definitionHash(a));
});

test('the hash changes with anything that defines the environment', () => {
  const base = parseDefinition(raw());
  const h = definitionHash(base);
  assert.notEqual(definitionHash({ ...base, packages: [...base.packages, 'python3-lxml'] }), h);
  assert.notEqual(definitionHash({ ...base, packages: [...base.packages].reverse() }), h, 'package order is part of the definition');
  assert.notEqual(definitionHash({ ...base, suite: 'forky' }), h);
  assert.notEqual(definitionHash({ ...base, postInstall: [] }), h);
  assert.notEqual(definitionHash({ ...base, mountPoints: ['/kaggle/input'] }), h);
});

test('canonicalJson sorts keys at every level and keeps array order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, 1], c: null } }), '{"a":{"c":null,"d":[3,1]},"b":1}');
});

function expectInvalid(mutate: (d: any) => void, pattern: RegExp) {
  const d = raw();
  mutate(d);
  assert.throws(() => parseDefinition(d, 'test.json'), (err: unknown) => {
    assert.ok(err instanceof EnvironmentError);
    assert.match(err.message, /invalid environment definition test\.json/);
    assert.match(err.message, pattern);
    return true;
  });
}

test('validation errors name the field', () => {
  expectInvalid((d) => delete d.suite, /suite/);
  expectInvalid((d) => d.packages.push('Python3 Numpy'), /packages\.\d+: not a Debian package name/);
  expectInvalid((d) => (d.mountPoints = ['kaggle/input']), /mountPoints\.0/);
  expectInvalid((d) => (d.mountPoints = ['/kaggle/../etc']), /mountPoints\.0/);
  expectInvalid((d) => (d.variant = 'huge'), /variant/);
  expectInvalid((d) => (d.pakages = []), /pakages/);
  expectInvalid((d) => (d.pythonModules = { numpy: 'num py' }), /pythonModules\.numpy/);
  expectInvalid((d) => d.packages.push('python3'), /packages listed twice: python3/);
});

test('an unknown name lists the known environments; a name mismatch is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-defs-'));
  try {
    for (const n of ['alpha', 'beta']) {
      fs.mkdirSync(path.join(dir, n));
      fs.writeFileSync(path.join(dir, n, 'environment.json'), JSON.stringify({ ...raw(), name: n === 'beta' ? 'other' : n }));
    }
    fs.mkdirSync(path.join(dir, 'not-an-env'));
    assert.throws(() => loadDefinition('gamma', dir), (err: any) => {
      assert.match(err.message, /unknown environment "gamma"/);
      assert.equal(err.hint, 'known environments: alpha, beta');
      return true;
    });
    assert.throws(() => loadDefinition('../alpha', dir), /unknown environment/);
    assert.equal(loadDefinition('alpha', dir).name, 'alpha');
    assert.throws(() => loadDefinition('beta', dir), /"name" is "other" but the directory is "beta"/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

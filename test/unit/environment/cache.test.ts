import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findBuiltEnvironment, listBuiltEnvironments } from '../../../src/executor/environment/build.js';
import { envDir, staleTmpDirs } from '../../../src/executor/environment/cache.js';
import { definitionHash, loadDefinition } from '../../../src/executor/environment/definition.js';
import { acquireBuildLock } from '../../../src/executor/environment/lock.js';

const tmpRoots: string[] = [];
after(() => tmpRoots.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function cacheDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-cache-'));
  tmpRoots.push(d);
  return d;
}

const def = loadDefinition('debian13');
const hash = definitionHash(def);

function fakeBuild(cache: string, opts: { hash?: string; complete?: boolean; versions?: unknown; rootfs?: boolean; dirName?: string } = {}) {
  const h = opts.hash ?? hash;
  const dir = opts.dirName ? path.join(cache, 'envs', opts.dirName) : envDir(cache, 'debian13', h);
  fs.mkdirSync(dir, { recursive: true });
  if (opts.rootfs !== false) fs.mkdirSync(path.join(dir, 'rootfs', 'etc'), { recursive: true });
  const versions = opts.versions ?? {
    environment: 'debian13',
    hash: h,
    builtAt: new Date().toISOString(),
    debian: '13.2',
    python: '3.13.5',
    pythonModules: { numpy: '2.2.4', lightgbm: null },
    debPackages: { python3: '3.13.5-1' },
    tool: '0.1.0',
  };
  fs.writeFileSync(path.join(dir, 'versions.json'), typeof versions === 'string' ? versions : JSON.stringify(versions));
  if (opts.complete !== false) fs.writeFileSync(path.join(dir, 'COMPLETE'), 'x\n');
  return dir;
}

test('a complete build of the current hash is found, with its versions', () => {
  const cache = cacheDir();
  const dir = fakeBuild(cache);
  const env = findBuiltEnvironment('debian13', cache)!;
  assert.ok(env);
  assert.equal(env.dir, dir);
  assert.equal(env.rootfs, path.join(dir, 'rootfs'));
  assert.equal(env.versionsFile, path.join(dir, 'versions.json'));
  assert.equal(env.hash, hash);
  assert.equal(env.versions.pythonModules.numpy, '2.2.4');
  assert.equal(env.dockerImage, undefined);
  fs.writeFileSync(path.join(dir, 'docker-image'), `nbmodernize/debian13:${hash}\n`);
  assert.equal(findBuiltEnvironment('debian13', cache)!.dockerImage, `nbmodernize/debian13:${hash}`);
});

test('nothing built, incomplete, corrupt or other-hash builds are not found', () => {
  assert.equal(findBuiltEnvironment('debian13', cacheDir()), undefined);
  const noMarker = cacheDir();
  fakeBuild(noMarker, { complete: false });
  assert.equal(findBuiltEnvironment('debian13', noMarker), undefined);
  const corrupt = cacheDir();
  fakeBuild(corrupt, { versions: '{"environment": "debian13"' });
  assert.equal(findBuiltEnvironment('debian13', corrupt), undefined);
  const noRootfs = cacheDir();
  fakeBuild(noRootfs, { rootfs: false });
  assert.equal(findBuiltEnvironment('debian13', noRootfs), undefined);
  const older = cacheDir();
  fakeBuild(older, { hash: '000000000000' });
  assert.equal(findBuiltEnvironment('debian13', older), undefined);
  assert.deepEqual(listBuiltEnvironments(older, 'debian13').map((e) => e.hash), ['000000000000']);
  const tmpOnly = cacheDir();
  fakeBuild(tmpOnly, { dirName: `.tmp-debian13-${hash}-12345-abcdef` });
  assert.equal(findBuiltEnvironment('debian13', tmpOnly), undefined);
  assert.deepEqual(listBuiltEnvironments(tmpOnly), []);
});

test('findBuiltEnvironment throws for an unknown environment name', () => {
  assert.throws(() => findBuiltEnvironment('nope', cacheDir()), /unknown environment "nope"/);
});

test('stale temporary build dirs are those whose builder pid is gone', () => {
  const cache = cacheDir();
  fs.mkdirSync(path.join(cache, 'envs', `.tmp-debian13-${hash}-111-abcDEF`), { recursive: true });
  fs.mkdirSync(path.join(cache, 'envs', `.tmp-debian13-${hash}-222-xyzXYZ`), { recursive: true });
  fs.mkdirSync(path.join(cache, 'envs', `debian13-${hash}`), { recursive: true });
  const stale = staleTmpDirs(cache, (pid) => pid === 222).map((p) => path.basename(p));
  assert.deepEqual(stale, [`.tmp-debian13-${hash}-111-abcDEF`]);
});

test('the build lock waits for a live holder and takes over a dead one', async () => {
  const file = path.join(cacheDir(), 'x.lock');
  const first = await acquireBuildLock(file);
  let waitedFor: number | undefined;
  let got = false;
  const second = acquireBuildLock(file, { pollMs: 20, onWait: (pid) => (waitedFor = pid) }).then((l) => {
    got = true;
    return l;
  });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(got, false);
  assert.equal(waitedFor, process.pid);
  first.release();
  (await second).release();
  assert.equal(fs.existsSync(file), false);

  fs.writeFileSync(file, '999999999\n');
  const third = await acquireBuildLock(file, { pollMs: 20 });
  assert.equal(fs.readFileSync(file, 'utf8').trim(), String(process.pid));
  third.release();

  const held = await acquireBuildLock(file);
  const ac = new AbortController();
  const waiting = acquireBuildLock(file, { pollMs: 20, signal: ac.signal });
  ac.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  held.release();
});

/** The queue's pure parts: URL parsing (no password in what is shown), job ids, artifacts, lock timing, refusal. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseQueueUrl } from '../../../src/agent/queue/url.js';
import { FOLDER_MARK, jobIdFor, swapRecordPaths, type QueueJobData } from '../../../src/agent/queue/payload.js';
import { packArtifacts, receiveArtifacts, shipArtifacts, unpackArtifacts } from '../../../src/agent/queue/artifacts.js';
import { lockTiming, malformed, refusal } from '../../../src/agent/queue/policy.js';

it('parses redis and rediss URLs and never shows the password', () => {
  const c = parseQueueUrl('rediss://user:s3cr%40t@cache.example:6380/2');
  assert.deepEqual({ ...c }, { host: 'cache.example', port: 6380, db: 2, username: 'user', password: 's3cr@t', tls: true, display: 'rediss://***@cache.example:6380/2' });
  assert.equal(parseQueueUrl('redis://127.0.0.1:7000').db, 0);
  assert.equal(parseQueueUrl('redis://127.0.0.1:7000').tls, false);
  assert.throws(() => parseQueueUrl('http://x:y@h/0'), /redis:\/\/ or rediss:\/\//);
  assert.throws(() => parseQueueUrl('redis://:pw@h/x'), (e: Error) => !e.message.includes('pw'));
  assert.throws(() => parseQueueUrl('not a url :pw@'), (e: Error) => !e.message.includes('pw'));
});

it('job ids depend on the notebook bytes, its key and the options, not on key order', () => {
  const base: QueueJobData = { v: 1, id: 'a.ipynb', name: 'a.ipynb', notebook: Buffer.from('{}').toString('base64'), artifactDir: 'notebooks/a', settings: { timeoutS: 60 }, options: { mode: 'baseline', sandbox: { kind: 'bwrap', environment: 'debian13', project: 'notebook' } } };
  const id = jobIdFor(base);
  assert.match(id, /^nb-[0-9a-f]{40}$/);
  assert.equal(jobIdFor({ ...base, options: { sandbox: { project: 'notebook', environment: 'debian13', kind: 'bwrap' }, mode: 'baseline' } }), id);
  assert.notEqual(jobIdFor({ ...base, notebook: Buffer.from('{ }').toString('base64') }), id);
  assert.notEqual(jobIdFor({ ...base, id: 'b.ipynb' }), id);
  assert.notEqual(jobIdFor({ ...base, options: { ...base.options, mode: 'fix' } }), id);
});

it('artifacts round-trip inline, through shared storage, or are dropped with a reason; nothing lands outside', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-q-'));
  fs.mkdirSync(path.join(tmp, 'src/sub'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'src/a.txt'), 'hello');
  fs.writeFileSync(path.join(tmp, 'src/sub/b.bin'), Buffer.from([0, 1, 2]));
  const gz = packArtifacts(path.join(tmp, 'src'));
  const inline = shipArtifacts(gz, 'nb-1', { inlineLimitBytes: 1 << 20 });
  assert.equal(unpackArtifacts(receiveArtifacts(inline, undefined)!, path.join(tmp, 'dst')), 2);
  assert.equal(fs.readFileSync(path.join(tmp, 'dst/sub/b.bin')).length, 3);
  const shared = shipArtifacts(gz, 'nb-1', { inlineLimitBytes: 10, artifactsDir: path.join(tmp, 'shared') });
  assert.deepEqual(shared, { file: 'nb-1.json.gz' });
  assert.deepEqual(receiveArtifacts(shared, path.join(tmp, 'shared')), gz);
  assert.throws(() => receiveArtifacts(shared, undefined), /--artifacts-dir/);
  assert.match(shipArtifacts(gz, 'nb-1', { inlineLimitBytes: 10 }).dropped!, /limit/);
  const evil = gzipSync(JSON.stringify({ files: [{ path: '../escape.txt', data: 'eA==' }] }));
  assert.equal(unpackArtifacts(evil, path.join(tmp, 'dst2')), 0);
  assert.ok(!fs.existsSync(path.join(tmp, 'escape.txt')));
});

it('lock timing follows the budget within bounds; wide sandboxes need the flag', () => {
  assert.deepEqual(lockTiming(60), { lockDurationMs: 10_000, stalledIntervalMs: 5_000 });
  assert.deepEqual(lockTiming(600), { lockDurationMs: 30_000, stalledIntervalMs: 15_000 });
  assert.equal(lockTiming(36_000).lockDurationMs, 60_000);
  const opts = (kind: string) => ({ mode: 'baseline' as const, sandbox: { kind, environment: 'debian13', project: 'notebook' as const } });
  assert.equal(refusal(opts('bwrap'), false), undefined);
  assert.match(refusal(opts('host'), false)!, /--allow-wide-sandbox/);
  assert.equal(refusal(opts('remote'), true), undefined);
});

it("a record and its artifacts quote the coordinator's notebook folder, not the worker's copy", () => {
  const rec = { reason: '/tmp/w/jobs/nb-1/a "b".ipynb is not valid JSON', path: '/tmp/w/jobs/nb-1/a "b".ipynb', error: { evalue: 'x' } } as any;
  const masked = swapRecordPaths(rec, [{ from: '/tmp/w/jobs/nb-1', to: FOLDER_MARK }]);
  assert.ok(!JSON.stringify(masked).includes('/tmp/w'));
  assert.deepEqual(swapRecordPaths(masked, [{ from: FOLDER_MARK, to: '/home/me/in' }]), { ...rec, reason: '/home/me/in/a "b".ipynb is not valid JSON', path: '/home/me/in/a "b".ipynb' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-q-'));
  fs.writeFileSync(path.join(tmp, 'run-result.json'), JSON.stringify({ notebook: '/tmp/w/jobs/nb-1/a.ipynb' }));
  fs.writeFileSync(path.join(tmp, 'plot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]));
  const gz = packArtifacts(tmp, [{ from: '/tmp/w/jobs/nb-1', to: FOLDER_MARK }]);
  unpackArtifacts(gz, path.join(tmp, 'out'), [{ from: FOLDER_MARK, to: '/home/me/in' }]);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tmp, 'out/run-result.json'), 'utf8')), { notebook: '/home/me/in/a.ipynb' });
  assert.deepEqual([...fs.readFileSync(path.join(tmp, 'out/plot.png'))], [0x89, 0x50, 0x4e, 0x47, 0]);
});

it('a job whose names would leave the worker\'s folders, or that names a file of the worker, is refused', () => {
  const ok: QueueJobData = { v: 1, id: 'a.ipynb', name: 'a.ipynb', notebook: '', artifactDir: 'notebooks/a', data: { competition: 'titanic' }, settings: {}, options: { mode: 'baseline', sandbox: { kind: 'bwrap', environment: 'debian13', project: 'notebook' } } };
  const id = jobIdFor(ok);
  assert.equal(malformed(id, ok), undefined);
  assert.match(malformed('1', ok)!, /job id/);
  assert.match(malformed(id, { ...ok, name: '../../x.ipynb' })!, /plain file name/);
  assert.match(malformed(id, { ...ok, data: { competition: '../..' } })!, /plain slug/);
  assert.match(malformed(id, { ...ok, data: { competition: 'titanic', exclude: ['../x'] } })!, /exclusion/);
  assert.match(malformed(id, { ...ok, expected: { expected: 0.8, metric: 'accuracy', groundTruth: '/etc/passwd' } as any })!, /ground truth/);
});

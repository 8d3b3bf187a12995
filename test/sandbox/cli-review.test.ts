/**
 * `nbmodernize review OUT_DIR` without the page, as scripts use it: --accept-all writes the
 * modernization as it was (outputs of its final run); --reject RULE,... writes the decided code,
 * and with --run re-runs it in the sandbox and exits by its verdict. The original is never touched.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { modernizedFixture, NO_LLM_ENV, sandboxKind } from '../support/review.js';

let fixture: Awaited<ReturnType<typeof modernizedFixture>>;
before(async () => {
  fixture = await modernizedFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-clireview-')));
}, { timeout: 300_000 });

const read = (f: string) => JSON.parse(fs.readFileSync(path.join(fixture.outDir, f), 'utf8'));
const sources = (nb: any) => nb.cells.map((c: any) => [].concat(c.source).join(''));

it('--accept-all writes the modernized code with the outputs of modernize\'s final run', { timeout: 120_000 }, async () => {
  const r = await runCli(['review', fixture.outDir, '--accept-all', '--json'], { env: NO_LLM_ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /5 of 5 change\(s\) kept/);
  const record = JSON.parse(r.stdout);
  assert.deepEqual(record.totals, { changes: 5, accepted: 5, rejected: 0, blocked: 0 });
  assert.deepEqual(record.run, { from: 'modernize', verdict: 'reproduced', reason: record.run.reason, current: true });
  assert.deepEqual(read('review.json'), record);
  const reviewed = read('legacy-review.reviewed.ipynb');
  const modernized = read('legacy-review.modernized.ipynb');
  assert.deepEqual(sources(reviewed), sources(modernized));
  assert.deepEqual(reviewed.cells.map((c: any) => c.outputs), modernized.cells.map((c: any) => c.outputs));
  assert.equal(reviewed.metadata.nbmodernize.verdict, 'reproduced');
  assert.equal(fs.readFileSync(fixture.notebook, 'utf8'), fixture.originalText);
});

it('--reject by code and by rule id: the decided code, changed cells without stale outputs, unknown names reported', { timeout: 120_000 }, async () => {
  const r = await runCli(['review', fixture.outDir, '--reject', 'PD001', '--reject', 'py2-integer-division-at-error,XGB'], { env: NO_LLM_ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /--reject XGB: no change was made by it/);
  assert.match(r.stderr, /3 of 5 change\(s\) kept; rejected c3, c5/);
  assert.match(r.stderr, /not run with these decisions/);
  const reviewed = read('legacy-review.reviewed.ipynb');
  assert.equal(sources(reviewed)[3], 'print("b1", df.ix[1, "b"] * 2)');
  assert.equal(sources(reviewed)[4], 'n = df["b"].count()\nvals = list(df["b"])\nprint("first half", vals[:n / 2])');
  assert.deepEqual(reviewed.cells[3].outputs, [], 'no outputs of code that did not run');
  assert.equal(reviewed.cells[2].outputs[0].text.join?.('') ?? reviewed.cells[2].outputs[0].text, 'total 7.25\n', 'an accepted cell keeps the final run\'s outputs');
  assert.deepEqual(reviewed.cells[3].metadata.nbmodernize, { changed: false, review: [{ id: 'c3', source: 'pandas-ix', decision: 'rejected', effect: 'rejected' }] });
  assert.equal(read('review.json').run.current, false);
});

it('--reject ... --run re-runs the decided code in the sandbox and exits 1 when it no longer reproduces', { timeout: 300_000 }, async () => {
  const r = await runCli(['review', fixture.outDir, '--reject', 'pandas-ix', '--run', '--sandbox', sandboxKind(), '--json'], { env: NO_LLM_ENV });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /cell 3 error: AttributeError: 'DataFrame' object has no attribute 'ix'/);
  const record = JSON.parse(r.stdout);
  assert.equal(record.run.from, 'review');
  assert.equal(record.run.verdict, 'not-reproduced');
  assert.equal(record.run.current, true);
  const reviewed = read('legacy-review.reviewed.ipynb');
  assert.equal(reviewed.cells[3].outputs[0].ename, 'AttributeError');
  assert.equal(reviewed.metadata.nbmodernize.verdict, 'not-reproduced');
  assert.equal(fs.readFileSync(fixture.notebook, 'utf8'), fixture.originalText);
});

it('refuses what makes no sense', { timeout: 60_000 }, async () => {
  const both = await runCli(['review', fixture.outDir, '--accept-all', '--reject', 'PD001']);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /exclude each other/);
  const notOut = await runCli(['review', path.dirname(fixture.notebook), '--accept-all']);
  assert.equal(notOut.code, 2);
  assert.match(notOut.stderr, /has no report.json/);
  const taken = net.createServer();
  await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
  try {
    const busy = await runCli(['review', fixture.outDir, '--no-browser', '--port', String((taken.address() as net.AddressInfo).port)]);
    assert.equal(busy.code, 2);
    assert.match(busy.stderr, /port \d+ on 127\.0\.0\.1 is in use/);
  } finally {
    taken.close();
  }
});

it('reviews a notebook of an audit --fix from its dir in the audit', { timeout: 300_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-clireview-audit-'));
  const input = path.join(dir, 'in');
  fs.mkdirSync(input);
  fs.copyFileSync(fixture.notebook, path.join(input, 'legacy-review.ipynb'));
  const audit = await runCli(['audit', input, '--out-dir', path.join(dir, 'audit'), '--fix', '--no-llm', '--sandbox', sandboxKind(), '--jobs', '1'], { env: NO_LLM_ENV });
  assert.equal(audit.code, 0, audit.stderr);
  const nbDir = path.join(dir, 'audit', 'notebooks', 'legacy-review');
  const r = await runCli(['review', nbDir, '--reject', 'NP', '--json'], { env: NO_LLM_ENV });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).decisions.filter((d: any) => d.decision === 'rejected').map((d: any) => d.source), ['py2-print-statement+numpy-builtin-type-aliases']);
  assert.ok(fs.existsSync(path.join(nbDir, 'legacy-review.reviewed.ipynb')));
});

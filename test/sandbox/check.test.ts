/** `nbmodernize check` through the compiled CLI: exit codes, the drift table, JUnit XML, --suggest, expected scores. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { makeNotebook, MINI_DATA } from '../support/notebooks.js';
import { all, parseXml } from '../unit/report/xml.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-check-'));

function write(name: string, cells: Array<[string, string]>): string {
  const nb = makeNotebook(cells.map(([src]) => src)) as any;
  nb.cells.forEach((c: any, i: number) => {
    c.outputs = cells[i]![1] ? [{ output_type: 'stream', name: 'stdout', text: cells[i]![1] }] : [];
  });
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(nb));
  return p;
}

const clean = write('clean.ipynb', [['import numpy as np\nprint(np.arange(10).sum())', '45\n'], ['print("accuracy: %.3f" % (7 / 9))', 'accuracy: 0.778\n']]);
const drift = write('drift.ipynb', [['print("setup")', 'setup\n'], ['print("accuracy: %.3f" % (5 / 9))', 'accuracy: 0.778\n'], ['print("rows:", 1000)', 'rows: 1000\n']]);
const broken = write('broken.ipynb', [['import numpy as np\nprint(len([1, 2]))', '2\n'], ['x = np.float(3)\nprint(x)', '3.0\n']]);
const malformed = path.join(dir, 'malformed.ipynb');
fs.writeFileSync(malformed, 'not json');

it('check exits 0 when every notebook reproduces, and writes a passing JUnit suite', async () => {
  const junit = path.join(dir, 'pass.xml');
  const r = await runCli(['check', clean, '--sandbox', 'bwrap', '--junit', junit]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /✓ reproduced +.*clean\.ipynb/);
  assert.match(r.stdout, /1 of 1 notebook reproduces in debian13 \(bwrap\)/);
  const xml = parseXml(fs.readFileSync(junit, 'utf8'));
  const suite = all(xml, 'testsuite')[0]!;
  assert.deepEqual([suite.attrs.tests, suite.attrs.failures, suite.attrs.errors], ['1', '0', '0']);
  assert.equal(all(xml, 'testcase')[0]!.attrs.name, clean);
});

it('check exits 1 when one does not reproduce: drift table (cell, original, new) and JUnit failures/errors', async () => {
  const junit = path.join(dir, 'mixed.xml');
  const r = await runCli(['check', clean, drift, broken, malformed, '--sandbox', 'bwrap', '--junit', junit]);
  assert.equal(r.code, 1, r.stderr);
  const out = r.stdout;
  assert.match(out, /✗ not reproduced +.*drift\.ipynb/);
  assert.match(out, /cell +original +new/);
  assert.match(out, /\n +1 +0\.778 +0\.556 +28\.5% off/, out);
  assert.match(out, /✗ not reproduced +.*broken\.ipynb[\s\S]*removed API[\s\S]*\n +1 +3\.0 +AttributeError: module 'numpy' has no attribute 'float'/);
  assert.match(out, /! failed +.*malformed\.ipynb[\s\S]*not valid JSON/);
  assert.match(out, /1 of 4 notebooks reproduce/);
  const xml = parseXml(fs.readFileSync(junit, 'utf8'));
  const suite = all(xml, 'testsuite')[0]!;
  assert.deepEqual([suite.attrs.tests, suite.attrs.failures, suite.attrs.errors, suite.attrs.skipped], ['4', '2', '1', '0']);
  const cases = all(xml, 'testcase');
  assert.deepEqual(cases.map((c) => path.basename(c.attrs.name!)), ['clean.ipynb', 'drift.ipynb', 'broken.ipynb', 'malformed.ipynb']);
  assert.deepEqual(cases.map((c) => c.children.map((x) => x.name).join(',')), ['system-out', 'failure', 'failure', 'error']);
  assert.equal(all(cases[1]!, 'failure')[0]!.attrs.type, 'score-drift');
  assert.match(all(cases[1]!, 'failure')[0]!.text, /0\.778 +0\.556/);
  assert.equal(all(cases[2]!, 'failure')[0]!.attrs.type, 'removed-api');
  assert.equal(all(cases[3]!, 'error')[0]!.attrs.type, 'malformed-notebook');
  assert.ok(Number(suite.attrs.time) > 0);
});

it('check --suggest lists what the rules would change and changes nothing', async () => {
  const before = fs.readFileSync(broken, 'utf8');
  const r = await runCli(['check', broken, '--sandbox', 'bwrap', '--suggest']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /would need changing \(\d+;/);
  assert.match(r.stdout, /cell 1 line 1: np\.float was removed in NumPy 1\.24; use float \[NP\d{3} numpy-[a-z-]+, auto-fixable\]/);
  assert.equal(fs.readFileSync(broken, 'utf8'), before);
});

it('check --expected-score scores the submission against ground truth', async () => {
  const nb = write('submit.ipynb', [['import pandas as pd\ntest = pd.read_csv("../input/test.csv")\npd.DataFrame({"PassengerId": test.PassengerId, "Survived": (test.Age < 40).astype(int)}).to_csv("submission.csv", index=False)\nprint("written")', 'written\n']]);
  const truth = path.join(dir, 'truth.csv');
  fs.writeFileSync(truth, 'PassengerId,Survived\n6,1\n7,1\n');
  const ok = await runCli(['check', nb, '--data', MINI_DATA().dir, '--sandbox', 'bwrap', '--expected-score', '0.5', '--metric', 'accuracy', '--ground-truth', truth]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /expected-score oracle matches/);
  const off = await runCli(['check', nb, '--data', MINI_DATA().dir, '--sandbox', 'bwrap', '--expected-score', '0.9', '--metric', 'accuracy', '--ground-truth', truth]);
  assert.equal(off.code, 1, off.stdout + off.stderr);
  assert.match(off.stdout, /\n +score +0\.9 +0\.5 +44\.4% off/);
});

it('check usage errors exit 2', async () => {
  assert.equal((await runCli(['check'])).code, 2);
  const r = await runCli(['check', clean, '--expected-score', '0.8']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--metric/);
});

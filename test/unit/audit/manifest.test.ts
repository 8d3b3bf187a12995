/** Audit input: directories, single notebooks, JSON and CSV manifests, and their error reporting. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadInput, ManifestError } from '../../../src/agent/audit/manifest.js';
import { packageRoot } from '../../../src/core/paths.js';

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-manifest-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

it('a directory: every .ipynb below it, sorted, hidden dirs and the output dir left out', () => {
  const root = tree({ 'b.ipynb': '{}', 'a/x.ipynb': '{}', 'a/.ipynb_checkpoints/x-checkpoint.ipynb': '{}', 'out/notebooks/y.ipynb': '{}', 'notes.txt': '' });
  const input = loadInput(root, { defaults: { timeoutS: 60 }, exclude: path.join(root, 'out') });
  assert.equal(input.kind, 'directory');
  assert.deepEqual(input.jobs.map((j) => j.id), ['a/x.ipynb', 'b.ipynb']);
  assert.deepEqual(input.jobs.map((j) => j.artifactDir), ['notebooks/a__x', 'notebooks/b']);
  assert.equal(input.jobs[0]!.timeoutS, 60);
  assert.equal(input.jobs[0]!.data, undefined);
});

it('--data applies to every notebook; --data-root picks the folder named like the notebook\'s', () => {
  const root = tree({ 'nb/titanic/a.ipynb': '{}', 'nb/other/b.ipynb': '{}', 'data/titanic/train.csv': 'x\n1\n' });
  const withData = loadInput(path.join(root, 'nb'), { defaults: {}, data: { dir: '/d', competition: 'c' } });
  assert.deepEqual(withData.jobs.map((j) => j.data), [{ dir: '/d', competition: 'c' }, { dir: '/d', competition: 'c' }]);
  const byRoot = loadInput(path.join(root, 'nb'), { defaults: {}, dataRoot: path.join(root, 'data') });
  assert.deepEqual(byRoot.jobs.map((j) => [j.id, j.data?.competition ?? null]), [['other/b.ipynb', null], ['titanic/a.ipynb', 'titanic']]);
});

it('a JSON manifest: relative paths, defaults, per-entry overrides, expected scores (flat or nested)', () => {
  const root = tree({
    'm.json': JSON.stringify({
      dataRoot: 'data',
      defaults: { timeout: 120, dataNextToNotebook: true },
      notebooks: [
        { path: 'nbs/a.ipynb', competition: 'titanic', expectedScore: 0.78, metric: 'accuracy', higherIsBetter: true, groundTruth: 'gt.csv', idColumn: 'PassengerId' },
        { id: 'second', path: 'nbs/b.ipynb', data: 'elsewhere', cell_timeout: 30, allow_errors: 'true', tolerance: 0.05, expected: { score: 0.12, metric: 'rmsle', ground_truth: 'gt2.csv' } },
      ],
    }),
  });
  const { jobs, kind } = loadInput(path.join(root, 'm.json'), { defaults: { timeoutS: 600 } });
  assert.equal(kind, 'manifest');
  const [a, b] = jobs;
  assert.equal(a!.id, 'nbs/a.ipynb');
  assert.equal(a!.path, path.join(root, 'nbs/a.ipynb'));
  assert.deepEqual(a!.data, { dir: path.join(root, 'data', 'titanic'), competition: 'titanic' });
  assert.equal(a!.timeoutS, 120);
  assert.equal(a!.dataNextToNotebook, true);
  assert.deepEqual(a!.expected, { expected: 0.78, metric: 'accuracy', groundTruth: path.join(root, 'gt.csv'), idColumn: 'PassengerId', higherIsBetter: true });
  assert.equal(b!.id, 'second');
  assert.deepEqual(b!.data, { dir: path.join(root, 'elsewhere'), competition: 'elsewhere' });
  assert.equal(b!.cellTimeoutS, 30);
  assert.equal(b!.allowErrors, true);
  assert.equal(b!.tolerance, 0.05);
  assert.deepEqual(b!.expected, { expected: 0.12, metric: 'rmsle', groundTruth: path.join(root, 'gt2.csv'), tolerance: 0.05 });
});

it('a CSV manifest: header names in snake_case, empty cells mean "not given"', () => {
  const root = tree({ 'm.csv': 'path,data,competition,expected_score,metric,ground_truth,timeout\nnbs/a.ipynb,data/t,titanic,0.8,accuracy,gt.csv,\n"nbs/b, with comma.ipynb",,,,,,90\n' });
  const { jobs } = loadInput(path.join(root, 'm.csv'), { defaults: {} });
  assert.equal(jobs.length, 2);
  assert.deepEqual(jobs[0]!.data, { dir: path.join(root, 'data/t'), competition: 'titanic' });
  assert.equal(jobs[0]!.expected?.expected, 0.8);
  assert.equal(jobs[0]!.timeoutS, undefined);
  assert.equal(jobs[1]!.id, 'nbs/b, with comma.ipynb');
  assert.equal(jobs[1]!.timeoutS, 90);
  assert.equal(jobs[1]!.expected, undefined);
});

it('reports every manifest problem at once, with where it is', () => {
  const root = tree({
    'bad.json': JSON.stringify([
      { path: 'a.ipynb', metric: 'accuracy' },
      { notebook: 'b.ipynb', expectedScore: 'high', metric: 'top5', groundTruth: 'gt.csv' },
      { data: 'x' },
      { path: 'c.ipynb', competition: 'titanic', colour: 'blue', timeout: -1 },
      { path: 'a.ipynb' },
    ]),
  });
  let caught: ManifestError | undefined;
  try {
    loadInput(path.join(root, 'bad.json'), { defaults: {} });
  } catch (err) {
    caught = err as ManifestError;
  }
  assert.ok(caught instanceof ManifestError);
  const text = caught.problems.join('\n');
  assert.match(text, /entry 1: "metric"\/"groundTruth" given without "expectedScore"/);
  assert.match(text, /entry 2: expectedScore must be a number/);
  assert.match(text, /entry 2: "metric" must be one of/);
  assert.match(text, /entry 3: "path" \(the notebook\) is required/);
  assert.match(text, /entry 4: unknown field "colour"/);
  assert.match(text, /entry 4: timeout must be a positive number/);
  assert.match(text, /entry 4: competition "titanic" without "data"/);
  assert.match(text, /entry 5: duplicate notebook "a.ipynb"/);
  assert.equal(caught.exitCode, 2);
});

it('a missing input is a usage error; a missing notebook inside a manifest is not', () => {
  assert.throws(() => loadInput('/nonexistent/dir', { defaults: {} }), /does not exist/);
  const root = tree({ 'm.json': JSON.stringify([{ path: 'gone.ipynb' }]) });
  assert.equal(loadInput(path.join(root, 'm.json'), { defaults: {} }).jobs.length, 1);
});

it('the shipped examples parse', () => {
  const examples = path.join(packageRoot(), 'examples');
  const json = loadInput(path.join(examples, 'manifest.example.json'), { defaults: {} });
  const csv = loadInput(path.join(examples, 'manifest.example.csv'), { defaults: {} });
  assert.ok(json.jobs.length >= 2);
  assert.deepEqual(csv.jobs.map((j) => j.id), json.jobs.map((j) => j.id));
  assert.deepEqual(csv.jobs.map((j) => j.expected ?? null), json.jobs.map((j) => j.expected ?? null));
});

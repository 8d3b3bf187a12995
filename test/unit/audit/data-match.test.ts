import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexDataRoot, matchCompetition } from '../../../src/agent/audit/data-match.js';
import { loadInput } from '../../../src/agent/audit/manifest.js';

function dataRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-'));
  const comp = (name: string, files: Record<string, string>) => {
    fs.mkdirSync(path.join(root, name));
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name, f), text);
  };
  comp('titanic', { 'train.csv': 'PassengerId,Survived,Pclass,Name,Sex,Age\n1,0,3,"A, B",male,22\n', 'test.csv': 'PassengerId,Pclass\n', 'gender_submission.csv': 'PassengerId,Survived\n' });
  comp('forest-cover-type', { 'train.csv': 'Id,Elevation,Aspect,Slope,Cover_Type\n1,2596,51,3,5\n' });
  comp('house-prices', { 'train.csv': 'Id,MSSubClass,LotArea,SalePrice\n1,60,8450,208500\n', 'data_description.txt': 'x' });
  return root;
}

function notebook(dir: string, name: string, code: string[]): string {
  fs.mkdirSync(dir, { recursive: true });
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify({ nbformat: 4, nbformat_minor: 2, metadata: {}, cells: code.map((source) => ({ cell_type: 'code', source, metadata: {}, outputs: [], execution_count: null })) }));
  return p;
}

test('a notebook in a folder named as a competition gets that competition', () => {
  const root = dataRoot();
  const m = matchCompetition(notebook(path.join(root, '..', path.basename(root) + '-nb', 'titanic'), 'a.ipynb', ['x = 1']), indexDataRoot(root));
  assert.deepEqual([m?.competition, m?.by], ['titanic', 'folder']);
});

test("Kaggle's slug and a shorter data-root name are the same competition; so are a folder's extra words", () => {
  const root = dataRoot();
  const nbs = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-nb-'));
  const index = indexDataRoot(root);
  const slug = matchCompetition(notebook(path.join(nbs, 'forest-cover-type-prediction'), 'a.ipynb', ["df = pd.read_csv('train.csv')"]), index);
  assert.deepEqual([slug?.competition, slug?.by], ['forest-cover-type', 'name']);
  const extra = matchCompetition(notebook(path.join(nbs, 'Titanic_notebooks'), 'b.ipynb', ['x = 1']), index);
  assert.deepEqual([extra?.competition, extra?.by], ['titanic', 'name']);
});

test('in a flat folder the columns and files the code names decide, and only a clear winner counts', () => {
  const root = dataRoot();
  const nbs = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-flat-'));
  const index = indexDataRoot(root);
  const forest = matchCompetition(notebook(nbs, 'f.ipynb', ["df = pd.read_csv('/Users/me/Desktop/train.csv')", "y = df['Cover_Type']\nX = df.drop(['Id', 'Cover_Type'], axis=1)\nX['Elevation'].hist()"]), index);
  assert.deepEqual([forest?.competition, forest?.by], ['forest-cover-type', 'content']);
  assert.deepEqual(forest?.evidence?.sort(), ['Cover_Type', 'Elevation']);
  const titanic = matchCompetition(notebook(nbs, 't.ipynb', ["sub = pd.read_csv(\"../input/gender_submission.csv\")", "df['Survived'].mean()"]), index);
  assert.equal(titanic?.competition, 'titanic');
  // One distinctive name is not enough; names two competitions share ('Id', 'train.csv') count for neither.
  assert.equal(matchCompetition(notebook(nbs, 'one.ipynb', ["df = pd.read_csv('train.csv')\ndf['SalePrice']"]), index), undefined);
  assert.equal(matchCompetition(notebook(nbs, 'tie.ipynb', ["df['SalePrice'], df['LotArea'], df['Cover_Type'], df['Elevation']"]), index), undefined);
  // An unreadable notebook is matched to nothing (the run reports the file).
  fs.writeFileSync(path.join(nbs, 'bad.ipynb'), '{not json');
  assert.equal(matchCompetition(path.join(nbs, 'bad.ipynb'), index), undefined);
});

test('an audit of a directory mounts the matched data and says how notebooks were matched', () => {
  const root = dataRoot();
  const nbs = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-in-'));
  notebook(path.join(nbs, 'forest-cover-type-prediction'), 'a.ipynb', ['x = 1']);
  notebook(path.join(nbs, 'misc'), 'b.ipynb', ["df['SalePrice'].hist(); df['LotArea']"]);
  notebook(path.join(nbs, 'misc'), 'c.ipynb', ['print(1)']);
  const loaded = loadInput(nbs, { dataRoot: root, defaults: {} });
  const byId = new Map(loaded.jobs.map((j) => [j.id, j.data?.competition]));
  assert.equal(byId.get('forest-cover-type-prediction/a.ipynb'), 'forest-cover-type');
  assert.equal(byId.get('misc/b.ipynb'), 'house-prices');
  assert.equal(byId.get('misc/c.ipynb'), undefined);
  assert.equal(loaded.dataNotes?.length, 3);
  assert.match(loaded.dataNotes!.join('\n'), /1 notebook\(s\) match no competition under --data-root .*c\.ipynb/);
});

test('a directory input takes symlinked notebooks (not dangling links, not linked folders)', () => {
  const nbs = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-ln-'));
  const real = notebook(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-dm-real-')), 'r.ipynb', ['x = 1']);
  fs.mkdirSync(path.join(nbs, 'titanic'));
  fs.symlinkSync(real, path.join(nbs, 'titanic', 'linked.ipynb'));
  fs.symlinkSync(path.join(nbs, 'nowhere.ipynb'), path.join(nbs, 'titanic', 'dangling.ipynb'));
  fs.symlinkSync(path.dirname(real), path.join(nbs, 'folder-link'));
  const loaded = loadInput(nbs, { defaults: {} });
  assert.deepEqual(loaded.jobs.map((j) => j.id), ['titanic/linked.ipynb']);
});

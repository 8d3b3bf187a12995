import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { competitionNamedFiles, missingPathPatches, matchDataFiles, missingPath, unexplainedTokens } from '../../../src/fixers/rules/missing-path.js';
import { notebookOf } from './support.js';

const FILES = ['train.csv', 'test.csv', 'gender_submission.csv'];
const fnf = (p: string) => ({ ename: 'FileNotFoundError', evalue: `[Errno 2] No such file or directory: '${p}'` });
const src = (p: { edits: any[] }, cell: number) => p.edits.find((e) => e.cell === cell)?.newSource;

describe('missingPathPatches', () => {
  it('a directory variable in one cell joined to a file name in another: the directory literal moves', async () => {
    const nb = notebookOf(["import os\nDATA_DIR = '/home/me/kaggle/titanic'", "df = pd.read_csv(os.path.join(DATA_DIR, 'train.csv'))", "t = pd.read_csv(os.path.join(DATA_DIR, 'test.csv'))"]);
    const [c] = await missingPathPatches(nb, 1, fnf('/home/me/kaggle/titanic/train.csv'), { dataFiles: FILES });
    assert.equal(c.label, 'train.csv');
    assert.equal(src(c.patch, 0), "import os\nDATA_DIR = '../input'");
    assert.equal(c.patch.edits.length, 1, 'the cells using it are left as they are');
  });

  it("the author's own file name is matched by name tokens and renamed where it is written", async () => {
    const nb = notebookOf(["PATH = 'data/'", "train = pd.read_csv(PATH + 'titanic_train.csv')"]);
    const [c] = await missingPathPatches(nb, 1, fnf('data/titanic_train.csv'), { dataFiles: FILES, competition: 'titanic' });
    assert.equal(src(c.patch, 0), "PATH = '../input/'");
    assert.equal(src(c.patch, 1), "train = pd.read_csv(PATH + 'train.csv')");
  });

  it('a whole Windows path literal, escapes and raw strings kept valid', async () => {
    const nb = notebookOf(["a = pd.read_csv('C:\\\\Users\\\\me\\\\Titanic\\\\train.csv')\nb = pd.read_csv(r'C:\\Users\\me\\Titanic\\train.csv')"]);
    const [c] = await missingPathPatches(nb, 0, fnf('C:\\\\Users\\\\me\\\\Titanic\\\\train.csv'), { dataFiles: FILES });
    assert.equal(src(c.patch, 0), "a = pd.read_csv('../input/train.csv')\nb = pd.read_csv(r'../input/train.csv')");
  });

  it("Kaggle's template listing, check_output(['ls', dir]), of the author's own folder lists the data instead", async () => {
    const nb = notebookOf(['from subprocess import check_output\nprint(check_output(["ls", "../titanic"]).decode("utf8"))']);
    const err = { ename: 'CalledProcessError', evalue: "Command '['ls', '../titanic']' returned non-zero exit status 2." };
    const [c] = await missingPathPatches(nb, 0, err, { dataFiles: FILES });
    assert.equal(src(c!.patch, 0), 'from subprocess import check_output\nprint(check_output(["ls", "../input"]).decode("utf8"))');
    assert.deepEqual(missingPath('CalledProcessError', "Command '['ls', '-l', 'data']' returned non-zero exit status 2."), { path: 'data', write: false });
    assert.equal(missingPath('CalledProcessError', "Command '['wc', 'x']' returned non-zero exit status 1."), undefined);
  });

  it('~ paths show up expanded to the sandbox home in the message', async () => {
    const nb = notebookOf(["df = pd.read_csv(os.path.expanduser('~/kaggle/train.csv'))"]);
    const [c] = await missingPathPatches(nb, 0, fnf('/nbm/home/kaggle/train.csv'), { dataFiles: FILES });
    assert.equal(src(c.patch, 0), "df = pd.read_csv(os.path.expanduser('../input/train.csv'))");
  });

  it('a write into a missing directory goes to the working directory', async () => {
    const nb = notebookOf(["sub.to_csv('output/submission.csv', index=False)"]);
    const cands = await missingPathPatches(nb, 0, { ename: 'OSError', evalue: "Cannot save file into a non-existent directory: 'output'" }, { dataFiles: FILES });
    assert.equal(src(cands[0].patch, 0), "sub.to_csv('submission.csv', index=False)");
  });

  it('a path template (.format, %, f-string): its directory part moves, the placeholders stay', async () => {
    const nb = notebookOf(['def readCsv(name):\n    return pd.read_csv("data/bike-sharing/{}.csv".format(name))', "t = pd.read_csv('data/%s.csv' % 'test')", "n = 'train'\nu = pd.read_csv(f'data/raw/{n}.csv')"]);
    const [a] = await missingPathPatches(nb, 0, fnf('data/bike-sharing/train.csv'), { dataFiles: FILES });
    assert.equal(src(a.patch, 0), 'def readCsv(name):\n    return pd.read_csv("../input/{}.csv".format(name))');
    const [b] = await missingPathPatches(nb, 1, fnf('data/test.csv'), { dataFiles: FILES });
    assert.equal(src(b.patch, 1), "t = pd.read_csv('../input/%s.csv' % 'test')");
    const [c] = await missingPathPatches(nb, 2, fnf('data/raw/train.csv'), { dataFiles: FILES });
    assert.equal(src(c.patch, 2), "n = 'train'\nu = pd.read_csv(f'../input/{n}.csv')");
  });

  it("a Windows path pandas took for a URL (fsspec): outputs to the working dir, inputs to the data", async () => {
    const nb = notebookOf(['sub.to_csv("C://Users//me//Desktop//Score_{0:.5f}_submission.csv".format(s), index=False)\nt = pd.read_csv("C://Users//me//test.csv")']);
    const [c] = await missingPathPatches(nb, 0, { ename: 'ImportError', evalue: "Missing optional dependency 'fsspec'.  Use pip or conda to install fsspec." }, { dataFiles: FILES });
    assert.equal(src(c.patch, 0), 'sub.to_csv("Score_{0:.5f}_submission.csv".format(s), index=False)\nt = pd.read_csv("../input/test.csv")');
  });

  it("os.chdir into the author's folder stays in the working dir", async () => {
    const nb = notebookOf(["import os\nos.chdir('C://Users//me//Desktop//example')"]);
    const [c] = await missingPathPatches(nb, 0, fnf('C://Users//me//Desktop//example'), { dataFiles: FILES });
    assert.equal(src(c.patch, 0), "import os\nos.chdir('.')");
  });

  it('nothing when no data file fits', async () => {
    const nb = notebookOf(["x = pd.read_csv('weather.csv')"]);
    assert.deepEqual(await missingPathPatches(nb, 0, fnf('weather.csv'), { dataFiles: FILES }), []);
  });
});

describe('a file named only for the competition', () => {
  it('every data file of its kind is a candidate, the training data first, each needing the stored outputs to agree', async () => {
    const nb = notebookOf(["df = pd.read_csv('../input/titanic.csv')"]);
    const cs = await missingPathPatches(nb, 0, fnf('../input/titanic.csv'), { dataFiles: FILES, competition: 'titanic' });
    assert.deepEqual(cs.map((c) => [c.label, c.needsAgreement]), [['train.csv', true], ['gender_submission.csv', true], ['test.csv', true]]);
    assert.equal(src(cs[0].patch, 0), "df = pd.read_csv('../input/train.csv')");
    assert.match(cs[0].patch.summary, /kept only if the stored outputs agree/);
  });
  it('not for a name with words of its own, nor without a known competition; a token match needs no agreement', async () => {
    assert.deepEqual(competitionNamedFiles('weather.csv', FILES, 'titanic'), []);
    assert.deepEqual(competitionNamedFiles('titanic.csv', FILES), []);
    assert.deepEqual(competitionNamedFiles('house_prices_data.csv', ['test.csv', 'train.csv', 'data_description.txt'], 'house-prices-advanced-regression-techniques'), ['train.csv', 'test.csv']);
    const nb = notebookOf(["df = pd.read_csv('titanic_train.csv')"]);
    const [c] = await missingPathPatches(nb, 0, fnf('titanic_train.csv'), { dataFiles: FILES, competition: 'titanic' });
    assert.equal(c.needsAgreement, undefined);
  });

  it('a name with words the data file does not explain (a table the author derived) needs the stored outputs to agree', async () => {
    const nb = notebookOf(["test = pd.read_csv('dummy_test.csv')\ntest.head()"]);
    const [c] = await missingPathPatches(nb, 0, fnf('dummy_test.csv'), { dataFiles: FILES, competition: 'titanic' });
    assert.equal(c.label, 'test.csv');
    assert.equal(c.needsAgreement, true);
    assert.match(c.patch.summary, /adds 'dummy'/);
    const hp = ['train.csv', 'test.csv', 'sample_submission.csv'];
    assert.deepEqual(unexplainedTokens('train_cleaned.csv', 'train.csv', 'house-prices'), ['cleaned']);
    assert.deepEqual(unexplainedTokens('eng_train.csv', 'train.csv', 'titanic'), ['eng']);
    // The competition's words (either number), words that say nothing and numbers are explained.
    assert.deepEqual(unexplainedTokens('house_price_train.csv', 'train.csv', 'house-prices'), []);
    assert.deepEqual(unexplainedTokens('kaggle_titanic_test.csv', 'test.csv', 'titanic'), []);
    assert.deepEqual(unexplainedTokens('train (1).csv', 'train.csv', 'house-prices'), []);
    const [d] = await missingPathPatches(notebookOf(["df = pd.read_csv('house_price_train.csv')"]), 0, fnf('house_price_train.csv'), { dataFiles: hp, competition: 'house-prices' });
    assert.equal(d.label, 'train.csv');
    assert.equal(d.needsAgreement, undefined);
  });
});

describe('matchDataFiles / missingPath', () => {
  it('exact names first, then files whose name tokens the author kept', () => {
    assert.deepEqual(matchDataFiles('Train.csv', FILES), ['train.csv']);
    assert.deepEqual(matchDataFiles('house_prices_train_data.csv', FILES, 'house-prices'), ['train.csv']);
    assert.deepEqual(matchDataFiles('submission.csv', FILES), []);
  });
  it('reads the path from the messages of open, pandas and numpy', () => {
    assert.equal(missingPath('FileNotFoundError', "[Errno 2] No such file or directory: 'data/train.csv'")?.path, 'data/train.csv');
    assert.equal(missingPath('OSError', 'data/train.csv not found.')?.path, 'data/train.csv');
  });
});

/** The author's data in the working directory, found by walking it: the walk goes to the data. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { workingDirWalkPatches } from '../../../src/fixers/rules/data-walk.js';
import { notebookOf } from './support.js';

const sources = async (cells: string[], name: string) => (await workingDirWalkPatches(notebookOf(cells), name)).map((c) => c.patch.edits.map((e: any) => [e.cell, e.newSource]));

describe('workingDirWalkPatches', () => {
  it('points os.walk / listdir / glob of the working directory at ../input when they alone bind the name', async () => {
    const walk = "import os\nfor dirname, _, filenames in os.walk('.'):\n    for filename in filenames:\n        if 'train.csv' in filename:\n            train_path = os.path.join(dirname, filename)";
    assert.deepEqual(await sources([walk, 'print(train_path)'], 'train_path'), [[[0, walk.replace("os.walk('.')", "os.walk('../input')")]]]);
    assert.deepEqual(await sources(['for f in os.listdir():\n    if f.endswith(".csv"):\n        data = f'], 'data'), [[[0, "for f in os.listdir('../input'):\n    if f.endswith(\".csv\"):\n        data = f"]]]);
    assert.deepEqual(await sources(["for f in glob.glob('*.csv'):\n    last = f"], 'last'), [[[0, "for f in glob.glob('../input/*.csv'):\n    last = f"]]]);
  });

  it('nothing when the name is bound outside such a loop too, or the loop walks another directory', async () => {
    assert.deepEqual(await sources(["p = 'x'\nfor d, _, fs in os.walk('.'):\n    p = d"], 'p'), []);
    assert.deepEqual(await sources(["for d, _, fs in os.walk('/data'):\n    p = d"], 'p'), []);
    assert.deepEqual(await sources(['print(q)'], 'q'), []);
  });
});

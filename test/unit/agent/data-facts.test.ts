import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readDataFacts } from '../../../src/agent/data-facts.js';
import { pinEvidentDefaults } from '../../../src/fixers/rules/evident-pins.js';
import { notebookOf } from '../rules/support.js';
import { sourceText } from '../../../src/core/notebook.js';

describe('readDataFacts', () => {
  it("finds 'None' as a whole field, quoted or not, and nowhere else", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-facts-'));
    fs.writeFileSync(path.join(dir, 'a.csv'), 'id,kind\n1,Stone\n2,None\n');
    fs.writeFileSync(path.join(dir, 'b.csv'), 'id,kind\n1,"None"\n');
    fs.writeFileSync(path.join(dir, 'c.csv'), 'id,kind\n1,NoneSuch\n2,Nonet\n');
    fs.mkdirSync(path.join(dir, 'ground_truth'));
    fs.writeFileSync(path.join(dir, 'ground_truth', 'd.csv'), 'x\nNone\n');
    const facts = readDataFacts(dir, { exclude: ['ground_truth'] });
    assert.deepEqual(facts.newlyMissingTokens, { 'a.csv': ['None'], 'b.csv': ['None'] });
  });

  it('the pin applies only with the evidence and an era before pandas 2.0', async () => {
    const nb = notebookOf(["import pandas as pd\ndf = pd.read_csv('../input/train.csv')\nt = pd.read_csv('../input/test.csv', na_values=['?'])"]);
    nb.metadata.language_info = { name: 'python', version: '3.6.4' };
    const none = await pinEvidentDefaults(nb, { dataFacts: { newlyMissingTokens: {} } });
    assert.equal(none.patches.length, 0);
    const pinned = await pinEvidentDefaults(nb, { dataFacts: { newlyMissingTokens: { 'train.csv': ['None'] } } });
    assert.equal(pinned.patches.length, 1);
    const src = sourceText(pinned.notebook.cells[0].source);
    assert.match(src, /read_csv\('\.\.\/input\/train\.csv', keep_default_na=False, na_values=\[/);
    assert.match(src, /na_values=\['\?'\]\)$/, 'a read with its own na_values is the author\'s choice');
    const modern = notebookOf(["import pandas as pd\ndf = pd.read_csv('../input/train.csv')"]);
    modern.metadata.language_info = { name: 'python', version: '3.12.1' };
    assert.equal((await pinEvidentDefaults(modern, { dataFacts: { newlyMissingTokens: { 'train.csv': ['None'] } } })).patches.length, 0);
  });
});

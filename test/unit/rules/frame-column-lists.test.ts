import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText } from '../../../src/core/notebook.js';
import { ALL_RULES, fixNotebook } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

const fix = async (cells: string[]) => (await fixNotebook(notebookOf(cells), { rules: ALL_RULES.filter((r) => r.id === 'seaborn-positional-arguments'), kinds: ['error-repair'] })).notebook.cells.map((c) => sourceText(c.source));

describe('frame inference: a frame subscripted by a name bound only to a list of strings is a frame', () => {
  it("sns.boxplot(df[mask][plot_cols]) is the wide-form data seaborn still takes positionally: left alone; one column is a vector: x=", async () => {
    const setup = "import pandas as pd\nimport seaborn as sns\ndf = pd.read_csv('train.csv')\nplot_cols = ['atemp', 'temp', 'humidity']";
    const [, wide, one] = await fix([setup, "ax = sns.boxplot(df[df['dataset'] == 'train'][plot_cols])", "ax = sns.boxplot(df[df['dataset'] == 'train']['temp'])"]);
    assert.equal(wide, "ax = sns.boxplot(df[df['dataset'] == 'train'][plot_cols])");
    assert.equal(one, "ax = sns.boxplot(x=df[df['dataset'] == 'train']['temp'])");
  });
  it('a name also bound to something else is not a column list', async () => {
    const setup = "import pandas as pd\nimport seaborn as sns\ndf = pd.read_csv('train.csv')\nplot_cols = ['atemp', 'temp']\nplot_cols = 'temp'";
    const [, out] = await fix([setup, 'ax = sns.boxplot(df[plot_cols])']);
    assert.equal(out, 'ax = sns.boxplot(x=df[plot_cols])');
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eraFromStoredOutputs, shellFromStoredOutputs } from '../../../src/fixers/rules/era-evidence.js';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { pinEvidentDefaults } from '../../../src/fixers/rules/evident-pins.js';
import { sourceText } from '../../../src/core/notebook.js';
import { Era } from '../../../src/fixers/rules/versions.js';
import { notebookOf } from './support.js';

function withOutputs(sources: string[], outputs: any[][]) {
  const nb = notebookOf(sources);
  nb.cells.forEach((c: any, i) => { c.outputs = outputs[i] ?? []; });
  return nb;
}
const result = (text: string) => ({ output_type: 'execute_result', execution_count: 1, data: { 'text/plain': text }, metadata: {} });
const stderr = (text: string) => ({ output_type: 'stream', name: 'stderr', text });

describe('eraFromStoredOutputs', () => {
  it('a full estimator repr bounds scikit-learn below 0.23; an unset old default below 0.22', () => {
    const nb = withOutputs(['clf = RandomForestClassifier()\nclf.fit(X, y)'], [[result("RandomForestClassifier(bootstrap=True, class_weight=None, criterion='gini',\n            max_depth=None, max_features='auto', n_estimators=10, n_jobs=1,\n            random_state=None, verbose=0, warm_start=False)")]]);
    const b = eraFromStoredOutputs(nb);
    assert.equal(b['scikit-learn']?.version, '0.22');
    assert.match(b['scikit-learn']!.reason, /n_estimators=10/);
    assert.equal(new Era({ bounds: b }).predates('scikit-learn', '0.22'), true);
  });

  it('an explicitly set value proves nothing about defaults', () => {
    const nb = withOutputs(['clf = RandomForestClassifier(n_estimators=10)\nclf.fit(X, y)'], [[result("RandomForestClassifier(bootstrap=True, class_weight=None, criterion='gini', n_estimators=10, n_jobs=1, random_state=None, verbose=0)")]]);
    assert.equal(eraFromStoredOutputs(nb)['scikit-learn']?.version, '0.23');
  });

  it("reads library warnings: '... in version 0.20 to 100 in 0.22' bounds below 0.22", () => {
    const nb = withOutputs(['m.fit(X, y)'], [[stderr('/opt/conda/lib/python3.6/site-packages/sklearn/ensemble/forest.py:246: FutureWarning: The default value of n_estimators will change from 10 in version 0.20 to 100 in 0.22.\n  "10 in version 0.20 to 100 in 0.22.", FutureWarning)\n')]]);
    assert.equal(eraFromStoredOutputs(nb)['scikit-learn']?.version, '0.22');
  });

  it('a long frame shown truncated with more than 10 rows bounds pandas below 1.0 (display.min_rows); 5 + 5 rows do not', () => {
    const rows = (idx: number[]) => idx.map((i) => `${String(i).padEnd(4)} ${i % 2}`).join('\n');
    const old = `     a\n${rows([...Array(30).keys()])}\n..  ..\n${rows([...Array(30).keys()].map((i) => i + 861))}\n\n[891 rows x 1 columns]`;
    const b = eraFromStoredOutputs(withOutputs(['train'], [[result(old)]]));
    assert.equal(b.pandas?.version, '1.0');
    assert.equal(new Era({ bounds: b }).knownToPredate('pandas', '1.0'), true);
    const modern = `     a\n${rows([0, 1, 2, 3, 4])}\n..  ..\n${rows([886, 887, 888, 889, 890])}\n\n[891 rows x 1 columns]`;
    assert.equal(eraFromStoredOutputs(withOutputs(['train'], [[result(modern)]])).pandas, undefined);
    assert.equal(new Era({ unknownAsOld: true }).knownToPredate('pandas', '1.0'), false, 'an unknown era is not evidence');
  });

  it('modern reprs and plain numbers give no bound', () => {
    const nb = withOutputs(['clf.fit(X, y)', 'print(acc)'], [[result('RandomForestClassifier(n_estimators=200)')], [result('0.8123')]]);
    assert.deepEqual(eraFromStoredOutputs(nb), {});
  });
});

describe('eraFromRemovedApis', () => {
  it('a removed name the notebook used bounds its library; a changed behaviour does not', async () => {
    const { eraFromRemovedApis } = await import('../../../src/fixers/rules/era-evidence.js');
    const { scanNotebook } = await import('../../../src/fixers/rules/index.js');
    const used = await scanNotebook(notebookOf(['import pandas as pd\ndf = pd.DataFrame({"a": [1]})\nx = df.as_matrix()']));
    assert.equal(eraFromRemovedApis(used).pandas?.version, '1.0');
    assert.match(eraFromRemovedApis(used).pandas!.reason, /as_matrix/);
    assert.deepEqual(eraFromRemovedApis(await scanNotebook(notebookOf(['import pandas as pd\nprint(pd.DataFrame({"a": [1]}).sum())']))), {});
  });
});

describe('shellFromStoredOutputs (ENV007)', () => {
  const display = { output_type: 'display_data', data: { 'text/plain': 'x' }, metadata: {} };
  it("two stored expression values in one cell mean ast_node_interactivity = 'all'; the pin goes after the first import", async () => {
    const nb = withOutputs(['import pandas as pd\ndf = pd.read_csv("train.csv")', 'df.shape\ndf.head()'], [[], [result('(3, 2)'), result('   a  b')]]);
    const shell = shellFromStoredOutputs(nb);
    assert.match(shell.displayAll ?? '', /cell 1 stored 2 expression values/);
    const pinned = await pinEvidentDefaults(nb, { era: { shell } });
    assert.equal(sourceText(pinned.notebook.cells[0].source), "import pandas as pd\n_ipython_display_all_ = get_ipython().ast_node_interactivity = 'all'  # the author's shell showed every expression's value\ndf = pd.read_csv(\"train.csv\")");
    // Without the evidence the rule never fires.
    assert.equal((await fixNotebook(nb, { kinds: ['score-calibration'], ruleIds: ['env-ipython-display-all'] })).changes.length, 0);
  });

  it('one value per cell, display() outputs, or a notebook that sets the option itself: nothing', () => {
    assert.deepEqual(shellFromStoredOutputs(withOutputs(['a', 'b'], [[result('1')], [result('2'), display]])), {});
    const own = withOutputs(["from IPython.core.interactiveshell import InteractiveShell\nInteractiveShell.ast_node_interactivity = 'all'", 'a\nb'], [[], [result('1'), result('2')]]);
    assert.deepEqual(shellFromStoredOutputs(own), {});
  });
});

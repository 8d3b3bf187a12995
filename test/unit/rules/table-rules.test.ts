/**
 * The change-record table interpreter beyond the per-entry fixtures: untyped receivers are
 * rewritten only with a matching runtime error, values a drop/rename entry does not list are
 * reported rather than rewritten, and a move to a builtin through `from numpy import x` is reported.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText } from '../../../src/core/notebook.js';
import { fixNotebook } from '../../../src/fixers/rules/index.js';
import { ruleFromEntry } from '../../../src/fixers/rules/table-rules.js';
import { tableDrivenRules } from '../../../src/fixers/rules/tables/index.js';
import { notebookOf } from './support.js';

const fix = async (src: string, ruleIds: string[], runtime?: { ename: string; evalue: string }) => {
  const res = await fixNotebook(notebookOf([src]), {
    ruleIds,
    includeErrorTriggered: true,
    ...(runtime ? { runtime: { failingCell: 0, ...runtime, traceback: [], frames: [], types: {} } } : {}),
  });
  return { out: sourceText(res.notebook.cells[0].source), findings: res.originalFindings.filter((f) => ruleIds.includes(f.ruleId)) };
};

it('rewrites a method on an untyped receiver only from a matching runtime error', async () => {
  // pandas must be imported for pandas rules to run at all.
  const src = 'import pandas as pd\ny = load()\nz = y.reshape(-1, 1)\n';
  assert.equal((await fix(src, ['pandas-series-reshape'])).out, src);
  const other = await fix(src, ['pandas-series-reshape'], { ename: 'AttributeError', evalue: "'list' object has no attribute 'reshape'" });
  assert.equal(other.out, src);
  const seen = await fix(src, ['pandas-series-reshape'], { ename: 'AttributeError', evalue: "'Series' object has no attribute 'reshape'" });
  assert.equal(seen.out, 'import pandas as pd\ny = load()\nz = y.values.reshape(-1, 1)\n');
});

it('never treats a module as a receiver', async () => {
  const src = 'import pandas as pd\nimport numpy as np\nz = np.reshape([1, 2], (2, 1))\n';
  const r = await fix(src, ['pandas-series-reshape'], { ename: 'AttributeError', evalue: "'Series' object has no attribute 'reshape'" });
  assert.equal(r.out, src);
});

it('reports, without rewriting, a removed keyword at a value whose removal would change behaviour', async () => {
  const src = 'from sklearn.tree import DecisionTreeClassifier\nm = DecisionTreeClassifier(min_impurity_split=0.1)\n';
  const r = await fix(src, ['sklearn-min-impurity-split']);
  assert.equal(r.out, src);
  assert.equal(r.findings.length, 1);
  assert.equal(r.findings[0].autoFixable, false);
});

it('maps keyword values and reports a value it has no mapping for', async () => {
  const ok = await fix("import pandas as pd\ndf = pd.read_csv('a.csv')\ndf.drop_duplicates(take_last=False)\n", ['pandas-take-last']);
  assert.match(ok.out, /drop_duplicates\(keep='first'\)/);
  const dyn = await fix("import pandas as pd\ndf = pd.read_csv('a.csv')\ndf.drop_duplicates(take_last=flag)\n", ['pandas-take-last']);
  assert.match(dyn.out, /take_last=flag/);
  assert.equal(dyn.findings[0]?.autoFixable, false);
});

it('rewrites option values inside parameter grids', async () => {
  const r = await fix("import sklearn\ngrid = {'clf__class_weight': ['auto', None]}\n", ['sklearn-class-weight-auto']);
  assert.equal(r.out, "import sklearn\ngrid = {'clf__class_weight': ['balanced', None]}\n");
});

it('reports a builtin replacement imported by name', async () => {
  const src = 'from numpy import issubclass_\nprint(issubclass_(bool, int))\n';
  const r = await fix(src, ['numpy-issubclass']);
  assert.equal(r.out, src);
  assert.equal(r.findings.length, 1);
});

it('builds one rule per entry with unique ids and derived error signatures', () => {
  const ids = tableDrivenRules.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  const r = ruleFromEntry({
    kind: 'rename-kwarg', id: 'x-test', library: 'pandas', removedIn: '1.0', link: 'https://example.org', message: 'm',
    callees: [{ qname: 'pandas.read_csv' }], from: 'old', to: 'new', fixtures: [],
  });
  assert.ok(r.errors.some((e) => e.ename === 'TypeError' && e.pattern.test("read_csv() got an unexpected keyword argument 'old'")));
});

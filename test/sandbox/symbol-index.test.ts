/**
 * The environment's symbol index, built for real from the fixed rootfs, and a repair that depends on
 * it: a notebook that never imports a scikit-learn name it uses.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findBuiltEnvironment } from '../../src/executor/environment/cache.js';
import { loadSymbolIndex, symbolIndexFile } from '../../src/executor/environment/symbol-index.js';
import { homesOf } from '../../src/core/symbol-index.js';
import { modernizeNotebook } from '../../src/agent/modernize.js';
import { testCacheDir, testSandboxRequest } from '../support/sandbox.js';
import { makeNotebook } from '../support/notebooks.js';
import type { Notebook } from '../../src/core/notebook.js';

/** Modernize with rules only (no LLM), in a fresh output directory: each repair below must come from the index. */
async function modernizeRulesOnly(nb: Notebook, notebookPath: string) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-symbols-'));
  return modernizeNotebook(nb, { sandbox: testSandboxRequest(), outDir, notebookPath, llm: { provider: null, reason: 'test' }, timeoutS: 120 });
}

describe('symbol index (real environment)', { timeout: 600_000 }, () => {
  it('knows where moved names live now', async () => {
    const env = findBuiltEnvironment('debian13', testCacheDir());
    assert.ok(env, 'the environment is built');
    const index = await loadSymbolIndex(env);
    assert.ok(fs.existsSync(symbolIndexFile(env)));
    assert.ok(Object.keys(index.modules).length > 500, `${Object.keys(index.modules).length} modules`);
    assert.equal(homesOf(index, 'train_test_split')[0], 'sklearn.model_selection');
    assert.equal(homesOf(index, 'GridSearchCV')[0], 'sklearn.model_selection');
    assert.equal(homesOf(index, 'scatter_matrix', { top: 'pandas' })[0], 'pandas.plotting');
    assert.equal(homesOf(index, 'comb', { top: 'scipy' })[0], 'scipy.special');
    assert.equal(homesOf(index, 'SimpleImputer')[0], 'sklearn.impute');
    // The standard library's modules, with their public names (constants included).
    assert.ok(index.modules.calendar?.includes('month_name'));
    assert.ok(index.modules.string?.includes('ascii_letters'));
    assert.equal(index.modules.this, undefined, 'modules with side effects on import are not imported');
  });

  it("a keyword no rule knows is checked against the callee's current signature: renamed to its similar parameter", async () => {
    const nb = makeNotebook([
      "import pandas as pd\nimport matplotlib\nmatplotlib.use('Agg')\ndf = pd.DataFrame({'a': [1, 2, 3]})",
      // edgecolors= (the spelling of scatter's parameter) on bars: no rule knows it; the bars' own property is edgecolor.
      "ax = df.a.plot(kind='bar', edgecolors='k')\nprint(len(ax.patches), ax.patches[1].get_edgecolor()[:3])",
    ]);
    (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '3 (0.0, 0.0, 0.0)\n' }];
    const report = await modernizeRulesOnly(nb, '/virtual/kw.ipynb');
    assert.equal(report.verdict, 'reproduced', report.reason);
    const fix = report.fixes.find((f) => f.source === 'unexpected-keyword');
    assert.ok(fix, JSON.stringify(report.fixes.map((f) => f.source)));
    assert.match(fix!.summary, /edgecolors=.*edgecolor=/);
  });

  it('a standard-library module used without its import (the import cell was deleted) gets it back, rules only', async () => {
    const nb = makeNotebook(['x = 3', 'print(calendar.month_name[x], math.floor(2.5))']);
    (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: 'March 2\n' }];
    const report = await modernizeRulesOnly(nb, '/virtual/stdlib.ipynb');
    assert.equal(report.verdict, 'reproduced', report.reason);
    const fixes = report.fixes.filter((f) => f.source === 'missing-import').map((f) => f.summary).join(' | ');
    assert.match(fixes, /import calendar/);
    assert.match(fixes, /import math/);
  });

  it('a name the notebook uses but never imports is imported from its home, rules only', async () => {
    const nb = makeNotebook(['import numpy as np\nX = np.arange(20).reshape(10, 2)', 'a, b = train_test_split(X, test_size=0.3, random_state=0)\nprint(a.shape, b.shape)']);
    (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '(7, 2) (3, 2)\n' }];
    const report = await modernizeRulesOnly(nb, '/virtual/symbols.ipynb');
    assert.equal(report.verdict, 'reproduced', report.reason);
    const fix = report.fixes.find((f) => f.source === 'missing-import')!;
    assert.match(fix.summary, /from sklearn\.model_selection import train_test_split/);
  });
});

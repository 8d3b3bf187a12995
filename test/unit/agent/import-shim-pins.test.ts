/**
 * Repairs inserted after an import (import-shim.ts). SK091 (LinearRegression's rank cutoff) is a
 * verified candidate only: never a certain pin from the era, and offered for a drift only in a cell a
 * LinearRegression call feeds. SK092 (StratifiedKFold's pre-0.22 folds) is certain where the era
 * predates 0.22, and otherwise a candidate for drifts the cross-validation calls feed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleFixer } from '../../../src/agent/rule-fixer.js';
import type { Problem } from '../../../src/agent/fixers.js';
import { pinDefaults } from '../../../src/fixers/rules/index.js';
import { notebookOf } from '../rules/support.js';

const ID = 'sklearn-linear-regression-rank-cutoff';

function drift(nb: ReturnType<typeof notebookOf>, cell: number): Problem {
  return {
    diagnosis: { kind: 'fix', fixType: 'score-calibration', cell, signature: `drift:${cell}:0.8`, why: 'value drifted: 0.15 -> 4218006.1' },
    step: 1, notebook: nb, state: { notebook: nb, cells: [], ran: [], status: 'ok', complete: true, fresh: true },
    escalate: false, attempts: [], isNew: () => true, oracle: (() => ({ comparisons: [] })) as any, environment: {} as any, emit: () => {},
  };
}

const nb = notebookOf([
  'import pandas as pd\nfrom sklearn.linear_model import LinearRegression, Ridge\nfrom sklearn.model_selection import cross_val_score',
  "df = pd.read_csv('train.csv')\nprint(df.describe())",
  "X = pd.get_dummies(df.drop('y', axis=1))\nlr = LinearRegression()",
  "print(cross_val_score(lr, X, df['y']).mean())",
  "print(cross_val_score(Ridge(), X, df['y']).mean())",
]);

function candidateIds(p: Awaited<ReturnType<ReturnType<typeof ruleFixer>['propose']>>): string[] {
  if (p?.kind !== 'candidates') return [];
  return p.candidates.flatMap((c) => (c.patch.source.kind === 'rule' ? c.patch.source.ruleIds : []));
}

describe('SK091: the rank cutoff as a drift candidate', () => {
  it('is never a pin the era makes certain', async () => {
    const pins = await pinDefaults(nb, { era: { versions: { 'scikit-learn': '0.19.1' } } });
    assert.ok(!pins.some((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(ID)));
  });

  it('is inserted once, after the import, when the era is unknown', async () => {
    const pins = (await pinDefaults(nb, { era: { unknownAsOld: true } })).filter((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(ID));
    assert.equal(pins.length, 1);
    const src = pins[0]!.edits[0]!;
    assert.equal(src.cell, 0);
    const text = src.op === 'replace' ? src.newSource : '';
    assert.match(text, /import LinearRegression, Ridge\n# scikit-learn 1\.6 \(#30040\)/);
    assert.equal(text.split('_sk_lr_base_.linalg.lstsq').length, 2, 'one copy');
  });

  it('is offered for a drift in a cell a LinearRegression call feeds', async () => {
    const p = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, 3));
    assert.ok(candidateIds(p).includes(ID), candidateIds(p).join(', '));
  });

  it('is not offered for a drift no LinearRegression call feeds', async () => {
    for (const cell of [1, 4]) {
      const p = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, cell));
      assert.ok(!candidateIds(p).includes(ID), `cell ${cell}: ${candidateIds(p).join(', ')}`);
    }
  });

  it('a notebook that already carries it is not patched again', async () => {
    const once = (await pinDefaults(nb, { era: { unknownAsOld: true }, ruleIds: [ID] }))[0]!;
    const edit = once.edits[0]!;
    const patched = notebookOf([edit.op === 'replace' ? edit.newSource : '', ...nb.cells.slice(1).map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source))]);
    assert.equal((await pinDefaults(patched, { era: { unknownAsOld: true }, ruleIds: [ID] })).length, 0);
  });
});

const SKF = 'sklearn-pin-stratified-kfold-folds';
const clf = notebookOf([
  'import numpy as np\nimport pandas as pd\nfrom sklearn.model_selection import cross_val_score\nfrom sklearn.tree import DecisionTreeClassifier',
  "df = pd.read_csv('train.csv')\nprint(df['Survived'].mean())",
  "scores = cross_val_score(DecisionTreeClassifier(), df[['Pclass']], df['Survived'], cv=10)",
  "print('Accuracy: %0.2f (+/- %0.2f)' % (scores.mean(), scores.std() * 2))",
]);

describe("SK092: StratifiedKFold's pre-0.22 folds", () => {
  it('is a certain pin when the era predates 0.22, inserted once after the first scikit-learn import', async () => {
    const pins = (await pinDefaults(clf, { era: { versions: { 'scikit-learn': '0.20.3' } } })).filter((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(SKF));
    assert.equal(pins.length, 1);
    const e = pins[0]!.edits[0]!;
    assert.equal(e.cell, 0);
    const text = e.op === 'replace' ? e.newSource : '';
    assert.match(text, /from sklearn\.model_selection import cross_val_score\n# scikit-learn 0\.22 \(#14704\)[^]*\nfrom sklearn\.tree import DecisionTreeClassifier$/);
  });

  it('is no pin when the era is 0.22 or later', async () => {
    const pins = await pinDefaults(clf, { era: { versions: { 'scikit-learn': '0.22.1' } } });
    assert.ok(!pins.some((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(SKF)));
  });

  it('era unknown: a candidate for the drift a cross-validation call feeds, not for the others', async () => {
    const fed = await ruleFixer({ original: clf, dataFiles: [], era: {} }).propose(drift(clf, 3));
    assert.ok(candidateIds(fed).includes(SKF), candidateIds(fed).join(', '));
    const other = await ruleFixer({ original: clf, dataFiles: [], era: {} }).propose(drift(clf, 1));
    assert.ok(!candidateIds(other).includes(SKF), candidateIds(other).join(', '));
  });
});

const IID = 'sklearn-pin-search-iid';
const search = (kw = '') => notebookOf([
  'import numpy as np\nimport pandas as pd\nfrom sklearn.model_selection import GridSearchCV\nfrom sklearn.svm import SVC',
  "df = pd.read_csv('train.csv')\nprint(df['Survived'].mean())",
  `g = GridSearchCV(SVC(), {'C': [0.1, 1, 10]}, cv=5${kw})\ng.fit(df[['Pclass']], df['Survived'])`,
  'print(g.best_score_, g.best_params_)',
]);
const iidPins = async (nb: ReturnType<typeof notebookOf>, era: object) => (await pinDefaults(nb, { era })).filter((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(IID));

describe("SK093: a search's fold means weighted by test-fold size (iid=True until 0.22)", () => {
  it('a certain pin where the era predates 0.22, once, after the first scikit-learn import', async () => {
    const pins = await iidPins(search(), { versions: { 'scikit-learn': '0.19.1' } });
    assert.equal(pins.length, 1);
    const e = pins[0]!.edits[0]!;
    assert.equal(e.cell, 0);
    // After the first scikit-learn import (SK092's shim, certain in the same era, may sit between).
    assert.match(e.op === 'replace' ? e.newSource : '', /import GridSearchCV\n[^]*# scikit-learn 0\.22 stopped weighting[^]*_format_results = _sk_iid_results_\n(?![^]*_sk_iid_results_)[^]*from sklearn\.svm import SVC$/);
  });

  it('an explicit iid=True pins it in any era; iid=False on every search, a later era, or no search: no pin', async () => {
    assert.equal((await iidPins(search(', iid=True'), { versions: { 'scikit-learn': '0.23.2' } })).length, 1);
    assert.equal((await iidPins(search(', iid=False'), { versions: { 'scikit-learn': '0.19.1' } })).length, 0);
    assert.equal((await iidPins(search(), { versions: { 'scikit-learn': '0.22.1' } })).length, 0);
    const none = notebookOf(['from sklearn.svm import SVC', 'print(SVC())']);
    assert.equal((await iidPins(none, { versions: { 'scikit-learn': '0.19.1' } })).length, 0);
  });

  it('era unknown: a candidate for a drift the search feeds, not for the others', async () => {
    const nb = search();
    const fed = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, 3));
    assert.ok(candidateIds(fed).includes(IID), candidateIds(fed).join(', '));
    const other = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, 1));
    assert.ok(!candidateIds(other).includes(IID), candidateIds(other).join(', '));
  });
});

describe('evidence-gated pins as drift candidates (era unknown)', () => {
  const NA = 'pandas-pin-read-csv-none-na';
  const nb = notebookOf([
    'import pandas as pd',
    "train = pd.read_csv('train.csv')",
    'train_nas = train.isnull().sum()\ntrain_nas[train_nas > 0]',
  ]);
  it("read_csv's pandas-1 missing-value strings are a candidate when the data holds 'None' fields, and not without that evidence", async () => {
    const facts = { newlyMissingTokens: { 'train.csv': ['None'] } };
    const withFacts = await ruleFixer({ original: nb, dataFiles: ['train.csv'], era: {}, dataFacts: facts }).propose(drift(nb, 2));
    assert.ok(candidateIds(withFacts).includes(NA), candidateIds(withFacts).join(', '));
    const without = await ruleFixer({ original: nb, dataFiles: ['train.csv'], era: {} }).propose(drift(nb, 2));
    assert.ok(!candidateIds(without).includes(NA), candidateIds(without).join(', '));
  });
});

describe('call-site pins are drift candidates only where their cell feeds the drifted one', () => {
  const nb = notebookOf([
    'import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.neighbors import KNeighborsClassifier\nfrom sklearn.model_selection import cross_val_score',
    "df = pd.read_csv('train.csv')\nX, y = df[['Pclass']], df['Survived']",
    'lr = LogisticRegression()\nlr.fit(X, y)\nprint(lr.score(X, y))',
    'knn_scores = {k: np.mean(cross_val_score(KNeighborsClassifier(n_neighbors=k), X, y, cv=10)) for k in (1, 3, 5)}',
    'print(max(knn_scores, key=knn_scores.get))',
  ]);
  const LR = 'sklearn-pin-logistic-solver';
  it("a LogisticRegression's solver pin is no candidate for a drift in the KNN scores, and is one for the logistic score", async () => {
    const knn = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, 4));
    assert.ok(!candidateIds(knn).includes(LR), candidateIds(knn).join(', '));
    assert.ok(candidateIds(knn).includes(SKF), candidateIds(knn).join(', '));
    const lr = await ruleFixer({ original: nb, dataFiles: [], era: {} }).propose(drift(nb, 2));
    assert.ok(candidateIds(lr).includes(LR), candidateIds(lr).join(', '));
  });
});

/**
 * A drift with an era known to predate the old defaults' change: the certain pins of the cells up to
 * the drifted one go in as one patch; pins in later cells cannot move that value and wait for a
 * drift of their own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleFixer } from '../../../src/agent/rule-fixer.js';
import type { Problem } from '../../../src/agent/fixers.js';
import { notebookOf } from '../rules/support.js';

function drift(nb: ReturnType<typeof notebookOf>, cell: number, isNew: Problem['isNew'] = () => true): Problem {
  return {
    diagnosis: { kind: 'fix', fixType: 'score-calibration', cell, signature: `drift:${cell}:0.8`, why: 'value drifted: 0.8 -> 0.7' },
    step: 1, notebook: nb, state: { notebook: nb, cells: [], ran: [], status: 'ok', complete: true, fresh: true },
    escalate: false, attempts: [], isNew, oracle: (() => ({ comparisons: [] })) as any, environment: {} as any, emit: () => {},
  };
}

const nb = notebookOf([
  'from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.svm import SVC',
  'forest = RandomForestClassifier(random_state=0)',
  'svc = SVC()',
  'print(forest.fit(X, y).score(X, y))',
  'late = RandomForestClassifier(random_state=1)\nprint(late.fit(X, y).score(X, y))',
]);
const era = { versions: { 'scikit-learn': '0.19.1' } };

describe('drift: the era-certain pins up to the drifted cell', () => {
  it('are one patch, and none of a later cell is in it', async () => {
    const p = await ruleFixer({ original: nb, dataFiles: [], era }).propose(drift(nb, 3));
    assert.equal(p?.kind, 'patch');
    const patch = p!.kind === 'patch' ? p!.patch : undefined;
    assert.equal(patch?.fixType, 'score-calibration');
    assert.deepEqual(patch?.edits.map((e) => e.cell), [1, 2], 'cells 1 and 2 together, not cell 4');
    const ids = patch?.source.kind === 'rule' ? patch.source.ruleIds : [];
    assert.ok(ids.includes('sklearn-pin-forest-n-estimators') && ids.includes('sklearn-pin-svm-gamma'), ids.join(', '));
  });

  it('a drift in the later cell gets that cell\'s pin', async () => {
    const p = await ruleFixer({ original: nb, dataFiles: [], era }).propose(drift(nb, 4));
    const cells = p?.kind === 'patch' ? p.patch.edits.map((e) => e.cell) : [];
    assert.ok(cells.includes(4), JSON.stringify(cells));
  });

  it('no certain pin before the drifted cell: no certain patch (the unknown-era candidates, verified, come next)', async () => {
    const p = await ruleFixer({ original: nb, dataFiles: [], era }).propose(drift(nb, 0));
    assert.notEqual(p?.kind, 'patch');
  });
});

describe('drift pins in the author\'s run order', () => {
  it('"up to the drifted cell" follows the order the cells run in, not their positions', async () => {
    // The notebook runs cell 4 before cell 3 (the author's recorded order): cell 4's pin can move cell 3.
    const p = await ruleFixer({ original: nb, dataFiles: [], era }).propose({ ...drift(nb, 3), runOrder: [0, 1, 2, 4, 3] });
    const cells = p?.kind === 'patch' ? p.patch.edits.map((e) => e.cell) : [];
    assert.deepEqual(cells, [1, 2, 4]);
  });
});

describe('drift candidates, era unknown', () => {
  it("a pin the data calls for: at every site first (train and test read alike), judged by the cells up to the drifted one", async () => {
    const reads = notebookOf([
      'import pandas as pd',
      "train = pd.read_csv('../input/train.csv')",
      "test = pd.read_csv('../input/test.csv')",
      "print(train['MasVnrType'].isnull().sum())",
    ]);
    const dataFacts = { newlyMissingTokens: { 'train.csv': ['None'], 'test.csv': ['None'] } };
    const p = await ruleFixer({ original: reads, dataFiles: ['train.csv', 'test.csv'], era: {}, dataFacts }).propose(drift(reads, 3));
    assert.equal(p?.kind, 'candidates');
    const cands = p!.kind === 'candidates' ? p!.candidates : [];
    assert.match(cands[0]!.label, /pandas-pin-read-csv-none-na at every site \(cells 1, 2\)/);
    assert.ok(cands.filter((c) => /read-csv-none-na/.test(c.label)).every((c) => c.fromRecord), 'evidence-gated pins are judged up to the drifted cell');
  });

  it("LassoLars' old normalize default: the shim before the first sklearn import is a candidate where a Lars model feeds the drifted cell", async () => {
    const lars = notebookOf([
      'import numpy as np\nfrom sklearn import linear_model',
      'm = linear_model.LassoLars(alpha=0.1).fit(X, y)',
      'print(m.score(X, y))',
    ]);
    const p = await ruleFixer({ original: lars, dataFiles: [], era: {} }).propose(drift(lars, 2));
    const cands = p?.kind === 'candidates' ? p.candidates : [];
    const pin = cands.find((c) => c.patch.source.kind === 'rule' && c.patch.source.ruleIds.includes('sklearn-pin-lars-normalize'));
    assert.ok(pin, cands.map((c) => c.label).join('; '));
    assert.match((pin!.patch.edits[0] as any).newSource, /_sk_old_normalize_\(getattr\(_sk_normalize_default_, _n\), _n in \('Lars', 'LassoLars'/);
  });
});

/**
 * xgboost's changed defaults as a table (tables/xgboost-pins.json): the file is checked when it loads
 * (by the loader scikit-learn's pins use), and the pins leave alone what they always did.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceText } from '../../../src/core/notebook.js';
import { ALL_RULES, fixNotebook } from '../../../src/fixers/rules/index.js';
import { loadXgbPinTable, xgboostPinRules } from '../../../src/fixers/rules/xgboost-pins.js';
import { notebookOf } from './support.js';

const pinned = async (src: string, id: string, xgboost = '0.90') => {
  const res = await fixNotebook(notebookOf([src]), { ruleIds: [id], era: { versions: { xgboost } }, kinds: ['error-repair', 'score-calibration'] });
  return sourceText(res.notebook.cells[0]!.source);
};

describe('xgboost pins from the table', () => {
  it('loads every entry as a score-calibration rule, registered right after the other xgboost rules', () => {
    assert.deepEqual(xgboostPinRules.map((r) => r.id), ['xgboost-pin-sklearn-defaults', 'xgboost-pin-tree-method', 'xgboost-pin-base-score']);
    assert.equal(xgboostPinRules.length, loadXgbPinTable().length);
    for (const r of xgboostPinRules) {
      assert.equal(r.kind, 'score-calibration', r.id);
      assert.equal(r.link, 'https://xgboost.readthedocs.io/en/stable/changes/index.html', r.id);
    }
    const ids = ALL_RULES.map((r) => r.id);
    assert.equal(ids.indexOf('xgboost-pin-sklearn-defaults'), ids.indexOf('xgboost-cv-show-progress') + 1);
  });
  it('a misspelt field fails at load, naming the file and the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ pins: [{ ...loadXgbPinTable()[0]!, alias: {} }] }));
    assert.throws(() => loadXgbPinTable(file), /bad\.json.*alias|Unrecognized key/);
    fs.rmSync(dir, { recursive: true });
  });
  it('pins what is missing, in order; an alias counts as passed; positional calls, ** and XGBRF* are left alone; a later era is', async () => {
    const imp = 'import xgboost as xgb\n';
    const id = 'xgboost-pin-sklearn-defaults';
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier(n_estimators=5)', id), /\(n_estimators=5, max_depth=3, learning_rate=0\.1\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBRegressor(eta=0.05)', id), /\(eta=0\.05, max_depth=3\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier(max_depth=4, learning_rate=0.2)', id), /\(max_depth=4, learning_rate=0\.2\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier(100)', id), /XGBClassifier\(100\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier(**params)', id), /XGBClassifier\(\*\*params\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBRFClassifier(n_estimators=5)', id), /XGBRFClassifier\(n_estimators=5\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier(n_estimators=5)', id, '1.7.6'), /XGBClassifier\(n_estimators=5\)$/);
    assert.match(await pinned(imp + 'm = xgb.XGBClassifier()', 'xgboost-pin-tree-method', '1.7.6'), /XGBClassifier\(tree_method='exact'\)$/);
  });
});

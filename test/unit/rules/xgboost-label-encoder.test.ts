import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { xgbLabelEncoderPatches } from '../../../src/fixers/rules/xgboost-label-encoder.js';
import { notebookOf } from './support.js';

const ERR = { ename: 'ValueError', evalue: 'Invalid classes inferred from unique values of `y`.  Expected: [0 1 2], got [1 2 3]' };

describe('xgbLabelEncoderPatches', () => {
  it('a subclass of the same name right after `from xgboost import XGBClassifier` (aliases kept)', async () => {
    const nb = notebookOf(['import numpy as np\nfrom xgboost import XGBRegressor, XGBClassifier as XC\n%matplotlib inline', 'm = XC()\nm.fit(X, y)']);
    const [c] = await xgbLabelEncoderPatches(nb, 1, ERR);
    assert.ok(c);
    const src = (c.patch.edits[0] as any).newSource as string;
    assert.equal((c.patch.edits[0] as any).cell, 0);
    assert.match(src, /^import numpy as np\nfrom xgboost import XGBRegressor, XGBClassifier as XC\nclass XC\(XC\):\n/);
    assert.match(src, /inverse_transform/);
    assert.match(src, /\n%matplotlib inline$/);
  });
  it('`import xgboost as xgb`: the subclass is written back to the module', async () => {
    const nb = notebookOf(['import xgboost as xgb', 'xgb.XGBClassifier().fit(X, y)']);
    const [c] = await xgbLabelEncoderPatches(nb, 1, ERR);
    assert.match((c!.patch.edits[0] as any).newSource, /^import xgboost as xgb\nclass XGBClassifier\(xgb\.XGBClassifier\):[\s\S]*\nxgb\.XGBClassifier = XGBClassifier$/);
  });
  it('nothing for another error, an import after the failing cell, or an encoder already restored', async () => {
    assert.deepEqual(await xgbLabelEncoderPatches(notebookOf(['from xgboost import XGBClassifier', 'x']), 1, { ename: 'ValueError', evalue: 'other' }), []);
    assert.deepEqual(await xgbLabelEncoderPatches(notebookOf(['m.fit(X, y)', 'from xgboost import XGBClassifier']), 0, ERR), []);
    const nb = notebookOf(['from xgboost import XGBClassifier', 'm = XGBClassifier()']);
    const [c] = await xgbLabelEncoderPatches(nb, 1, ERR);
    (nb.cells[0] as any).source = (c!.patch.edits[0] as any).newSource;
    assert.deepEqual(await xgbLabelEncoderPatches(nb, 1, ERR), []);
  });
  it('follows every import of the class: a later cell importing it again gets the subclass too', async () => {
    const nb = notebookOf(['from xgboost import XGBClassifier\nxgb = XGBClassifier()', 'x = 1', 'from sklearn.ensemble import RandomForestClassifier\nfrom xgboost import XGBClassifier\nfeat = [XGBClassifier()]\nfeat[0].fit(X, y)']);
    const [c] = await xgbLabelEncoderPatches(nb, 2, ERR);
    assert.deepEqual(c!.patch.edits.map((e: any) => e.cell), [0, 2]);
    assert.match((c!.patch.edits[1] as any).newSource, /^from sklearn\.ensemble import RandomForestClassifier\nfrom xgboost import XGBClassifier\nclass XGBClassifier\(XGBClassifier\):/);
    for (const e of c!.patch.edits as any[]) (nb.cells[e.cell] as any).source = e.newSource;
    assert.deepEqual(await xgbLabelEncoderPatches(nb, 2, ERR), []);
  });
});


import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { METRICS, metricValue, normalizeId, parseCsv, relativeDifference, rocAuc, scoreSubmission, ScoringError } from '../../../src/agent/oracle/scorers.js';
import { sharedDir } from '../../support/sandbox.js';

const close = (a: number, b: number, eps = 1e-9): void => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

test('parseCsv: quotes, escaped quotes, embedded newlines, CRLF, BOM, trailing newline', () => {
  const c = parseCsv('\uFEFFid,name,v\r\n1,"Allen, Miss. ""Liz""",2.5\r\n2,"multi\nline",\n');
  assert.deepEqual(c.header, ['id', 'name', 'v']);
  assert.deepEqual(c.rows, [['1', 'Allen, Miss. "Liz"', '2.5'], ['2', 'multi\nline', '']]);
  assert.throws(() => parseCsv(''), ScoringError);
});

test('metrics against hand-computed values', () => {
  close(metricValue('accuracy', ['1', '0', '1', '1'], ['1', '1', '1', '0']), 0.5);
  close(metricValue('accuracy', ['1', '0', '1', '1'], ['1.0', '0', 'True', 'False']), 0.75, 1e-12);
  close(metricValue('accuracy', ['1', '0', '1', '0'], ['0.9', '0.2', '0.4', '0.5']), 0.5); // cut at 0.5
  // f1: tp=2 fp=1 fn=1 -> 4/6
  close(metricValue('f1', ['1', '0', '1', '1', '0'], ['1', '1', '1', '0', '0']), 2 / 3);
  // macro f1 over three classes
  close(metricValue('f1', ['a', 'b', 'c', 'a'], ['a', 'b', 'b', 'a']), (1 + 2 / 3 + 0) / 3);
  close(rocAuc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 0.75);
  close(rocAuc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]), 0.5);
  close(metricValue('logloss', ['1', '0'], ['0.8', '0.3']), -(Math.log(0.8) + Math.log(0.7)) / 2);
  close(metricValue('rmse', ['1', '2', '3'], ['1', '2', '5']), Math.sqrt(4 / 3));
  close(metricValue('mae', ['1', '2', '3'], ['2', '2', '5']), 1);
  close(metricValue('rmsle', ['0', '9'], ['0', '99']), Math.sqrt((Math.log(10) - Math.log(100)) ** 2 / 2));
  close(metricValue('r2', ['1', '2', '3'], ['1', '2', '4']), 1 - 1 / 2);
  assert.throws(() => metricValue('rmse', ['1'], ['x']), /"x" \(row 1\) is not a number/);
  assert.throws(() => metricValue('rmsle', ['1'], ['-2']), /greater than -1/);
  assert.throws(() => metricValue('auc', ['1', '1'], ['0.2', '0.3']), /both classes/);
  assert.deepEqual(Object.entries(METRICS).filter(([, m]) => m.higherIsBetter).map(([k]) => k), ['accuracy', 'f1', 'auc', 'r2']);
});

test('scoreSubmission joins on id (first column by default), infers the target, counts missing/extra/duplicate ids', () => {
  const truth = parseCsv('PassengerId,Survived\n892,0\n893,1\n894,0\n895,1\n');
  const sub = parseCsv('PassengerId,Survived\n893.0,1\n892,1\n892,0\n894,0\n999,1\n');
  const r = scoreSubmission(sub, truth, { metric: 'accuracy' });
  assert.equal(r.n, 3);
  close(r.score, 2 / 3);
  assert.deepEqual([r.idColumn, r.targetColumn, r.missingIds, r.extraIds, r.duplicateIds], ['PassengerId', 'Survived', 1, 1, 1]);
  // Named columns; a ground truth whose target is named differently.
  const t2 = parseCsv('Id,label,other\n1,3.0,x\n2,5.0,y\n');
  const s2 = parseCsv('Id,SalePrice\n1,3\n2,6\n');
  const r2 = scoreSubmission(s2, t2, { metric: 'rmse', targetColumn: 'SalePrice', truthTargetColumn: 'label' });
  close(r2.score, Math.sqrt(0.5));
  assert.throws(() => scoreSubmission(parseCsv('Id,a,b\n1,1,1\n'), parseCsv('Id,c,d\n1,1,1\n'), { metric: 'rmse' }), /cannot tell the target column/);
  assert.throws(() => scoreSubmission(parseCsv('x,y\n1,1\n'), truth, { metric: 'accuracy' }), /submission has no id column "PassengerId"/);
  assert.equal(normalizeId(' 0042 '), '42');
  assert.equal(normalizeId('abc'), 'abc');
  close(relativeDifference(0.8, 0.72), 0.1);
  assert.equal(relativeDifference(0, 0.05), 0.05);
  // Floating-point noise around zero (a standardised column's mean) is not a drift; a small value against noise is.
  assert.equal(relativeDifference(-2.132627e-16, 3.609106e-16), 0);
  assert.equal(relativeDifference(0, 4e-17), 0);
  assert.ok(relativeDifference(1e-16, 0.001) > 0.1);
  assert.ok(relativeDifference(0.001, 1e-16) > 0.1);
});

test('the corpus gender submission scores the known ~0.766 on the Titanic ground truth', (t) => {
  const dir = path.join(sharedDir(), 'corpus', 'data', 'titanic');
  const truthFile = path.join(dir, 'ground_truth', 'test_labels_derived_from_titanic3.csv');
  if (!fs.existsSync(truthFile)) return t.skip('corpus not present');
  const r = scoreSubmission(parseCsv(fs.readFileSync(path.join(dir, 'gender_submission.csv'), 'utf8')), parseCsv(fs.readFileSync(truthFile, 'utf8')), { metric: 'accuracy' });
  assert.equal(r.n, 418);
  assert.equal(r.missingIds, 0);
  assert.ok(Math.abs(r.score - 0.7655) < 0.002, `gender model accuracy ${r.score}`);
});

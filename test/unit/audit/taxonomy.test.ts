/** Failure taxonomy: exception class x cause from the first error, the status and the verdict. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailure, causeLabel, type EnvironmentFacts } from '../../../src/agent/audit/taxonomy.js';

const env: EnvironmentFacts = { modules: new Set(['numpy', 'pandas', 'sklearn', 'os', 'xgboost']), unavailable: new Set(['lightgbm', 'keras']) };
const err = (ename: string, evalue: string, python2 = false) => classifyFailure({ verdict: 'not-reproduced', status: 'error', error: { ename, evalue }, python2 }, env);

it('a reproduced notebook has no taxonomy', () => {
  assert.equal(classifyFailure({ verdict: 'reproduced', status: 'ok' }, env), null);
});

it('missing modules: unavailable library, removed submodule, Python 2 stdlib, unknown module', () => {
  assert.deepEqual(err('ModuleNotFoundError', "No module named 'lightgbm'"), { exceptionClass: 'ModuleNotFoundError', cause: 'unsupported-library', subject: 'lightgbm' });
  assert.deepEqual(err('ModuleNotFoundError', "No module named 'sklearn.cross_validation'"), { exceptionClass: 'ModuleNotFoundError', cause: 'removed-api', subject: 'sklearn.cross_validation' });
  assert.equal(err('ModuleNotFoundError', "No module named 'urllib2'")?.cause, 'python2');
  assert.equal(err('ModuleNotFoundError', "No module named 'my_helpers'")?.cause, 'missing-module');
  assert.equal(err('ImportError', "cannot import name 'Imputer' from 'sklearn.preprocessing'")?.cause, 'removed-api');
});

it('Python 2: print statement, py2 builtins, py2-only methods in a py2 notebook, lazy views', () => {
  assert.equal(err('SyntaxError', "Missing parentheses in call to 'print'. Did you mean print(...)?")?.cause, 'python2');
  assert.equal(err('SyntaxError', 'invalid syntax', true)?.cause, 'python2');
  assert.equal(err('SyntaxError', 'invalid syntax', false)?.cause, 'other');
  assert.equal(err('NameError', "name 'xrange' is not defined")?.cause, 'python2');
  assert.equal(err('NameError', "name 'df2' is not defined")?.cause, 'other');
  assert.equal(err('AttributeError', "'dict' object has no attribute 'iteritems'", true)?.cause, 'python2');
  assert.equal(err('TypeError', "'dict_keys' object is not subscriptable")?.cause, 'python2');
});

it('removed APIs, data paths, and everything else', () => {
  assert.deepEqual(err('AttributeError', "'DataFrame' object has no attribute 'ix'"), { exceptionClass: 'AttributeError', cause: 'removed-api', subject: 'ix' });
  assert.equal(err('TypeError', "__init__() got an unexpected keyword argument 'n_iter'")?.cause, 'removed-api');
  assert.equal(err('OptionError', "No such keys(s): 'display.height'")?.cause, 'removed-api');
  assert.equal(err('FileNotFoundError', "[Errno 2] No such file or directory: 'data/train.csv'")?.cause, 'data-path');
  assert.equal(err('OSError', "File b'../input/train.csv' does not exist")?.cause, 'data-path');
  assert.equal(err('ValueError', 'could not convert string to float')?.cause, 'other');
  assert.deepEqual(err('OSError', "'seaborn' is not a valid package style, path of style file, URL of style file, or library style name"), { exceptionClass: 'OSError', cause: 'removed-api', subject: 'seaborn' });
  assert.equal(err('UsageError', 'Line magic function `%install_ext` not found.')?.cause, 'removed-api');
});

it('statuses and tool failures map to their own causes', () => {
  const st = (status: string, verdict: 'not-reproduced' | 'failed' = 'not-reproduced') => classifyFailure({ verdict, status }, env);
  assert.deepEqual(st('timeout'), { exceptionClass: 'Timeout', cause: 'timeout' });
  assert.deepEqual(st('budget-exceeded'), { exceptionClass: 'Timeout', cause: 'timeout' });
  assert.deepEqual(st('kernel-died'), { exceptionClass: 'KernelDied', cause: 'kernel-death' });
  assert.deepEqual(st('ok'), { exceptionClass: 'Drift', cause: 'score-drift' });
  assert.equal(st('malformed-notebook', 'failed')?.cause, 'malformed-notebook');
  assert.equal(st('unsupported-kernel', 'failed')?.cause, 'unsupported-kernel');
  assert.equal(st('environment', 'failed')?.cause, 'sandbox-failure');
  assert.equal(st('crashed', 'failed')?.cause, 'crashed');
  assert.equal(causeLabel('python2'), 'Python 2 syntax');
  assert.equal(causeLabel('kernel-death'), 'kernel death');
});

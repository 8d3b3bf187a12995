import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveOption, resolveOptionPath } from '../../../src/fixers/rules/pandas-options.js';

test('a short pattern the styler options made ambiguous resolves to its display option', () => {
  assert.deepEqual(resolveOption('max_columns'), { kind: 'rewrite', key: 'display.max_columns' });
  assert.deepEqual(resolveOption('precision'), { kind: 'rewrite', key: 'display.precision' });
  assert.deepEqual(resolveOption('MAX_ROWS'), { kind: 'rewrite', key: 'display.max_rows' });
});

test('exact keys and patterns that still match one option are left as written', () => {
  assert.deepEqual(resolveOption('display.max_columns'), { kind: 'ok', key: 'display.max_columns' });
  assert.deepEqual(resolveOption('max_colwidth'), { kind: 'ok', key: 'display.max_colwidth' });
  assert.deepEqual(resolveOption('chained_assignment'), { kind: 'ok', key: 'mode.chained_assignment' });
});

test('options the environment lacks are removed; renamed ones get their new name', () => {
  assert.deepEqual(resolveOption('display.height'), { kind: 'removed' });
  assert.deepEqual(resolveOption('display.column_space'), { kind: 'removed' });
  assert.deepEqual(resolveOption('use_inf_as_null'), { kind: 'rewrite', key: 'mode.use_inf_as_na' });
  assert.deepEqual(resolveOptionPath('display.mpl_style'), { kind: 'removed' });
  assert.deepEqual(resolveOptionPath('display'), { kind: 'ok', key: 'display' });
});

test('a pattern that matches several options, none of them one display option, is not guessed', () => {
  const r = resolveOption('max_');
  assert.equal(r.kind, 'ambiguous');
  assert.equal(resolveOption('(').kind, 'ambiguous');
});

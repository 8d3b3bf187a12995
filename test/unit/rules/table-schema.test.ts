import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTable } from '../../../src/fixers/rules/table-schema.js';
import { TABLES, TABLE_FILES } from '../../../src/fixers/rules/tables/index.js';

const ENTRY = {
  kind: 'rename-kwarg', id: 'pandas-example', library: 'pandas', removedIn: '0.20',
  callees: [{ method: 'drop_duplicates', receiver: 'DataFrame' }], from: 'cols', to: 'subset',
  errors: [{ ename: 'TypeError', pattern: "unexpected keyword argument 'cols'" }],
  link: 'https://pandas.pydata.org/docs/whatsnew/v0.20.0.html', message: 'use subset=',
  fixtures: [{ before: 'a', after: 'b', expect: '1' }],
};

test('a table entry parses, its error patterns compiled to regular expressions', () => {
  const [e] = parseTable(JSON.stringify([ENTRY]), 'x.json');
  assert.equal(e!.id, 'pandas-example');
  assert.ok(e!.errors![0]!.pattern instanceof RegExp);
  assert.ok(e!.errors![0]!.pattern.test("got an unexpected keyword argument 'cols'"));
});

test('a malformed table names the file, the entry and the field', () => {
  assert.throws(() => parseTable('[{', 'pandas.json'), /pandas\.json: not valid JSON/);
  assert.throws(() => parseTable('{}', 'pandas.json'), /expected a JSON array/);
  assert.throws(() => parseTable(JSON.stringify([{ ...ENTRY, form: 'cols' }]), 'pandas.json'), /entry 0 \(pandas-example\)/);
  const { to: _to, ...noTo } = ENTRY;
  assert.throws(() => parseTable(JSON.stringify([noTo]), 'pandas.json'), /entry 0 \(pandas-example\): to/);
  assert.throws(() => parseTable(JSON.stringify([{ ...ENTRY, kind: 'rename-everything' }]), 'pandas.json'), /kind/);
  assert.throws(() => parseTable(JSON.stringify([{ ...ENTRY, fixtures: [] }]), 'pandas.json'), /fixtures/);
  assert.throws(() => parseTable(JSON.stringify([{ ...ENTRY, errors: [{ ename: 'TypeError', pattern: '(' }] }]), 'pandas.json'), /bad error pattern/);
});

test('every table file loads, ids are unique and each entry belongs to its file', () => {
  assert.equal(TABLES.length, TABLE_FILES.length);
  const ids = TABLES.flat().map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  TABLES.forEach((table, i) => {
    assert.ok(table.length > 0, TABLE_FILES[i]);
    // python.json holds standard-library removals; the others are named for their library.
    if (TABLE_FILES[i] !== 'python') for (const e of table) assert.equal(e.library, TABLE_FILES[i], e.id);
  });
});

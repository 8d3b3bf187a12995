/**
 * The stored-outputs oracle across presentation changes between library versions: the same
 * values printed differently must match, changed values must not. Fixtures are small, written
 * here (the wrapped and HTML reprs were printed by pandas 2.2 / numpy 2.2 of the fixed
 * environment, the one-line ones in the layout old pandas used).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellNumbers, numberLines } from '../../../src/agent/oracle/numbers.js';
import { parseFrameRepr, parseHtmlTables, unwrapFrameReprs } from '../../../src/agent/oracle/tables.js';
import { pairTables } from '../../../src/agent/oracle/align.js';
import { judge, outOfOrderCells, storedOutputsOracle, type CellReport } from '../../../src/agent/oracle/index.js';
import { boundNames, readNames } from '../../../src/agent/oracle/order.js';
import type { CodeCell, Notebook } from '../../../src/core/notebook.js';
import { makeNotebook } from '../context/fixtures.js';

const stream = (text: string, name = 'stdout') => ({ output_type: 'stream', name, text });
const result = (plain: string, extra: Record<string, unknown> = {}) => ({ output_type: 'execute_result', execution_count: 3, data: { 'text/plain': plain, ...extra }, metadata: {} });
const nums = (text: string) => numberLines(text).lines.map((l) => l.numbers);

function pair(origOutputs: any[][], newOutputs: any[][]): [Notebook, Notebook] {
  return [
    makeNotebook(origOutputs.map((outputs) => ({ code: 'x', outputs }))),
    makeNotebook(newOutputs.map((outputs) => ({ code: 'x', outputs }))),
  ];
}
const cellsOf = (v: { details: Record<string, unknown> }) => v.details.cells as CellReport[];

// ---------------------------------------------------------------- DataFrame text/plain

/** Old pandas in a notebook: one line per row (Sex_female from get_dummies as uint8). */
const WIDE = [
  '   PassengerId  Survived  Pclass                    Name     Sex   Age     Fare Embarked  Sex_female',
  '0            1         0       3        Braund, Mr. Owen    male  22.0   7.2500        S           0',
  '1            2         1       1      Cumings, Mrs. John  female  38.0  71.2833        C           1',
  '2            3         1       3  Heikkinen, Miss. Laina  female   NaN   7.9250        S           1',
].join('\n');

/** pandas 2.2 in ipykernel: wrapped at 80 columns into blocks (bools from get_dummies). */
const WRAPPED = '   PassengerId  Survived  Pclass                    Name     Sex   Age  \\\n0            1         0       3        Braund, Mr. Owen    male  22.0   \n1            2         1       1      Cumings, Mrs. John  female  38.0   \n2            3         1       3  Heikkinen, Miss. Laina  female   NaN   \n\n      Fare Embarked  Sex_female  \n0   7.2500        S       False  \n1  71.2833        C        True  \n2   7.9250        S        True  ';

test('unwrapFrameReprs joins the column blocks of a wrapped DataFrame repr row by row', () => {
  const lines = unwrapFrameReprs(WRAPPED.split('\n'));
  assert.equal(lines.length, 4);
  assert.match(lines[0]!, /^\s+PassengerId\s+Survived\s+Pclass\s+Name\s+Sex\s+Age\s+Fare\s+Embarked\s+Sex_female$/);
  assert.match(lines[1]!, /^0\s+1\s+0\s+3\s+Braund, Mr\. Owen\s+male\s+22\.0\s+7\.2500\s+S\s+False$/);
  // Three blocks, a footer, text around: only the frame is touched.
  const three = ['before', '   a  b  \\', '0  1  2   ', '', '   c  \\', '0  3   ', '', '   d', '0  4', '', '[1 rows x 4 columns]', 'after 5'];
  assert.deepEqual(unwrapFrameReprs(three).map((l) => l.replace(/\s+/g, ' ').trim()), ['before', 'a b c d', '0 1 2 3 4', '', '[1 rows x 4 columns]', 'after 5']);
  // A line ending in a backslash that is no frame stays as it is.
  assert.deepEqual(unwrapFrameReprs(['path C:\\', 'x 1']), ['path C:\\', 'x 1']);
});

test('text/plain DataFrame: the one-line repr and the wrapped repr give the same numbers; bools read as 1/0', () => {
  assert.deepEqual(nums(WIDE), nums(WRAPPED));
  assert.deepEqual(nums(WRAPPED), [[1, 0, 3, 22, 7.25, 0], [2, 1, 1, 38, 71.2833, 1], [3, 1, 3, 7.925, 1]]);
  const [o, n] = pair([[result(WIDE)]], [[result(WRAPPED)]]);
  assert.equal(storedOutputsOracle(o, n).matches, true);
  // A changed value is still caught: Age 22.0 -> 35.0.
  const [o2, n2] = pair([[result(WIDE)]], [[result(WRAPPED.replace('male  22.0', 'male  35.0'))]]);
  const v = storedOutputsOracle(o2, n2);
  assert.equal(v.matches, false);
  assert.match(String(v.details.reason), /cell 0: 1 of \d+ numbers differ \(e\.g\. 22 -> 35\)/);
});

test('text/plain DataFrame with a MultiIndex: index levels (sparse rows, names line) are not values', () => {
  const multi = [
    '                Age           Fare         ',
    '               mean   max     mean      max',
    'Sex    Pclass                              ',
    'female 1       38.0  38.0  71.2833  71.2833',
    '       3        NaN   NaN   7.9250   7.9250',
    'male   3       22.0  22.0   7.2500   7.2500',
  ].join('\n');
  assert.deepEqual(nums(multi), [[38, 38, 71.2833, 71.2833], [7.925, 7.925], [22, 22, 7.25, 7.25]]);
  const grouped = '        Survived\nPclass          \n1       0.629630\n2       0.472826';
  assert.deepEqual(nums(grouped), [[0.62963], [0.472826]]);
});

// ---------------------------------------------------------------- HTML tables

const STYLE = '<div>\n<style scoped>\n    .dataframe tbody tr th:only-of-type {\n        vertical-align: middle;\n    }\n</style>\n';
function htmlFrame(columns: string[], rows: Array<[string, ...string[]]>, footer = ''): string {
  const head = `<thead>\n    <tr style="text-align: right;">\n      <th></th>\n${columns.map((c) => `      <th>${c}</th>\n`).join('')}    </tr>\n  </thead>`;
  const body = rows.map(([label, ...cells]) => `    <tr>\n      <th>${label}</th>\n${cells.map((c) => `      <td>${c}</td>\n`).join('')}    </tr>\n`).join('');
  return `${STYLE}<table border="1" class="dataframe">\n  ${head}\n  <tbody>\n${body}  </tbody>\n</table>\n${footer}</div>`;
}
const COLS = ['PassengerId', 'Survived', 'Name', 'Age', 'Fare', 'Sex_female'];
const ROWS: Array<[string, ...string[]]> = [
  ['0', '1', '0', 'Braund, Mr. Owen', '22.0', '7.2500', '0'],
  ['1', '2', '1', 'Cumings, Mrs. John &amp; co', '38.0', '71.2833', '1'],
  ['2', '3', '1', 'Heikkinen, Miss. Laina', 'NaN', '7.9250', '1'],
];

test('parseHtmlTables: header, index, cells, entities; multi-level headers and row spans; truncation; shape note', () => {
  const [t] = parseHtmlTables(htmlFrame(COLS, ROWS, '<p>891 rows × 6 columns</p>\n'));
  assert.deepEqual(t!.columns, COLS);
  assert.deepEqual(t!.rows.map((r) => r.label), ['0', '1', '2']);
  assert.deepEqual(t!.rows[1]!.cells, ['2', '1', 'Cumings, Mrs. John & co', '38.0', '71.2833', '1']);
  assert.deepEqual(t!.shape, { rows: 891, columns: 6 });

  // pandas 2.2's groupby/agg table: two header levels (colspan), a row of index names, rowspan.
  const multi = '<table border="1" class="dataframe">\n  <thead>\n    <tr>\n      <th></th>\n      <th></th>\n      <th colspan="2" halign="left">Age</th>\n      <th colspan="2" halign="left">Fare</th>\n    </tr>\n    <tr>\n      <th></th>\n      <th></th>\n      <th>mean</th>\n      <th>max</th>\n      <th>mean</th>\n      <th>max</th>\n    </tr>\n    <tr>\n      <th>Sex</th>\n      <th>Pclass</th>\n      <th></th>\n      <th></th>\n      <th></th>\n      <th></th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <th rowspan="2" valign="top">female</th>\n      <th>1</th>\n      <td>38.0</td>\n      <td>38.0</td>\n      <td>71.2833</td>\n      <td>71.2833</td>\n    </tr>\n    <tr>\n      <th>3</th>\n      <td>NaN</td>\n      <td>NaN</td>\n      <td>7.9250</td>\n      <td>7.9250</td>\n    </tr>\n    <tr>\n      <th>male</th>\n      <th>3</th>\n      <td>22.0</td>\n      <td>22.0</td>\n      <td>7.2500</td>\n      <td>7.2500</td>\n    </tr>\n  </tbody>\n</table>';
  const [m] = parseHtmlTables(multi);
  assert.deepEqual(m!.columns, ['Age / mean', 'Age / max', 'Fare / mean', 'Fare / max']);
  assert.deepEqual(m!.rows.map((r) => r.label), ['female / 1', 'female / 3', 'male / 3']);
  assert.deepEqual(m!.rows[2]!.cells, ['22.0', '22.0', '7.2500', '7.2500']);

  // Truncated rows and columns ("...") are dropped; labels that are numbers compare as numbers.
  const trunc = htmlFrame(['A', '...', 'Z'], [['0.0', '1', '...', '2'], ['...', '...', '...', '...'], ['9', '3', '...', '4']]);
  const [tr] = parseHtmlTables(trunc);
  assert.deepEqual(tr!.columns, ['A', 'Z']);
  assert.deepEqual(tr!.rows.map((r) => [r.label, ...r.cells]), [['0', '1', '2'], ['9', '3', '4']]);
  // Not a DataFrame table (no class="dataframe"): ignored.
  assert.deepEqual(parseHtmlTables('<table><tr><td>1</td></tr></table>'), []);
});

test('HTML tables are compared by (row, column) label: order, layout, bools and formatting do not matter', () => {
  const plainOld = WIDE;
  const cols2 = ['Sex_female', 'PassengerId', 'Survived', 'Name', 'Age', 'Fare'];
  const reordered: Array<[string, ...string[]]> = [
    ['2', 'True', '3', '1', 'Heikkinen, Miss. Laina', 'NaN', '7.925'],
    ['0', 'False', '1', '0', 'Braund, Mr. Owen', '22', '7.25'],
    ['1', 'True', '2', '1', 'Cumings, Mrs. John &amp; co', '38.000000', '71.2833'],
  ];
  const [o, n] = pair([[result(plainOld, { 'text/html': htmlFrame(COLS, ROWS) })]], [[result(WRAPPED, { 'text/html': htmlFrame(cols2, reordered) })]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  const c = cellsOf(v)[0]!;
  assert.equal(c.verdict, 'match');
  assert.equal(c.compared, 14); // 3 rows x 5 numeric columns, one NaN
  assert.deepEqual(c.tables, { compared: 1, rowsMissing: [], columnsMissing: [], columnsRenamed: [], rowsReplaced: [], rowsGone: [], columnsGone: [] });

  // A changed cell fails, with its row and column.
  const changed = reordered.map((r) => (r[0] === '0' ? (r.map((x) => (x === '22' ? '35.0' : x)) as typeof r) : r));
  const [o2, n2] = pair([[result(plainOld, { 'text/html': htmlFrame(COLS, ROWS) })]], [[result(WRAPPED, { 'text/html': htmlFrame(cols2, changed) })]]);
  const bad = storedOutputsOracle(o2, n2);
  assert.equal(bad.matches, false);
  const drift = bad.comparisons.filter((x) => !x.ok);
  assert.deepEqual(drift.map((x) => [x.row, x.column, x.original, x.new]), [['0', 'Age', 22, 35]]);
  assert.match(drift[0]!.context!, /^0 \| Age: 22\.0$/);

  // Rows or columns a truncated new table does not show are reported, not failed (pandas 2
  // truncates wide frames at 20 columns, long ones at 10 rows).
  const trunc = htmlFrame(['PassengerId', 'Survived', 'Name', 'Age', '...'], [...ROWS.slice(0, 2).map((r) => [...r.slice(0, 5), '...'] as unknown as [string, ...string[]]), ['...', '...', '...', '...', '...', '...']]);
  const [o3, n3] = pair([[result(plainOld, { 'text/html': htmlFrame(COLS, ROWS) })]], [[result('x', { 'text/html': trunc })]]);
  const part = storedOutputsOracle(o3, n3);
  assert.equal(part.matches, true);
  const pc = cellsOf(part)[0]!;
  assert.equal(pc.verdict, 'partial');
  assert.deepEqual(pc.tables!.rowsMissing, ['2']);
  assert.deepEqual(pc.tables!.columnsMissing, ['Fare', 'Sex_female']);
  assert.deepEqual([pc.tables!.rowsGone, pc.tables!.columnsGone], [[], []]);
  // A complete new table that lacks them: they are gone (a category value_counts no longer finds, a dropped column).
  const fewer = htmlFrame(['PassengerId', 'Survived', 'Name', 'Age'], ROWS.slice(0, 2).map((r) => r.slice(0, 5) as [string, ...string[]]));
  const [o5, n5] = pair([[result(plainOld, { 'text/html': htmlFrame(COLS, ROWS) })]], [[result('x', { 'text/html': fewer })]]);
  const gone = storedOutputsOracle(o5, n5);
  assert.equal(gone.matches, false);
  assert.deepEqual([cellsOf(gone)[0]!.tables!.rowsGone, cellsOf(gone)[0]!.tables!.columnsGone], [['2'], ['Fare', 'Sex_female']]);
  assert.match(String(gone.details.reason), /cell 0: 8 of 14 numbers differ \(row 2, column Fare, column Sex_female gone\)/);
});

test('tables: a row under another label with the same values is a tie in another order; a replaced row is compared', () => {
  const missing = (rows: Array<[string, string, string]>) => htmlFrame(['Total', 'Percent'], rows);
  // isnull().sum().sort_values().head(3): ties at 0 sort differently across versions.
  const [o, n] = pair(
    [[result('x', { 'text/html': missing([['PoolQC', '2909', '0.99'], ['Id', '0', '0.0'], ['Street', '0', '0.0']]) })]],
    [[result('x', { 'text/html': missing([['PoolQC', '2909', '0.99'], ['LotArea', '0', '0.0'], ['Id', '0', '0.0']]) })]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.equal(cellsOf(v)[0]!.verdict, 'match');
  assert.deepEqual(cellsOf(v)[0]!.tables!.rowsReplaced, [['Street', 'LotArea']]);
  // A top-N list where another row came in (pandas 2 reads "None" as NaN): the row it pushed out is compared with it.
  const [o2, n2] = pair(
    [[result('x', { 'text/html': missing([['PoolQC', '2909', '0.99'], ['GarageQual', '159', '0.05']]) })]],
    [[result('x', { 'text/html': missing([['PoolQC', '2909', '0.99'], ['MasVnrType', '1766', '0.61']]) })]],
  );
  const bad = storedOutputsOracle(o2, n2);
  assert.equal(bad.matches, false);
  assert.deepEqual(bad.comparisons.filter((x) => !x.ok).map((x) => [x.row, x.original, x.new, x.context]), [
    ['GarageQual', 159, 1766, 'GarageQual (now MasVnrType) | Total: 159'],
    ['GarageQual', 0.05, 0.61, 'GarageQual (now MasVnrType) | Percent: 0.05'],
  ]);
});

test('tables: sort_values().head(n) cut inside a tie picks other rows; that is reported, not judged', () => {
  const crosstab = (rows: Array<[string, string, string]>) => htmlFrame(['0', '1'], rows);
  const [o, n] = pair(
    [[result('x', { 'text/html': crosstab([['Carter', '2', '4'], ['Kelly', '1', '3'], ['Quick', '0', '2'], ['Beckwith', '0', '2']]) })]],
    [[result('x', { 'text/html': crosstab([['Carter', '2', '4'], ['Kelly', '1', '3'], ['Hays', '0', '2'], ['Hart', '2', '2']]) })]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  const c = cellsOf(v)[0]!;
  assert.equal(c.verdict, 'partial');
  assert.deepEqual(c.tables!.rowsReplaced, [['Quick', 'Hays'], ['Beckwith', 'Hart']]);
  assert.deepEqual([c.tables!.rowsMissing, c.tables!.rowsGone], [['Beckwith'], []]);
  // The same cut with another value in the sorted column is a change.
  const [o2, n2] = pair(
    [[result('x', { 'text/html': crosstab([['Carter', '2', '4'], ['Kelly', '1', '3'], ['Beckwith', '0', '2']]) })]],
    [[result('x', { 'text/html': crosstab([['Carter', '2', '4'], ['Kelly', '1', '3'], ['Hart', '2', '1']]) })]],
  );
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('tables: a head() of rows all tied on the sorted column (every group at 1.0) picks other rows; not judged', () => {
  // groupby(...).mean().sort_values(ascending=False).head(): many groups share the top value and
  // which of them head() shows depends on the sort algorithm, which changed between pandas versions.
  const frame = (rows: Array<[string, string, string]>) => htmlFrame(['Ticket', 'Survived'], rows);
  const plain = (rows: Array<[string, string, string]>) => ['     Ticket  Survived', ...rows.map((r) => `${r[0].padEnd(4)} ${r[1].padStart(7)}       ${r[2]}`)].join('\n');
  const A: Array<[string, string, string]> = [['0', '110152', '1.0'], ['180', '26360', '1.0'], ['483', '386525', '1.0'], ['479', '382651', '1.0'], ['151', '244373', '1.0']];
  const B: Array<[string, string, string]> = [['7', '111361', '1.0'], ['14', '112053', '1.0'], ['278', '330923', '1.0'], ['279', '330931', '1.0'], ['280', '330932', '1.0']];
  const [o, n] = pair([[result(plain(A), { 'text/html': frame(A) })]], [[result(plain(B), { 'text/html': frame(B) })]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.equal(cellsOf(v)[0]!.tables!.rowsReplaced.length, 5);
  // Rows that replaced others with another value in that column are a change.
  const C = B.map((r, k) => (k === 4 ? [r[0], r[1], '0.5'] : r) as [string, string, string]);
  const [o2, n2] = pair([[result(plain(A), { 'text/html': frame(A) })]], [[result(plain(C), { 'text/html': frame(C) })]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
  // Fewer than three rows say nothing about a sort: judged.
  const [o3, n3] = pair([[result(plain(A.slice(0, 2)), { 'text/html': frame(A.slice(0, 2)) })]], [[result(plain(B.slice(0, 2)), { 'text/html': frame(B.slice(0, 2)) })]]);
  assert.equal(storedOutputsOracle(o3, n3).matches, false);
});

test('HTML tables: renamed columns pair by position; a table on one side only falls back to text/plain', () => {
  // pandas 2 names value_counts().to_frame() "count" where pandas 1 named it after the column.
  const [o, n] = pair(
    [[result('        Sex\nmale    577\nfemale  314', { 'text/html': htmlFrame(['Sex'], [['male', '577'], ['female', '314']]) })]],
    [[result('        count\nSex          \nmale      577\nfemale    314', { 'text/html': htmlFrame(['count'], [['female', '314'], ['male', '577']]) })]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(cellsOf(v)[0]!.tables!.columnsRenamed, [['Sex', 'count']]);
  // Original with HTML, new run printed the frame (no HTML): the printed frame is read as a table.
  const [o2, n2] = pair([[result(WIDE, { 'text/html': htmlFrame(COLS, ROWS) })]], [[stream(WRAPPED + '\n')]]);
  const t = storedOutputsOracle(o2, n2);
  assert.equal(t.matches, true, String(t.details.reason));
  assert.equal(cellsOf(t)[0]!.tables!.compared, 1);
  // A table the other run does not show as one: text/plain, line by line.
  const [o4, n4] = pair([[result('a 1\nb 2', { 'text/html': htmlFrame(['v'], [['a', '1'], ['b', '2']]) })]], [[stream('a 1\nb 2\n')]]);
  const f = storedOutputsOracle(o4, n4);
  assert.equal(f.matches, true);
  assert.equal(cellsOf(f)[0]!.tables, undefined);
  assert.equal(cellsOf(f)[0]!.compared, 2);
  // pairTables: each original table with the new one sharing most labels.
  const a = parseHtmlTables(htmlFrame(['x'], [['r1', '1']]))[0]!;
  const b = parseHtmlTables(htmlFrame(['y', 'z'], [['q', '1']]))[0]!;
  assert.deepEqual(pairTables([a], [b, a]), [[0, 1]]);
});

test('an HTML-only table (no text/plain) still counts as stored numbers', () => {
  const cell = { cell_type: 'code', source: '', metadata: {}, execution_count: 1, outputs: [{ output_type: 'display_data', data: { 'text/html': htmlFrame(['a'], [['0', '1.5']]) }, metadata: {} }] } as unknown as CodeCell;
  const n = cellNumbers(cell);
  assert.equal(n.tables.length, 1);
  assert.equal(n.htmlOnly, 1);
  const [o, cur] = pair([cell.outputs as any[]], [[{ output_type: 'display_data', data: { 'text/html': htmlFrame(['a'], [['0', '1.6']]) }, metadata: {} }]]);
  assert.equal(storedOutputsOracle(o, cur).matches, true);
  const [o2, cur2] = pair([cell.outputs as any[]], [[{ output_type: 'display_data', data: { 'text/html': htmlFrame(['a'], [['0', '3.0']]) }, metadata: {} }]]);
  assert.equal(storedOutputsOracle(o2, cur2).matches, false);
});

// ---------------------------------------------------------------- other formatting drift

test('numpy arrays: legacy spacing and different line wrapping give the same numbers', () => {
  const old = 'array([ 0.1       ,  0.25      ,  0.00001   ,  3.        ,  0.1       ,\n        0.25      ,  0.00001   ,  3.        ])';
  const now = 'array([1.0e-01, 2.5e-01, 1.0e-05, 3.0e+00, 1.0e-01, 2.5e-01, 1.0e-05,\n       3.0e+00])';
  assert.deepEqual(nums(old), nums(now));
  assert.deepEqual(nums(now), [[0.1, 0.25, 0.00001, 3, 0.1, 0.25, 0.00001, 3]]);
  const old3d = '[[[  0.    0.5   1.    1.5]\n  [  2.    2.5   3.    3.5]]\n\n [[  6.    6.5   7.    7.5]\n  [ 10.   10.5  11.   11.5]]]';
  const new3d = '[[[ 0.   0.5  1.   1.5]\n  [ 2.   2.5  3.   3.5]]\n\n [[ 6.   6.5  7.   7.5]\n  [10.  10.5 11.  11.5]]]';
  assert.deepEqual(nums(old3d), nums(new3d));
  assert.equal(nums(new3d).length, 1);
  // A truncated long array: numpy 1.13 printed "...," where numpy 2 prints "...".
  assert.deepEqual(nums('[ 0.1  0.2  0.3 ...,  0.7  0.8  0.9]'), nums('[0.1 0.2 0.3 ... 0.7 0.8 0.9]'));
  const [o, n] = pair([[result(old)]], [[result(now.replace('2.5e-01, 1.0e-05,\n', '9.5e-01, 1.0e-05,\n'))]]);
  assert.equal(storedOutputsOracle(o, n).matches, false);
});

test('float formatting, scientific notation, thousand separators, Series footers', () => {
  assert.deepEqual(nums('0.80000000000000004'), [[0.8]]);
  assert.deepEqual(nums('score: 1.5e-03'), nums('score: 0.0015'));
  assert.deepEqual(nums('rows: 1,234,567 total 12,345.5'), [[1234567, 12345.5]]);
  assert.deepEqual(nums('(891, 12)\n[1, 2, 3]\n1,2,3'), [[891, 12], [1, 2, 3], [1, 2, 3]]);
  const [o, n] = pair(
    [[stream('score 0.8\n')], [result('Age     29.699118\nFare    32.204208\ndtype: float64')], [stream('total 1,234,567\n')]],
    [[stream('score 0.80000000000000004\n')], [result('Age     29.699118\nFare    32.204208\nName: mean, dtype: float64')], [stream('total 1234567\n')]],
  );
  assert.equal(storedOutputsOracle(o, n).matches, true);
});

test('warnings, progress bars, timings, addresses and estimator reprs are not results; the score next to them is', () => {
  const old = [
    'RandomForestClassifier(bootstrap=True, class_weight=None, criterion=\'gini\',',
    '            max_depth=None, max_features=\'auto\', max_leaf_nodes=None,',
    '            min_samples_leaf=1, min_samples_split=2, n_estimators=10, n_jobs=1)',
    'Accuracy: 0.78',
    'Wall time: 2.3 s',
  ].join('\n');
  const now = [
    '/usr/lib/python3/dist-packages/sklearn/base.py:1152: FutureWarning: something changed in 1.4',
    'RandomForestClassifier(n_estimators=10)',
    ' 45%|████▌     | 45/100 [00:01<00:02, 30.1it/s]',
    'took 3.2s',
    '<Figure size 640x480 with 1 Axes> at 0x7f3a2c',
    'Accuracy: 0.78',
    'Wall time: 9.1 s',
  ].join('\n');
  assert.deepEqual(nums(old), [[0.78]]);
  assert.deepEqual(nums(now), [[0.78]]);
  const [o, n] = pair([[stream(old)], [result('[Text(0.5, 1.0, \'Age\')]')]], [[stream(now), stream('DeprecationWarning: 3 things\n', 'stderr')], [result('[Text(0.5, 1.0, \'Age\')]')]]);
  assert.equal(storedOutputsOracle(o, n).matches, true);
  // Genuine drift is still drift: accuracy 0.78 -> 0.61.
  const [o2, n2] = pair([[stream(old)]], [[stream(now.replace('Accuracy: 0.78', 'Accuracy: 0.61'))]]);
  const v = storedOutputsOracle(o2, n2);
  assert.equal(v.matches, false);
  assert.match(String(v.details.reason), /0\.78 -> 0\.61/);
  assert.equal(judge({ original: o2, current: n2 }).matches, false);
});

test("what plt.xticks() returns at the end of a cell is the axis' layout, not a result, in either matplotlib's repr", () => {
  const old = '(array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n        17, 18, 19]), <a list of 20 Text xticklabel objects>)';
  const now = "([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [Text(0, 0, 'Id'), Text(1, 0, 'MSSubClass'), Text(2, 0, 'LotArea')])";
  assert.deepEqual(nums(old), []);
  assert.deepEqual(nums(now), []);
  const [o, n] = pair([[result(old)]], [[result(now)]]);
  assert.equal(storedOutputsOracle(o, n).matches, true);
  // A histogram's counts are results: plt.hist's return value is still judged.
  assert.deepEqual(nums('(array([3., 5.]), array([0. , 0.5, 1. ]), <a list of 2 Patch objects>)'), [[3, 5, 0, 0.5, 1]]);
});

// ---------------------------------------------------------------- execution order

test('boundNames / readNames: assignments, mutations, loops, imports, defs; not function bodies, strings or comments', () => {
  const src = [
    'import numpy as np, pandas',
    'from sklearn.ensemble import RandomForestClassifier as RF',
    "train['Age'] = train['Age'].fillna(0)  # fill = 1",
    'a, (b, c) = 1, (2, 3)',
    'n += 1',
    'test.drop("Cabin", axis=1, inplace=True)',
    'clf = RF(n_estimators=10,',
    '         max_depth=3).fit(X, y)',
    'model.fit(X, y)',
    'cols.append("x")',
    'for i, row in df.iterrows():',
    '    total = row.x',
    'def helper(z):',
    '    inner = z * 2',
    '    return inner',
    's = "k = 5"',
    'print(x == 3)',
  ].join('\n');
  const imported = new Set<string>();
  assert.deepEqual([...boundNames(src, imported)].sort(), ['a', 'b', 'c', 'clf', 'cols', 'helper', 'i', 'model', 'n', 'row', 's', 'test', 'total', 'train'].sort());
  assert.deepEqual([...imported].sort(), ['RF', 'np', 'pandas']);
  assert.deepEqual([...readNames('df.head(5)  # train\nprint(x.shape, "y")')].sort(), ['df', 'print', 'x']);
});

test('cells the original ran out of order are compared and reported, but fail the notebook only with outOfOrder "judge"', () => {
  const [o, n] = pair([[stream('rows 891\n')], [stream('nulls 0\n')], [stream('b 2\n')], [stream('c 3\n')]], [[stream('rows 891\n')], [stream('nulls 177\n')], [stream('b 2\n')], [stream('c 3\n')]]);
  const src = ["train = pd.read_csv('train.csv'); print('rows', len(train))", "print('nulls', train.Age.isnull().sum())", "train['Age'] = train.Age.fillna(28)\nprint('b', 2)", "other = 3\nprint('c', other)"];
  src.forEach((s, i) => { o.cells[i]!.source = s; });
  const counts = [1, 9, 5, 2]; // cell 1 re-run after cell 2 had filled the nulls; cell 3 ran early but touches nothing cell 1 reads
  counts.forEach((c, i) => { (o.cells[i] as CodeCell).execution_count = c; });
  assert.deepEqual([...outOfOrderCells(o).entries()], [[1, { count: 9, laterCell: 2, laterCount: 5, names: ['train'] }]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true);
  assert.deepEqual(v.details.cellsOutOfOrder, [1]);
  assert.deepEqual(v.details.cellsFailing, []);
  const c1 = cellsOf(v).find((c) => c.cell === 1)!;
  assert.equal(c1.verdict, 'mismatch');
  assert.equal(c1.outOfOrder, true);
  assert.match(c1.note!, /after cell 2 \(execution count 9 > 5\), which sets train/);
  assert.match(String(v.details.reason), /cell 1: 1 of 1 numbers differ \(e\.g\. 0 -> 177\) \(not judged: the original ran it out of order\)/);
  assert.equal(v.comparisons.find((x) => x.cell === 1)!.outOfOrder, true);
  const strict = storedOutputsOracle(o, n, { outOfOrder: 'judge' });
  assert.equal(strict.matches, false);
  assert.deepEqual(strict.details.cellsFailing, [1]);
  // Ran early, but the later cell binds nothing this one reads: judged as usual.
  (o.cells[2] as CodeCell).execution_count = 10;
  assert.deepEqual([...outOfOrderCells(o).keys()], []);
  assert.equal(storedOutputsOracle(o, n).matches, false);
});

test('Series reprs compare by index label: order, the index-name line and the name in the footer do not matter', () => {
  const old = 'male      577\nfemale    314\nName: Sex, dtype: int64';
  const now = 'Sex\nfemale    314\nmale      577\nName: count, dtype: int64';
  const [o, n] = pair([[result(old)]], [[result(now)]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(v.comparisons.map((c) => [c.row, c.original, c.new]), [['male', 577, 577], ['female', 314, 314]]);
  const [o2, n2] = pair([[result(old)]], [[result(now.replace('314', '200'))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
  // A truncated Series (pandas 2 ".." row, old pandas "..."), with its Length.
  const long = (dots: string) => `0      0.5\n1      1.5\n${dots}\n889    2.5\n890    3.5\nName: p, Length: 891, dtype: float64`;
  const [o3, n3] = pair([[result(long('...    ...'))]], [[result(long('       ..'))]]);
  const t = storedOutputsOracle(o3, n3);
  assert.equal(t.matches, true, String(t.details.reason));
  assert.equal((t.details.cells as CellReport[])[0]!.compared, 6); // 4 values, rows and columns of the shape
});

test('native library logs with source references and outputs left under an emptied cell are not judged', () => {
  assert.deepEqual(nums('[00:39:26] WARNING: /workspace/src/objective/regression_obj.cu:152: reg:linear is now deprecated.\nrmse 0.12'), [[0.12]]);
  const [o, n] = pair([[stream('rmse 0.12\n')], [result('[0 rows x 308 columns]')]], [[stream('rmse 0.12\n')], []]);
  o.cells[1]!.source = '';
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  const stale = cellsOf(v).find((c) => c.cell === 1)!;
  assert.equal(stale.verdict, 'not-compared');
  assert.match(stale.note!, /no source/);
  // Commented out line by line after the run: the same.
  const [o2, n2] = pair([[stream('rmse 0.12\n')], [stream('Score = 0.94084\nScore = 0.69192\n')]], [[stream('rmse 0.12\n')], []]);
  o2.cells[1]!.source = '# for d in [5, 10]:\n#     print("Score = {0:.5f}".format(score(d)))\n\n# done';
  const v2 = storedOutputsOracle(o2, n2);
  assert.equal(v2.matches, true, String(v2.details.reason));
  assert.match(cellsOf(v2).find((c) => c.cell === 1)!.note!, /only comments/);
  // Code still there: judged.
  o2.cells[1]!.source = 'for d in [5, 10]:\n    print("Score = {0:.5f}".format(score(d)))';
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('printed DataFrames (no HTML) are tables too: truncated differently, they compare by label', () => {
  const t = parseFrameRepr(unwrapFrameReprs(WRAPPED.split('\n')));
  assert.deepEqual(t!.columns, ['PassengerId', 'Survived', 'Pclass', 'Name', 'Sex', 'Age', 'Fare', 'Embarked', 'Sex_female']);
  assert.deepEqual(t!.rows[0], { label: '0', cells: ['1', '0', '3', 'Braund, Mr. Owen', 'male', '22.0', '7.2500', 'S', 'False'] });
  assert.equal(parseFrameRepr(['   a    b', '0  1234567']), undefined, 'values not under their labels');
  // Old pandas printed 6 of 8 rows (head and tail), pandas 2 prints 4; ids and values agree.
  const rows = (ids: number[]) => ids.map((i) => `${String(i).padEnd(4)}  ${String(1000 + i).padStart(4)}  ${(i * 1.5).toFixed(1).padStart(5)}`).join('\n');
  const old = `        Id    Val\n${rows([0, 1, 2])}\n...    ...    ...\n${rows([5, 6, 7])}\n\n[8 rows x 2 columns]`;
  const now = `        Id    Val\n${rows([0, 1])}\n...    ...    ...\n${rows([6, 7])}\n\n[8 rows x 2 columns]`;
  const [o, n] = pair([[stream('65 83\n' + old + '\n')]], [[stream('65 83\n' + now + '\n')]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  const c = cellsOf(v)[0]!;
  assert.equal(c.verdict, 'partial');
  assert.deepEqual(c.tables!.rowsMissing, ['2', '5']);
  const [o2, n2] = pair([[stream(old)]], [[stream(now.replace('1007', '1999'))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('describe(): columns pandas 2 leaves out (bool dummies) are reported, not judged', () => {
  const stats = ['count', 'mean', 'std'];
  const old = htmlFrame(['Age', 'Sex_female'], stats.map((l, i) => [l, ['714', '29.7', '14.5'][i]!, ['891', '0.35', '0.48'][i]!]));
  const now = htmlFrame(['Age'], stats.map((l, i) => [l, ['714', '29.7', '14.5'][i]!]));
  const [o, n] = pair([[result('x', { 'text/html': old })]], [[result('x', { 'text/html': now })]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(cellsOf(v)[0]!.tables!.columnsMissing, ['Sex_female']);
  assert.deepEqual(cellsOf(v)[0]!.tables!.columnsGone, []);
});

test('dict reprs compare by key: IPython sorted keys, now keeps insertion order; numpy 2 scalar reprs', () => {
  const old = "{'Capt': 70.0,\n 'Col': 54.0,\n 'Master': 5.99031862745098,\n 'the Countess': 33.0}";
  const now = "{'the Countess': np.float64(33.0),\n 'Master': np.float64(5.99031862745098),\n 'Capt': np.float64(70.0),\n 'Col': np.float64(54.0)}";
  const [o, n] = pair([[result(old)], [result("{'a': 1, 'b': [1, 2]}")]], [[result(now)], [result("{'b': [1, 2], 'a': 1}")]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(v.comparisons.filter((c) => c.cell === 0).map((c) => [c.row, c.original, c.new]), [['Capt', 70, 70], ['Col', 54, 54], ['Master', 5.99031862745098, 5.99031862745098], ['the Countess', 33, 33]]);
  const [o2, n2] = pair([[result(old)]], [[result(now.replace('np.float64(70.0)', 'np.float64(38.0)'))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('numpy 2 scalar reprs in lists and tuples read as numpy 1 printed them (same template, same numbers)', () => {
  const then = numberLines("[1, 2, 3] (0.5, 'a', True)\n").lines;
  const now = numberLines("[np.int64(1), np.int64(2), np.int64(3)] (np.float64(0.5), np.str_('a'), np.True_)\n").lines;
  assert.deepEqual(now.map((l) => [l.template, l.numbers]), then.map((l) => [l.template, l.numbers]));
});

test('numpy 2 summarized arrays carry shape=(...): not a result', () => {
  assert.deepEqual(nums('array([[1, 2],\n       ...,\n       [5, 6]], dtype=object)'), nums('array([[1, 2],\n       ...,\n       [5, 6]],\n      shape=(891, 2), dtype=object)'));
});

test('table cells that are text with digits (tickets, cabins) are not numbers', () => {
  const [o, n] = pair(
    [[result('x', { 'text/html': htmlFrame(['Ticket', 'Fare'], [['top', 'CA. 2343', '(7.9, 14.5]'], ['freq', '7', '12%']]) })]],
    [[result('x', { 'text/html': htmlFrame(['Ticket', 'Fare'], [['top', '1601', '(7.9, 14.5]'], ['freq', '7', '12%']]) })]],
  );
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.deepEqual(v.comparisons.map((c) => [c.row, c.column, c.original]), [['top', 'Fare', 7.9], ['top', 'Fare', 14.5], ['freq', 'Ticket', 7], ['freq', 'Fare', 12]]);
});

test('wall-clock stamps with a weekday (statsmodels summary Date:, ctime, RFC 2822) are not results', () => {
  const then = 'Date:                Thu, 16 May 2019   Prob (F-statistic):          0.00\nTime:                        10:20:30   Log-Likelihood:            -1234.5\nrun at Thu May 16 10:20:30 2019';
  const now = 'Date:                Tue, 24 Nov 2026   Prob (F-statistic):          0.00\nTime:                        17:26:19   Log-Likelihood:            -1234.5\nrun at Tue Nov 24 17:26:19 2026';
  assert.deepEqual(nums(then), [[0.0], [-1234.5], []].filter((x) => x.length));
  assert.deepEqual(nums(then), nums(now));
  // A date without a weekday is data (a bike-sharing timestamp) and is still compared where it is not ISO.
  assert.deepEqual(nums('16 May 2019'), [[16, 2019]]);
  const [o, n] = pair([[stream(then)]], [[stream(now.replace('-1234.5', '-2345.6'))]]);
  assert.equal(storedOutputsOracle(o, n).matches, false);
});

// ---------------------------------------------------------------- ties: the label is arbitrary, the quantity is not

const describeText = (top: string, freq: number) => [
  '       Ticket   Sex',
  'count     891   891',
  'unique    681     2',
  `top    ${top.padStart(6)}  male`,
  `freq   ${String(freq).padStart(6)}   577`,
].join('\n');

test("describe()'s top among values of equal frequency is a tie: judged by freq, listed as unjudged", () => {
  const [o, n] = pair([[result(describeText('1601', 7))]], [[result(describeText('347082', 7))]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true);
  const tie = v.comparisons.filter((c) => c.unjudged === 'tie');
  assert.equal(tie.length, 1);
  assert.equal(tie[0]!.original, 1601);
  assert.equal(tie[0]!.new, 347082);
  // The frequency is the quantity: when it changes, the top is judged too and the cell fails.
  const [o2, n2] = pair([[result(describeText('1601', 7))]], [[result(describeText('347082', 9))]]);
  const v2 = storedOutputsOracle(o2, n2);
  assert.equal(v2.matches, false);
  assert.equal(v2.comparisons.filter((c) => c.unjudged).length, 0);
});

test('describe().T (top and freq as columns): the same tie rule, row by row', () => {
  const t = (top: string, freq: number) => `       count unique    top  freq\nTicket   891    681 ${top.padStart(6)} ${String(freq).padStart(5)}\nCabin    204    147    G6     4`;
  const [o, n] = pair([[result(t('1601', 7))]], [[result(t('347082', 7))]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true);
  assert.deepEqual(v.comparisons.filter((c) => c.unjudged === 'tie').map((c) => [c.original, c.new]), [[1601, 347082]]);
});

test("a search's best parameters are a label among tied scores when the cell's scores agree", () => {
  const src = 'clf.fit(X, y)\nprint(clf.best_params_)\nprint(clf.best_score_)';
  const mk = (params: string, score: string) => makeNotebook([{ code: src, outputs: [stream(`${params}\n${score}\n`)] }]);
  const o = mk("{'clf__max_depth': 7, 'clf__n_estimators': 30}", '0.837078651685');
  const same = storedOutputsOracle(o, mk("{'clf__max_depth': 7, 'clf__n_estimators': 40}", '0.837078651685'));
  assert.equal(same.matches, true);
  assert.deepEqual(same.comparisons.filter((c) => c.unjudged === 'tie').map((c) => [c.original, c.new]), [[30, 40]]);
  // Scores that drift fail the cell, parameters included.
  const worse = storedOutputsOracle(o, mk("{'clf__max_depth': 7, 'clf__n_estimators': 40}", '0.61'));
  assert.equal(worse.matches, false);
  assert.equal(worse.comparisons.filter((c) => c.unjudged).length, 0);
  // Without best_params_ in the source, a printed dict is judged like any other line.
  const plain = (x: string) => makeNotebook([{ code: 'print(d)\nprint(s)', outputs: [stream(`{'a': ${x}}\n0.5\n`)] }]);
  assert.equal(storedOutputsOracle(plain('30'), plain('40')).matches, false);
  // Printed last, the dict is read as a table keyed by its keys: the same rule holds for its rows.
  const last = (params: string, score: string) => makeNotebook([{ code: 'gs.fit(X, y)\nprint(gs.best_score_)\nprint(gs.best_params_)', outputs: [stream(`${score}\n${params}\n`)] }]);
  const o2 = last("{'min_samples_leaf': 3, 'min_samples_split': 2}", '0.8316498316498316');
  const tied = storedOutputsOracle(o2, last("{'min_samples_leaf': 2, 'min_samples_split': 2}", '0.8316498316498316'));
  assert.equal(tied.matches, true);
  assert.deepEqual(tied.comparisons.filter((c) => c.unjudged === 'tie').map((c) => [c.row, c.original, c.new]), [['min_samples_leaf', 3, 2]]);
  assert.equal(storedOutputsOracle(o2, last("{'min_samples_leaf': 2, 'min_samples_split': 2}", '0.61')).matches, false);
});

// ---------------------------------------------------------------- df.info() and truncated Series sharing a block

const INFO_OLD = [
  '/home/me/data',
  "<class 'pandas.core.frame.DataFrame'>",
  'Int64Index: 891 entries, 0 to 890',
  'Data columns (total 3 columns):',
  'PassengerId    891 non-null int64',
  'Age            714 non-null float64',
  'Name           891 non-null object',
  'dtypes: float64(1), int64(1), object(1)',
  'memory usage: 27.8+ KB',
  'rows 891',
].join('\n');

/** pandas 1.0+ (here 2.2): a table with a "#" column, "Non-Null Count", a RangeIndex. */
const INFO_NEW = [
  '/home/me/data',
  "<class 'pandas.core.frame.DataFrame'>",
  'RangeIndex: 891 entries, 0 to 890',
  'Data columns (total 3 columns):',
  ' #   Column       Non-Null Count  Dtype  ',
  '---  ------       --------------  -----  ',
  ' 0   PassengerId  891 non-null    int64  ',
  ' 1   Age          714 non-null    float64',
  ' 2   Name         891 non-null    object ',
  'dtypes: float64(1), int64(1), object(1)',
  'memory usage: 21.0+ KB',
  'rows 891',
].join('\n');

test("df.info() after other output in the same block: the report is not compared, what follows it is", () => {
  assert.deepEqual(nums(INFO_OLD), [[891]]);
  assert.deepEqual(nums(INFO_NEW), [[891]]);
  const [o, n] = pair([[stream(INFO_OLD)]], [[stream(INFO_NEW)]]);
  assert.equal(storedOutputsOracle(o, n).matches, true);
  const [o2, n2] = pair([[stream(INFO_OLD)]], [[stream(INFO_NEW.replace('rows 891', 'rows 500'))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

/** A Series longer than display.max_rows: pandas < 0.25 showed max_rows/2 rows each side, 0.25+ shows min_rows/2 = 5. */
const seriesRepr = (each: number, ages: (i: number) => string) => {
  const idx = [...Array(each).keys(), ...[...Array(each).keys()].map((k) => 100 - each + k)];
  const rows = idx.map((i) => `${String(i).padEnd(5)} ${ages(i)}`);
  return [...rows.slice(0, each), '      ...', ...rows.slice(each), 'Name: Age, Length: 100, dtype: float64', '[[22. ]', ' [38. ]]'].join('\n');
};

test('a truncated Series printed just before an array: compared by row label, whatever rows each pandas showed', () => {
  const age = (i: number) => (20 + i / 4).toFixed(6);
  const [o, n] = pair([[stream(seriesRepr(8, age))]], [[stream(seriesRepr(5, age))]]);
  assert.equal(storedOutputsOracle(o, n).matches, true);
  const [o2, n2] = pair([[stream(seriesRepr(8, age))]], [[stream(seriesRepr(5, (i) => (i === 97 ? '99.000000' : age(i))))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('an earlier cell that last ran after this one and changed in place what it reads: out of order; one that only loads afresh: not', () => {
  const [o, n] = pair([[], [stream('MSSubClass 60\n')], [stream('MSSubClass 60\n')]], [[], [stream('MSSubClass 5\n')], [stream('MSSubClass 5\n')]]);
  const src = ["for c in cols:\n    all_data[c] = lbl.fit_transform(all_data[c].values)", "print('MSSubClass', all_data.MSSubClass[0])", "print('MSSubClass', all_data.MSSubClass[0])"];
  src.forEach((s, i) => { o.cells[i]!.source = s; });
  [136, 135, 137].forEach((c, i) => { (o.cells[i] as CodeCell).execution_count = c; });
  assert.deepEqual([...outOfOrderCells(o).entries()], [[1, { count: 135, laterCell: 0, laterCount: 136, names: ['all_data'], earlierRanAfter: true }]]);
  const v = storedOutputsOracle(o, n);
  assert.match(cellsOf(v).find((c) => c.cell === 1)!.note!, /before cell 0 above it \(execution count 135 < 136\), which changes all_data/);
  // Cell 2 ran after the encoding and still shows 60: a real difference, judged.
  assert.deepEqual(v.details.cellsFailing, [2]);
  // Re-run long after (a cleaning step run again at the end): it most often ran in the first pass too.
  (o.cells[0] as CodeCell).execution_count = 200;
  assert.deepEqual([...outOfOrderCells(o).keys()], []);
  (o.cells[0] as CodeCell).execution_count = 136;
  // A cell above that binds afresh (the data loaded again, late) leaves the state as it was.
  o.cells[0]!.source = "all_data = pd.read_csv('train.csv')";
  assert.deepEqual([...outOfOrderCells(o).keys()], []);
});

// ---------------------------------------------------------------- search logs

test("a search's verbose log is not a result: the grid's size and the per-fit lines (both formats) are dropped, the best score kept", () => {
  const old = 'Fitting 10 folds for each of 50 candidates, totalling 500 fits\n[CV] kernel=rbf, C=1 ...........\n[CV] .......... kernel=rbf, C=1, score=0.623677, total=   8.7s\n0.8170594837261503\n';
  const now = 'Fitting 10 folds for each of 1 candidates, totalling 10 fits\n[CV 1/10] END ..........C=1, kernel=rbf;, score=0.624 total time=   8.7s\n0.8170594837261503\n';
  assert.deepEqual(nums(old), [[0.8170594837261503]]);
  assert.deepEqual(nums(now), [[0.8170594837261503]]);
  const [a, b] = pair([[stream(old)]], [[stream(now)]]);
  assert.equal(storedOutputsOracle(a, b).matches, true);
  // A changed best score still fails.
  const [c, d] = pair([[stream(old)]], [[stream(now.replace('0.8170594837261503', '0.5'))]]);
  assert.equal(storedOutputsOracle(c, d).matches, false);
});

// ---------------------------------------------------------------- classification_report

test("classification_report rows of scikit-learn < 0.21 align with today's: micro avg (= accuracy) and avg / total", () => {
  const v019 = '             precision    recall  f1-score   support\n\n          0       0.80      0.90      0.85        50\n          1       0.88      0.78      0.82        50\n\navg / total       0.84      0.84      0.84       100\n';
  const v020 = '             precision    recall  f1-score   support\n\n          0       0.80      0.90      0.85        50\n          1       0.88      0.78      0.82        50\n\n   micro avg       0.84      0.84      0.84       100\n   macro avg       0.84      0.84      0.84       100\nweighted avg       0.84      0.84      0.84       100\n';
  const now = '              precision    recall  f1-score   support\n\n           0       0.80      0.90      0.85        50\n           1       0.88      0.78      0.82        50\n\n    accuracy                           0.84       100\n   macro avg       0.84      0.84      0.84       100\nweighted avg       0.84      0.84      0.84       100\n';
  for (const old of [v019, v020]) {
    const [a, b] = pair([[stream(old)]], [[stream(now)]]);
    const v = storedOutputsOracle(a, b);
    assert.equal(v.matches, true, JSON.stringify(v.details));
    assert.equal(cellsOf(v)[0]!.unpaired, 0);
  }
  // A changed accuracy still fails; a multilabel micro avg (values differ) is left as it is.
  const [c, d] = pair([[stream(v020)]], [[stream(now.replace('0.84       100\n   macro', '0.74       100\n   macro'))]]);
  assert.equal(storedOutputsOracle(c, d).matches, false);
  assert.deepEqual(nums('   micro avg       0.84      0.80      0.82       100'), [[0.84, 0.8, 0.82, 100]]);
});

test('parseHtmlTables: an index written as <td> under an empty header cell is still the index', () => {
  const head = '<table border="1" class="dataframe"><thead><tr><th></th><th>PassengerId</th><th>Fare</th></tr></thead>';
  const asTd = parseHtmlTables(`${head}<tbody><tr><td>0</td><td>1</td><td>7.25</td></tr><tr><td>1</td><td>2</td><td>71.28</td></tr></tbody></table>`)[0]!;
  const asTh = parseHtmlTables(`${head}<tbody><tr><th>0</th><td>1</td><td>7.25</td></tr><tr><th>1</th><td>2</td><td>71.28</td></tr></tbody></table>`)[0]!;
  assert.deepEqual(asTd.columns, ['PassengerId', 'Fare']);
  assert.deepEqual(asTd, asTh);
  // A table whose first header names a column has no index to find.
  const plain = parseHtmlTables('<table class="dataframe"><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>')[0]!;
  assert.deepEqual(plain.columns, ['a', 'b']);
});

test('parseHtmlTables: a named index written as <td> (a header row of index names: Pclass over an empty data part) is the index too', () => {
  const head = '<table border="1" class="dataframe"><thead><tr><th></th><th>Survived</th></tr><tr><th>Pclass</th><th></th></tr></thead>';
  const asTd = parseHtmlTables(`${head}<tbody><tr><td>1</td><td>216</td></tr><tr><td>3</td><td>491</td></tr></tbody></table>`)[0]!;
  const asTh = parseHtmlTables(`${head}<tbody><tr><th>1</th><td>216</td></tr><tr><th>3</th><td>491</td></tr></tbody></table>`)[0]!;
  assert.deepEqual(asTd, asTh);
  assert.deepEqual(asTd.rows.map((r) => r.label), ['1', '3']);
});

// ---------------------------------------------------------------- SciPy result objects

test("SciPy's result objects read as the tuples they were: pearsonr's tuple, the t-test's namedtuple without the later df", () => {
  const [orig, cur] = pair(
    [[result('(0.39869637842773475, 0.0)')], [result('Ttest_indResult(statistic=-2.666118139114496, pvalue=0.01574294373697286)')]],
    [[result('PearsonRResult(statistic=np.float64(0.3986963784277348), pvalue=np.float64(0.0))')],
      [result('TtestResult(statistic=np.float64(-2.666118139114496), pvalue=np.float64(0.01574294373697286), df=np.float64(18.0))')]],
  );
  const v = storedOutputsOracle(orig, cur);
  assert.equal(v.matches, true, JSON.stringify(v.comparisons.filter((c) => !c.ok)));
  assert.equal(v.comparisons.length, 4);
  // A changed statistic still fails.
  const [o2, c2] = pair([[result('(0.39869637842773475, 0.0)')]], [[result('PearsonRResult(statistic=np.float64(0.21), pvalue=np.float64(0.0))')]]);
  assert.equal(storedOutputsOracle(o2, c2).matches, false);
  // An estimator's configuration repr is still not a result.
  assert.deepEqual(nums('LogisticRegression(C=1.0, max_iter=100)'), []);
});

test("a search's cv_results_ timing columns (mean_fit_time, std_score_time, ...) are seconds, not results: listed as unjudged; the scores beside them are judged", () => {
  const frame = (fit: string, score: string) =>
    `   mean_fit_time  std_fit_time  mean_score_time  std_score_time param_alpha  mean_test_score\n0       ${fit}      0.005708         0.006193        0.000749        0.01        ${score}\n1       0.014185      0.001164         0.005206        0.000407         0.1        -0.987748`;
  const [o, n] = pair([[result(frame('0.016595', '-0.987747'))]], [[result(frame('0.005932', '-0.987747').replace('0.005708', '0.000123'))]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true);
  const timing = v.comparisons.filter((c) => c.unjudged === 'nondeterministic');
  assert.equal(timing.length, 8);
  assert.ok(timing.every((c) => /_time$/.test(c.column ?? '')));
  // A score that drifts still fails the cell.
  const [o2, n2] = pair([[result(frame('0.016595', '-0.987747'))]], [[result(frame('0.016595', '-0.5'))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test('numbers inside a URL (a Colab OAuth link, a download link) are ids, not results', () => {
  assert.deepEqual(nums('Go to this URL in a browser: https://accounts.google.com/o/oauth2/auth?client_id=947318989803-6bn6qk8qdgf4n4g3pfee6491hc0brc4i.apps.googleusercontent.com&redirect_uri=urn%3aietf\n\nEnter your authorization code:\n'), []);
  assert.deepEqual(nums('saved to http://localhost:8888/files/out.csv, 891 rows'), [[891]]);
});

test('value_counts printed as lines: labels of equal count in another order are a tie (unjudged); a changed count is judged', () => {
  const counts = (rows: Array<[number, number]>) => rows.map(([l, c]) => ` ${String(l).padEnd(6)} ${c}`).join('\n') + '\nName: FamilyId, dtype: int64\n';
  const author = counts([[-1, 800], [14, 8], [149, 7], [63, 6], [50, 6], [59, 6], [17, 5]]);
  const now = counts([[-1, 800], [14, 8], [149, 7], [50, 6], [59, 6], [63, 6], [17, 5]]);
  const [o, n] = pair([[stream(author)]], [[stream(now)]]);
  const v = storedOutputsOracle(o, n);
  assert.equal(v.matches, true, String(v.details.reason));
  assert.ok(v.comparisons.some((c) => c.unjudged === 'tie'));
  // The same labels with another count: not a tie.
  const [o2, n2] = pair([[stream(author)]], [[stream(counts([[-1, 800], [14, 8], [149, 7], [50, 6], [59, 6], [63, 5], [17, 5]]))]]);
  assert.equal(storedOutputsOracle(o2, n2).matches, false);
});

test("a line naming where a file was saved (Colab's upload widget: Saving train.csv to train (5).csv) carries no result", () => {
  assert.deepEqual(nums('Saving train.csv to train (5).csv\naccuracy 0.8\n'), [[0.8]]);
});

test("a listing of the author's directories (ls -l, dir, du) is not a result; names and other totals still are", () => {
  const ls = 'total 396K\ndrwxr-xr-x 2 root root 4.0K Oct 30 21:15 .\n-rw-r--r-- 1 root root 2.8K Oct 30 21:15 Test_predictions_svm_rbf_8192_0.015625.csv\nlrwxrwxrwx. 1 me staff 12 Jan  2  2018 data\n';
  assert.deepEqual(nums(ls), []);
  const dir = ' Volume in drive C has no label.\n Volume Serial Number is 1A2B-3C4D\n\n Directory of C:\\Users\\me\\kaggle\n\n05/14/2018  10:02 PM    <DIR>          .\n05/14/2018  10:02 PM            61,194 train.csv\n               1 File(s)         61,194 bytes\n               2 Dir(s)  100,000,000 bytes free\n';
  assert.deepEqual(nums(dir), []);
  assert.deepEqual(nums('4.0K\t./input\n61K\t./input/train.csv\n'), []);
  // A total that is not a listing's, and a plain ls (names only), stay.
  assert.deepEqual(nums('total 12\naccuracy 0.81\n'), [[12], [0.81]]);
  assert.deepEqual(nums('gender_submission.csv\ntest.csv\ntrain.csv\n'), []);
});

test("a search's best parameters in a cell of their own are a tied label when the cell showing its best score matches", () => {
  const nb = (params: string, score: string) => makeNotebook([
    { code: 'xgb_cv.best_params_', outputs: [result(params)] },
    { code: 'xgb_cv.best_score_', outputs: [result(score)] },
  ]);
  const o = nb("{'colsample_bytree': 0.9,\n 'learning_rate': 0.1,\n 'max_depth': 5}", '0.8361245370660976');
  const tied = storedOutputsOracle(o, nb("{'colsample_bytree': 0.7,\n 'learning_rate': 0.1,\n 'max_depth': 5}", '0.8361245370660976'));
  assert.equal(tied.matches, true);
  assert.deepEqual(tied.comparisons.filter((c) => c.unjudged === 'tie').map((c) => [c.original, c.new]), [[0.9, 0.7]]);
  // The score drifts: the parameters are judged, and fail.
  assert.equal(storedOutputsOracle(o, nb("{'colsample_bytree': 0.7,\n 'learning_rate': 0.1,\n 'max_depth': 5}", '0.61')).matches, false);
  // Another search's score says nothing about this one.
  const other = (params: string) => makeNotebook([{ code: 'xgb_cv.best_params_', outputs: [result(params)] }, { code: 'rf_cv.best_score_', outputs: [result('0.83')] }]);
  assert.equal(storedOutputsOracle(other("{'max_depth': 5}"), other("{'max_depth': 7}")).matches, false);
});

test("a cell a repair left out (commented under the not-run mark) has its stored outputs unjudged; commented without the mark it is still judged", () => {
  const o = makeNotebook([{ code: 'train.head()', outputs: [stream('rows 3\n')] }, { code: 'print(2)', outputs: [stream('2\n')] }]);
  const left = makeNotebook([{ code: '# nbmodernize: not run: it ran in an earlier kernel session\n# train.head()', outputs: [] }, { code: 'print(2)', outputs: [stream('2\n')] }]);
  const v = storedOutputsOracle(o, left);
  assert.equal(v.matches, true);
  assert.deepEqual(v.comparisons.filter((c) => c.unjudged === 'skipped').map((c) => c.original), [3]);
  const quiet = makeNotebook([{ code: '# train.head()', outputs: [] }, { code: 'print(2)', outputs: [stream('2\n')] }]);
  assert.equal(storedOutputsOracle(o, quiet).matches, false);
});

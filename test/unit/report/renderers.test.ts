/** report.md, report.html (offline, escaped), JUnit XML and the check drift table. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { writeReport } from '../../../src/agent/report/write.js';
import { jsonForScript } from '../../../src/agent/report/html.js';
import { renderJunit, xmlText } from '../../../src/agent/report/junit.js';
import { driftRows, renderDriftTable } from '../../../src/agent/report/drift-table.js';
import { auditDir, fixAuditRecords, record } from './fixtures.js';
import { all, parseXml } from './xml.js';

it('writes summary.json, report.md and report.html into the audit directory', () => {
  const dir = auditDir(fixAuditRecords());
  const { files, summary } = writeReport(dir);
  assert.deepEqual(JSON.parse(fs.readFileSync(files.summary, 'utf8')).totals, summary.totals);
  const md = fs.readFileSync(files.markdown, 'utf8');
  assert.match(md, /\*\*Reproducible: 1 of 5 \(20%\) as-is → 2 of 5 \(40%\) after modernization\.\*\*/);
  assert.match(md, /\| AttributeError \| removed API \| 1 \|/);
  assert.match(md, /\| \[titanic\/fixed\.ipynb\]\(notebooks\/titanic_fixed_ipynb\/\) \| not-reproduced \| reproduced \|/);
  assert.ok(!/\| [^|]*\n[^|]/.test(md.split('## Notebooks')[1]!.split('\n').slice(3, -3).join('\n').replace(/\n\|/g, '|')), 'one table row per notebook');
});

it('report.html is self-contained: no external resources, data safely embedded, assets inlined', () => {
  const dir = auditDir(fixAuditRecords());
  const html = fs.readFileSync(writeReport(dir).files.html, 'utf8');
  assert.ok(!/\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), 'no remote src/href');
  assert.ok(!/@import|url\(\s*["']?https?:/i.test(html), 'no remote CSS');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.ok(!html.includes('/*{{JS}}*/') && !html.includes('{{DATA}}') && !html.includes('/*{{CSS}}*/'), 'placeholders filled');
  // The notebook named "<script>alert(1)</script>.ipynb" must not close the data island.
  const island = html.split('<script id="audit-data" type="application/json">')[1]!.split('</script>')[0]!;
  assert.ok(!island.includes('<'));
  const data = JSON.parse(island);
  assert.ok(data.summary.notebooks.some((n: { id: string }) => n.id.includes('<script>')));
  const fixed = data.details['titanic/fixed.ipynb'];
  assert.equal(fixed.diffKind, 'changes');
  assert.match(fixed.diff, /\+row = train\.loc\[0\]/);
  assert.equal(fixed.trajectory[0].state, undefined, 'runtime state is not embedded');
  assert.equal(fixed.trajectory[0].cells.length, 3);
  assert.equal(data.details['houses/drift.ipynb'].comparisons[0].original, 0.1234);
});

it('jsonForScript escapes what could end a script element', () => {
  const s = jsonForScript({ a: '</script><!-- & \u2028' });
  assert.ok(!/[<>&\u2028]/.test(s));
  assert.deepEqual(JSON.parse(s), { a: '</script><!-- & \u2028' });
});

it('JUnit XML is well-formed, with testsuite/testcase/failure/error counts that add up', () => {
  const recs = [
    record('ok.ipynb', { mode: 'baseline', verdict: 'reproduced', status: 'ok', reason: 'clean run', wallMs: 1500 }),
    record('drift.ipynb', { mode: 'baseline', verdict: 'not-reproduced', status: 'ok', reason: 'results drifted beyond tolerance (cell 2: 0.8 -> 0.6)\nsecond line', taxonomy: { exceptionClass: 'Drift', cause: 'score-drift' }, wallMs: 2000 }),
    record('bad.ipynb', { mode: 'baseline', verdict: 'failed', status: 'malformed-notebook', reason: 'not valid JSON: <"&\'> \u0001', wallMs: 1 }),
  ];
  const xml = renderJunit(recs.map((r) => ({ record: r, name: r.id, details: `${r.reason}\n  cell  original  new\n  2     0.8 & <x>  0.6\n` })), { environment: 'debian13' }, '2026-01-01T00:00:00Z');
  const root = parseXml(xml);
  assert.equal(root.name, 'testsuites');
  const [suite] = all(root, 'testsuite');
  assert.equal(suite!.attrs.tests, '3');
  assert.equal(suite!.attrs.failures, '1');
  assert.equal(suite!.attrs.errors, '1');
  const cases = all(root, 'testcase');
  assert.deepEqual(cases.map((c) => c.attrs.name), ['ok.ipynb', 'drift.ipynb', 'bad.ipynb']);
  assert.equal(all(root, 'failure').length, 1);
  assert.equal(all(root, 'error').length, 1);
  const failure = all(cases[1]!, 'failure')[0]!;
  assert.equal(failure.attrs.message, 'results drifted beyond tolerance (cell 2: 0.8 -> 0.6)');
  assert.equal(failure.attrs.type, 'score-drift');
  assert.match(failure.text, /0\.8 & <x>/);
  assert.equal(all(cases[2]!, 'error')[0]!.attrs.message, 'not valid JSON: <"&\'> ');
  assert.equal(Number(suite!.attrs.time), 3.501);
  assert.equal(xmlText('a\u001bb'), 'ab');
});

it('the drift table shows the failing cell and drifted numbers before it, not the cells that never ran', () => {
  const r = record('x.ipynb', {
    mode: 'baseline', verdict: 'not-reproduced', status: 'error', reason: 'error', error: { cell: 5, ename: 'KeyError', evalue: "'Age'" },
    comparisons: [
      { cell: 2, original: 0.8123, new: 0.7712, relDiff: 0.0506, ok: false },
      { cell: 3, original: 12, new: 12, relDiff: 0, ok: true },
      { cell: 7, original: 1, new: null, relDiff: null, ok: false },
    ],
  });
  const nb = { nbformat: 4 as const, nbformat_minor: 4, metadata: {}, cells: Array.from({ length: 8 }, (_, i) => ({ cell_type: 'code' as const, source: '', metadata: {}, execution_count: null, outputs: i === 5 ? [{ output_type: 'stream' as const, name: 'stdout' as const, text: 'mean age 29.7\n' }] : [] })) };
  const rows = driftRows(r, nb);
  assert.deepEqual(rows.map((x) => [x.cell, x.original, x.new]), [['5', 'mean age 29.7', "KeyError: 'Age'"], ['2', '0.8123', '0.7712']]);
  const table = renderDriftTable(rows);
  assert.match(table, /^ {4}cell +original +new/);
  assert.match(table, /2 +0\.8123 +0\.7712 +5\.1% off/);
});

/** summary.json: counts before/after, outcomes, taxonomy, fixes, time, schema, determinism. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { buildSummary } from '../../../src/agent/report/summary.js';
import { renderMarkdown } from '../../../src/agent/report/markdown.js';
import { NOT_RUN_INPUT, NOT_RUN_MODULE } from '../../../src/agent/verdict.js';
import { AuditSummary, summaryJsonSchema } from '../../../src/agent/report/summary-schema.js';
import { readStore } from '../../../src/agent/audit/store.js';
import { auditDir, fixAuditRecords, record } from './fixtures.js';

it('counts verdicts before and after, outcomes, causes, fixes and cost', () => {
  const dir = auditDir(fixAuditRecords());
  const s = buildSummary(readStore(dir));
  assert.equal(s.schemaVersion, '1.0.0');
  assert.deepEqual(s.totals, { notebooks: 5, reproduced: 2, 'not-reproduced': 2, failed: 1 });
  assert.deepEqual(s.before, { notebooks: 5, reproduced: 1, 'not-reproduced': 3, failed: 1 });
  assert.deepEqual(s.outcomes, { 'not reproduced': 2, 'could not evaluate': 1, fixed: 1, 'reproduced as-is': 1 });
  assert.deepEqual(s.taxonomy.causes, { 'malformed-notebook': 1, 'removed-api': 1, 'score-drift': 1, 'unsupported-library': 1 });
  assert.equal(s.taxonomy.basis, 'before');
  assert.deepEqual(s.taxonomy.remaining, { 'malformed-notebook': 1, 'score-drift': 1, 'unsupported-library': 1 });
  assert.deepEqual(s.fixTypes, { 'error-repair': 2, 'score-calibration': 1 });
  assert.deepEqual(s.fixSources, { llm: 2, rule: 1 });
  assert.deepEqual(s.fixesPerNotebook, { '0': 3, '1': 1, '2': 1 });
  assert.equal(s.cost.usd, 0.016);
  assert.equal(s.cost.llmCalls, 3);
  assert.equal(s.audit.sessions, 2);
  assert.equal(s.audit.mode, 'fix');
  assert.equal(s.audit.complete, true);
  assert.equal(s.runtime.find((r) => r.label === '>10m')!.count, 1);
  assert.equal(s.runtime.reduce((a, r) => a + r.count, 0), 5);
  assert.equal(s.time.overheadMs, s.time.notebookMs - s.time.cellMs);
});

it('rows are sorted by id with path and verdict (what scripts rely on) and validate against the schema', () => {
  const s = buildSummary(readStore(auditDir(fixAuditRecords())));
  assert.deepEqual(s.notebooks.map((n) => n.id), [...s.notebooks.map((n) => n.id)].sort());
  for (const n of s.notebooks) {
    assert.equal(typeof n.path, 'string');
    assert.ok(['reproduced', 'not-reproduced', 'failed'].includes(n.verdict));
  }
  const fixed = s.notebooks.find((n) => n.id === 'titanic/fixed.ipynb')!;
  assert.equal(fixed.before, 'not-reproduced');
  assert.equal(fixed.taxonomy, null);
  assert.equal(fixed.beforeTaxonomy?.cause, 'removed-api');
  assert.deepEqual(fixed.fixTypes, ['error-repair']);
  assert.doesNotThrow(() => AuditSummary.parse(JSON.parse(JSON.stringify(s))));
  const schema = summaryJsonSchema() as { required: string[]; properties: Record<string, unknown> };
  assert.ok(schema.required.includes('notebooks') && schema.required.includes('totals'));
});

it('the same records give the same summary, whatever order they finished in', () => {
  const recs = fixAuditRecords();
  const a = buildSummary(readStore(auditDir(recs)));
  const b = buildSummary(readStore(auditDir([...recs].reverse())));
  const strip = (s: typeof a) => ({ ...s, generatedAt: '', audit: { ...s.audit, elapsedMs: 0, startedAt: '' } });
  assert.deepEqual(strip(a), strip(b));
});

it('a baseline audit: before equals after, no remaining-taxonomy split, incomplete when notebooks are missing', () => {
  const recs = [
    record('a.ipynb', { mode: 'baseline', verdict: 'reproduced', status: 'ok', reason: 'ok' }),
    record('b.ipynb', { mode: 'baseline', verdict: 'not-reproduced', status: 'timeout', reason: 'timeout', taxonomy: { exceptionClass: 'Timeout', cause: 'timeout' } }),
  ];
  const s = buildSummary(readStore(auditDir(recs, 'baseline')), { planned: 3 });
  assert.deepEqual(s.before, s.totals);
  assert.deepEqual(s.taxonomy.remaining, {});
  assert.deepEqual(s.taxonomy.matrix, [{ exceptionClass: 'Timeout', cause: 'timeout', count: 1 }]);
  assert.equal(s.audit.complete, false);
  assert.equal(s.audit.planned, 3);
});

it('counts the reproduced notebooks whose verdict names cells set aside for a missing input or module', () => {
  const recs = [
    record('a.ipynb', { verdict: 'reproduced', status: 'ok', reason: `clean run within budget; stored-outputs oracle matches; ${NOT_RUN_INPUT}: cell 17 (test.csv)` }),
    record('b.ipynb', { verdict: 'reproduced', status: 'ok', reason: `clean run within budget; stored-outputs oracle matches; ${NOT_RUN_MODULE}: cell 92 (lightgbm)` }),
    record('c.ipynb', { verdict: 'reproduced', status: 'ok', reason: 'clean run within budget; stored-outputs oracle matches' }),
    record('d.ipynb', { verdict: 'not-reproduced', status: 'ok', reason: `x; ${NOT_RUN_MODULE}: cell 1 (keras)` }),
  ];
  const s = buildSummary(readStore(auditDir(recs)));
  assert.deepEqual(s.setAside, { missingInput: 1, missingModule: 1 });
  assert.equal(s.totals.reproduced, 3);
  assert.match(renderMarkdown(s), /with cells not run because this run lacks what they need \(named in each verdict\): 1 for an input the data does not hold, 1 for a module/);
});

/** Records and a store for report tests: a small --fix audit with every outcome. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emptyRecord } from '../../../src/agent/audit/baseline.js';
import type { AuditRecord } from '../../../src/agent/audit/record.js';
import { ResultStore } from '../../../src/agent/audit/store.js';

type Partial2 = Partial<AuditRecord> & Pick<AuditRecord, 'verdict' | 'status' | 'reason'>;

export function record(id: string, fields: Partial2): AuditRecord {
  return emptyRecord({ id, path: `/corpus/${id}`, artifactDir: `notebooks/${id.replace(/\W+/g, '_')}` }, fields.mode ?? 'fix', fields);
}

export function fixAuditRecords(): AuditRecord[] {
  const removed = { exceptionClass: 'AttributeError', cause: 'removed-api' as const, subject: 'ix' };
  return [
    record('titanic/clean.ipynb', { verdict: 'reproduced', status: 'ok', reason: 'clean run within budget; stored-outputs oracle matches', oracle: 'stored-outputs', score: { original: 0.8, new: 0.8, label: 'cell 4' }, before: { verdict: 'reproduced', status: 'ok', reason: 'ok', taxonomy: null }, wallMs: 4000, cellMs: 2500 }),
    record('titanic/fixed.ipynb', {
      verdict: 'reproduced', status: 'ok', reason: 'clean run within budget; stored-outputs oracle matches', oracle: 'stored-outputs',
      before: { verdict: 'not-reproduced', status: 'error', reason: "cell 3: AttributeError: 'DataFrame' object has no attribute 'ix'", error: { cell: 3, ename: 'AttributeError', evalue: "'DataFrame' object has no attribute 'ix'" }, taxonomy: removed },
      fixes: [{ type: 'error-repair', source: 'pandas-ix', sourceKind: 'rule', cell: 3 }, { type: 'error-repair', source: 'gpt-4.1-mini', sourceKind: 'llm', cell: 5 }],
      llm: { calls: 2, inputTokens: 3000, outputTokens: 400, costUsd: 0.012 }, wallMs: 45_000, cellMs: 30_000, stopReason: 'reproduced',
    }),
    record('houses/<script>alert(1)</script>.ipynb', {
      verdict: 'not-reproduced', status: 'error', reason: "the clean run ended with error: cell 2: ModuleNotFoundError: No module named 'lightgbm'",
      error: { cell: 2, ename: 'ModuleNotFoundError', evalue: "No module named 'lightgbm'" }, taxonomy: { exceptionClass: 'ModuleNotFoundError', cause: 'unsupported-library', subject: 'lightgbm' },
      before: { verdict: 'not-reproduced', status: 'error', reason: 'x', taxonomy: { exceptionClass: 'ModuleNotFoundError', cause: 'unsupported-library' } }, stopReason: 'unfixable', wallMs: 12_000, cellMs: 3000,
    }),
    record('houses/drift.ipynb', {
      verdict: 'not-reproduced', status: 'ok', reason: 'results drifted beyond tolerance', oracle: 'stored-outputs', taxonomy: { exceptionClass: 'Drift', cause: 'score-drift' },
      comparisons: [{ cell: 7, original: 0.1234, new: 0.2, relDiff: 0.62, ok: false, context: 'RMSE: 0.1234' }],
      before: { verdict: 'not-reproduced', status: 'ok', reason: 'drift', taxonomy: { exceptionClass: 'Drift', cause: 'score-drift' } },
      fixes: [{ type: 'score-calibration', source: 'gpt-4.1-mini', sourceKind: 'llm', cell: 6 }], llm: { calls: 1, inputTokens: 2000, outputTokens: 100, costUsd: 0.004 }, wallMs: 700_000, cellMs: 650_000,
    }),
    record('bad.ipynb', { verdict: 'failed', status: 'malformed-notebook', reason: 'bad.ipynb is not valid JSON', taxonomy: { exceptionClass: 'NotebookError', cause: 'malformed-notebook' }, before: { verdict: 'failed', status: 'malformed-notebook', reason: 'x', taxonomy: { exceptionClass: 'NotebookError', cause: 'malformed-notebook' } }, wallMs: 3 }),
  ];
}

/** An audit directory with artifacts for the records and a store written over two sessions (a resume). */
export function auditDir(records: AuditRecord[], mode: 'baseline' | 'fix' = 'fix'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-report-'));
  for (const r of records) {
    const d = path.join(dir, r.artifacts.dir);
    fs.mkdirSync(d, { recursive: true });
    if (r.fixes.length) {
      fs.writeFileSync(path.join(d, 'changes.diff'), [
        '===================================================================',
        `--- a/cell ${r.fixes[0]!.cell}\t`,
        `+++ b/cell ${r.fixes[0]!.cell}\t`,
        '@@ -1,4 +1,4 @@',
        ' import pandas as pd',
        '-row = train.ix[0]',
        '-print row',
        '+row = train.loc[0]',
        '+print(row)',
        ' x = 1',
        '',
      ].join('\n'));
      r.artifacts.diff = `${r.artifacts.dir}/changes.diff`;
    }
    fs.writeFileSync(path.join(d, 'trajectory.jsonl'), [
      { type: 'execution', mode: 'full', fromCell: 0, status: 'error', cells: [{ index: 0, status: 'ok', durationMs: 120 }, { index: 3, status: 'error', durationMs: 40, error: { ename: 'AttributeError', evalue: "no attribute 'ix'" } }, { index: 5, status: 'not-run', durationMs: null }], state: { huge: 'x'.repeat(1000) } },
      { type: 'patch', fixType: 'error-repair', source: 'pandas-ix', cell: 3, summary: 'DataFrame.ix -> .loc' },
      { type: 'verdict', verdict: r.verdict, reason: r.reason, oracle: r.oracle },
    ].map((e) => JSON.stringify(e)).join('\n') + '\n');
    r.artifacts.trajectory = `${r.artifacts.dir}/trajectory.jsonl`;
  }
  const half = Math.ceil(records.length / 2);
  [records.slice(0, half), records.slice(half)].forEach((part, i) => {
    const s = ResultStore.open(dir, i + 1);
    s.sessionStart({ resume: i > 0, input: '/corpus', mode, jobs: 2, notebooks: records.length, options: { environment: 'debian13' } });
    for (const r of part) {
      s.started(r.id);
      s.finished(r);
    }
    s.close();
  });
  return dir;
}

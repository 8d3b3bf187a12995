/**
 * npm run bench:agent — `modernize --no-llm` over ../shared/corpus (read in place): reproduced /
 * total by oracle, median fixes and cell executions per notebook with incremental re-execution vs
 * full re-runs, wall time per notebook. Ground-truth folders are never mounted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readNotebookFile } from '../src/core/notebook.js';
import { modernizeNotebook } from '../src/agent/modernize.js';
import { cacheDirFromEnv } from '../src/cli/cache-dir.js';
import { corpusNotebooks, median } from './corpus.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'string' },
    'no-full': { type: 'boolean', default: false },
    'next-to-notebook': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '300' },
    shard: { type: 'string', default: '0/1' },
  },
});
const cacheDir = cacheDirFromEnv(process.env);
const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-bench-agent-'));
const rows: any[] = [];
const [shardIndex, shardCount] = values.shard.split('/').map(Number);
for (const [i, c] of corpusNotebooks().entries()) {
  if (i % shardCount !== shardIndex) continue;
  if (values.only && !values.only.split(',').some((s) => c.name.includes(s))) continue;
  let nb;
  try {
    nb = readNotebookFile(c.path).notebook;
  } catch (err) {
    rows.push({ notebook: c.name, verdict: 'failed', reason: String(err) });
    continue;
  }
  const row: any = { notebook: c.name };
  for (const mode of values['no-full'] ? ['incremental'] : ['incremental', 'full']) {
    const t0 = performance.now();
    const report = await modernizeNotebook(nb, {
      sandbox: {
        kind: 'bwrap', environment: 'debian13', cacheDir, memoryMb: 8192,
        data: { dir: c.dataDir, competition: c.competition, exclude: ['ground_truth'] },
        dataNextToNotebook: values['next-to-notebook'],
      },
      outDir: path.join(outRoot, mode, c.name),
      notebookPath: c.path,
      llm: { provider: null, reason: 'bench: rules only' },
      incremental: mode === 'incremental',
      timeoutS: Number(values.timeout),
    });
    const wallMs = performance.now() - t0;
    row[mode] = { verdict: report.verdict, oracle: report.oracle, stopReason: report.stopReason, fixes: report.fixes.length, staticFixes: report.fixes.filter((f) => f.step === 0).length, cellExecutions: report.cellExecutions, wallMs, reason: report.reason.slice(0, 160) };
  }
  rows.push(row);
  const r = row.incremental;
  console.log(`${c.name.padEnd(58)} ${r.verdict.padEnd(15)} ${r.stopReason.padEnd(17)} fixes ${String(r.fixes).padStart(2)}  cells ${String(r.cellExecutions).padStart(3)}${row.full ? ` (full ${String(row.full.cellExecutions).padStart(3)})` : ''}  ${(r.wallMs / 1000).toFixed(1)} s  ${r.verdict === 'reproduced' ? '' : r.reason}`);
}
const done = rows.filter((r) => r.incremental);
const byOracle: Record<string, number> = {};
for (const r of done) if (r.incremental.verdict === 'reproduced') byOracle[r.incremental.oracle] = (byOracle[r.incremental.oracle] ?? 0) + 1;
const stops: Record<string, number> = {};
for (const r of done) stops[r.incremental.stopReason] = (stops[r.incremental.stopReason] ?? 0) + 1;
const summary = {
  notebooks: rows.length,
  reproduced: done.filter((r) => r.incremental.verdict === 'reproduced').length,
  reproducedByOracle: byOracle,
  stopReasons: stops,
  medianFixes: median(done.map((r) => r.incremental.fixes)),
  medianCellExecutionsIncremental: median(done.map((r) => r.incremental.cellExecutions)),
  medianCellExecutionsFull: values['no-full'] ? null : median(done.map((r) => r.full.cellExecutions)),
  totalCellExecutionsIncremental: done.reduce((s, r) => s + r.incremental.cellExecutions, 0),
  totalCellExecutionsFull: values['no-full'] ? null : done.reduce((s, r) => s + r.full.cellExecutions, 0),
  verdictsAgree: values['no-full'] ? null : done.every((r) => r.incremental.verdict === r.full.verdict),
  medianWallS: median(done.map((r) => r.incremental.wallMs / 1000)),
  outputs: outRoot,
  rows,
};
console.log(`\nreproduced ${summary.reproduced}/${summary.notebooks} (by oracle: ${JSON.stringify(byOracle)}); stop reasons ${JSON.stringify(stops)}`);
console.log(`median fixes ${summary.medianFixes}; median cell executions: incremental ${summary.medianCellExecutionsIncremental}${values['no-full'] ? '' : `, full re-runs ${summary.medianCellExecutionsFull} (totals ${summary.totalCellExecutionsIncremental} vs ${summary.totalCellExecutionsFull}; verdicts agree: ${summary.verdictsAgree})`}; median wall ${summary.medianWallS.toFixed(1)} s per notebook`);
if (values.json) fs.writeFileSync(values.json, JSON.stringify(summary, null, 2));
process.exit(0);

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
import { NOT_RUN_INPUT, NOT_RUN_MODULE } from '../src/agent/verdict.js';
import { cacheDirFromEnv } from '../src/cli/cache-dir.js';
import { HELD_OUT_FOLDS, median, selectNotebooks, type CorpusNotebook } from './corpus.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    /** notebook names (exact) to leave out, e.g. the ones an interrupted run already did */
    skip: { type: 'string' },
    json: { type: 'string' },
    'no-full': { type: 'boolean', default: false },
    'next-to-notebook': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '300' },
    /** the agent's wall budget per notebook in seconds (default: the product's, 3600) */
    'max-wall': { type: 'string' },
    shard: { type: 'string', default: '0/1' },
    /** corpus | more | all */
    set: { type: 'string', default: 'corpus' },
    /** fold names (corpus-0, more-1, ...) or `dev` / `held-out` */
    folds: { type: 'string' },
    /** notebooks in flight at once (each in its own sandbox) */
    jobs: { type: 'string', default: '1' },
  },
});
const cacheDir = cacheDirFromEnv(process.env);
// As `audit` does (cores / jobs): notebooks in flight would otherwise each start a BLAS/OpenMP
// thread per core and fight over the cores, and the time budget would measure that fight.
const threads = Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, Number(values.jobs))));
const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-bench-agent-'));
const rows: any[] = [];
const [shardIndex, shardCount] = values.shard.split('/').map(Number);
const list = selectNotebooks(values.set, values.folds).filter((c, i) => i % shardCount === shardIndex
  && (!values.only || values.only.split(',').some((s) => c.name.includes(s)))
  && !(values.skip ?? '').split(',').some((s) => s && c.name === s));

async function benchOne(c: CorpusNotebook): Promise<void> {
  let nb;
  try {
    nb = readNotebookFile(c.path).notebook;
  } catch (err) {
    rows.push({ notebook: c.name, fold: c.fold, verdict: 'failed', reason: String(err) });
    return;
  }
  const row: any = { notebook: c.name, fold: c.fold, repo: c.repo };
  for (const mode of values['no-full'] ? ['incremental'] : ['incremental', 'full']) {
    const t0 = performance.now();
    const report = await modernizeNotebook(nb, {
      sandbox: {
        kind: 'bwrap', environment: 'debian13', cacheDir, memoryMb: 8192, threads,
        data: { dir: c.dataDir, competition: c.competition, exclude: ['ground_truth'] },
        dataNextToNotebook: values['next-to-notebook'],
      },
      outDir: path.join(outRoot, mode, c.name),
      notebookPath: c.path,
      llm: { provider: null, reason: 'bench: rules only' },
      incremental: mode === 'incremental',
      timeoutS: Number(values.timeout),
      ...(values['max-wall'] ? { budgets: { maxWallS: Number(values['max-wall']) } } : {}),
    });
    const wallMs = performance.now() - t0;
    row[mode] = { verdict: report.verdict, oracle: report.oracle, stopReason: report.stopReason, fixes: report.fixes.length, staticFixes: report.fixes.filter((f) => f.step === 0).length, cellExecutions: report.cellExecutions, wallMs, reason: report.reason.slice(0, 240), setAside: report.verdict === 'reproduced' && (report.reason.includes(NOT_RUN_INPUT) || report.reason.includes(NOT_RUN_MODULE)) };
  }
  rows.push(row);
  const r = row.incremental;
  r.finalError = finalErrorClass(r.verdict, r.stopReason, row.incremental?.reason ?? '');
  keepRow(row);
  console.log(`${c.fold.padEnd(9)} ${c.name.slice(0, 56).padEnd(56)} ${r.verdict.padEnd(15)} ${r.stopReason.padEnd(17)} fixes ${String(r.fixes).padStart(2)}  cells ${String(r.cellExecutions).padStart(3)}${row.full ? ` (full ${String(row.full.cellExecutions).padStart(3)})` : ''}  ${(r.wallMs / 1000).toFixed(1)} s  ${r.verdict === 'reproduced' ? '' : r.reason}`);
}

/**
 * Each row as it is done, one JSON line in FILE.rows.jsonl beside --json FILE: a run stopped early
 * (they take hours at the product's budget) still has its rows, and --skip can resume it.
 */
function keepRow(row: unknown): void {
  if (values.json) fs.appendFileSync(`${values.json}.rows.jsonl`, `${JSON.stringify(row)}\n`);
}

/** The exception class that ended a notebook (or the pseudo-class of a non-error end). */
function finalErrorClass(verdict: string, stopReason: string, reason: string): string {
  if (verdict === 'reproduced') return '-';
  const m = /\b([A-Z][A-Za-z]*(?:Error|Exception|Interrupt|Exit))\b/.exec(reason);
  if (m) return m[1];
  if (/drift|differ|mismatch/i.test(reason)) return 'Drift';
  return stopReason;
}

let next = 0;
await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs)) }, async () => {
  while (next < list.length) {
    const c = list[next++];
    try {
      await benchOne(c);
    } catch (err) {
      // A notebook the tool cannot evaluate is a row, not the end of the bench.
      const row = { notebook: c.name, fold: c.fold, repo: c.repo, incremental: { verdict: 'failed', stopReason: 'bench-error', reason: String(err).slice(0, 240), finalError: 'bench-error', fixes: 0, cellExecutions: 0, wallMs: 0 } };
      rows.push(row);
      keepRow(row);
      console.log(`${c.fold.padEnd(9)} ${c.name.slice(0, 56).padEnd(56)} failed: ${String(err).slice(0, 200)}`);
    }
  }
}));
const done = rows.filter((r) => r.incremental);
const perFold: Record<string, { notebooks: number; reproduced: number; setAside: number }> = {};
for (const r of done) {
  const f = (perFold[r.fold] ??= { notebooks: 0, reproduced: 0, setAside: 0 });
  f.notebooks++;
  if (r.incremental.verdict === 'reproduced') f.reproduced++;
  // Reproduced with cells set aside for an input the data lacks or a module the environment lacks (named in the verdict).
  if (r.incremental.setAside) f.setAside++;
}
const finalErrors: Record<string, number> = {};
for (const r of done) if (r.incremental.finalError !== '-') finalErrors[r.incremental.finalError] = (finalErrors[r.incremental.finalError] ?? 0) + 1;
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
  perFold,
  finalErrors,
  outputs: outRoot,
  rows,
};
for (const [f, v] of Object.entries(perFold).sort()) console.log(`fold ${f.padEnd(9)} reproduced ${v.reproduced}/${v.notebooks} (${(100 * v.reproduced / v.notebooks).toFixed(0)}%)${v.setAside ? `, ${v.setAside} with cells set aside` : ''}${HELD_OUT_FOLDS.includes(f) ? '  [held out]' : ''}`);
console.log(`final errors: ${JSON.stringify(Object.fromEntries(Object.entries(finalErrors).sort((a, b) => b[1] - a[1])))}`);
console.log(`\nreproduced ${summary.reproduced}/${summary.notebooks} (by oracle: ${JSON.stringify(byOracle)}); stop reasons ${JSON.stringify(stops)}`);
console.log(`median fixes ${summary.medianFixes}; median cell executions: incremental ${summary.medianCellExecutionsIncremental}${values['no-full'] ? '' : `, full re-runs ${summary.medianCellExecutionsFull} (totals ${summary.totalCellExecutionsIncremental} vs ${summary.totalCellExecutionsFull}; verdicts agree: ${summary.verdictsAgree})`}; median wall ${summary.medianWallS.toFixed(1)} s per notebook`);
if (values.json) fs.writeFileSync(values.json, JSON.stringify(summary, null, 2));
process.exit(0);

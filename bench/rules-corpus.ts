/**
 * `npm run bench:rules`: the deterministic rules on the development corpus (../shared/corpus, read
 * in place). Scans every notebook (timing), applies `fix --rules-only`, then executes each original
 * and each rewritten notebook in the fixed environment with its competition data mounted
 * Kaggle-style, and prints how many run clean before and after, plus the first errors.
 *
 *   node dist/bench/rules-corpus.js [--only SUBSTRING] [--limit N] [--sandbox KIND]
 *        [--data-next-to-notebook] [--timeout S] [--json FILE] [--no-exec]
 *   node dist/bench/rules-corpus.js --scan-only [--passes N] [--dump FILE]   (scan speed, scan-speed.ts)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseNotebook, type Notebook } from '../src/core/notebook.js';
import { fixNotebook, scanNotebook, loadEnvironmentInfo } from '../src/fixers/rules/index.js';
import { listDataFiles } from '../src/fixers/rules/data-files.js';
import { runNotebook } from '../src/executor/run-notebook.js';
import type { SandboxRequest } from '../src/executor/types.js';
import { sharedDir, testCacheDir } from '../test/support/sandbox.js';
import { scanSpeed } from './scan-speed.js';

interface Row {
  notebook: string;
  competition: string;
  scanMs: number;
  findings: number;
  autoFixable: number;
  changedCells: number;
  rules: string[];
  left: string[];
  before?: { status: string; error?: string; cells: number; okCells: number; wallMs: number };
  after?: { status: string; error?: string; cells: number; okCells: number; wallMs: number };
}

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    limit: { type: 'string' },
    sandbox: { type: 'string', default: 'bwrap' },
    'data-next-to-notebook': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '600' },
    json: { type: 'string' },
    'no-exec': { type: 'boolean', default: false },
    'scan-only': { type: 'boolean', default: false },
    passes: { type: 'string', default: '5' },
    dump: { type: 'string' },
  },
});

if (values['scan-only']) {
  await scanSpeed(Number(values.passes), values.dump);
  process.exit(0);
}

const CORPUS = path.join(sharedDir(), 'corpus');
const root = path.join(CORPUS, 'notebooks');
let files: Array<{ file: string; competition: string }> = [];
for (const competition of fs.readdirSync(root).sort()) {
  for (const f of fs.readdirSync(path.join(root, competition)).sort()) {
    if (f.endsWith('.ipynb')) files.push({ file: path.join(root, competition, f), competition });
  }
}
if (values.only) files = files.filter((f) => f.file.includes(values.only!));
if (values.limit) files = files.slice(0, Number(values.limit));

const environment = await loadEnvironmentInfo('debian13');
const rows: Row[] = [];
const timeoutS = Number(values.timeout);

function summarize(result: Awaited<ReturnType<typeof runNotebook>>['result']) {
  const first = result.error ? `${result.error.ename}: ${result.error.evalue.split('\n')[0].slice(0, 120)}` : result.message;
  return {
    status: result.status,
    error: result.status === 'ok' ? undefined : first,
    cells: result.cells.length,
    okCells: result.cells.filter((c) => c.status === 'ok').length,
    wallMs: Math.round(result.wallMs),
  };
}

async function execute(nb: Notebook, competition: string) {
  const sandbox: SandboxRequest = {
    kind: values.sandbox as SandboxRequest['kind'],
    environment: 'debian13',
    cacheDir: testCacheDir(),
    memoryMb: 4096,
    data: { dir: path.join(CORPUS, 'data', competition), competition },
    dataNextToNotebook: values['data-next-to-notebook'],
  };
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-bench-rules-'));
  try {
    const { result } = await runNotebook(nb, { sandbox, timeoutS, cellTimeoutS: timeoutS, allowErrors: false, collectState: false, outDir });
    return summarize(result);
  } catch (e) {
    return { status: 'crashed', error: String(e).slice(0, 200), cells: 0, okCells: 0, wallMs: 0 };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

for (const { file, competition } of files) {
  const name = `${competition}/${path.basename(file)}`;
  let nb: Notebook;
  try {
    nb = parseNotebook(fs.readFileSync(file, 'utf8'), name).notebook;
  } catch (e) {
    console.log(`${name}: unreadable: ${e}`);
    continue;
  }
  const dataFiles = listDataFiles(path.join(CORPUS, 'data', competition));
  const opts = { dataFiles, competition, environment };
  const t0 = performance.now();
  const findings = await scanNotebook(nb, opts);
  const scanMs = performance.now() - t0;
  const fixed = await fixNotebook(nb, opts);
  const row: Row = {
    notebook: name, competition, scanMs, findings: findings.length, autoFixable: findings.filter((f) => f.autoFixable).length,
    changedCells: fixed.changes.length, rules: [...new Set(fixed.changes.flatMap((c) => c.rules))].sort(),
    left: fixed.findings.map((f) => f.ruleId),
  };
  if (!values['no-exec']) {
    row.before = await execute(nb, competition);
    row.after = await execute(fixed.notebook, competition);
  }
  rows.push(row);
  const b = row.before ? ` | before ${row.before.status} ${row.before.okCells}/${row.before.cells}${row.before.error ? ` (${row.before.error})` : ''}` : '';
  const a = row.after ? ` | after ${row.after.status} ${row.after.okCells}/${row.after.cells}${row.after.error ? ` (${row.after.error})` : ''}` : '';
  console.log(`${name}: ${row.findings} findings, ${row.changedCells} cells changed${b}${a}`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};
const count = (pred: (r: Row) => boolean) => rows.filter(pred).length;
const errorClass = (e?: string) => (e ? e.split(':')[0] : 'none');
const tally = (xs: Array<string | undefined>) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(errorClass(x), (m.get(errorClass(x)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
};

console.log('\n== rules on the corpus ==');
console.log(`notebooks: ${rows.length}`);
console.log(`with findings: ${count((r) => r.findings > 0)} (${rows.reduce((s, r) => s + r.findings, 0)} findings, ${rows.reduce((s, r) => s + r.autoFixable, 0)} auto-fixable)`);
console.log(`changed by fix --rules-only: ${count((r) => r.changedCells > 0)} notebooks, ${rows.reduce((s, r) => s + r.changedCells, 0)} cells`);
console.log(`scan time per notebook: median ${median(rows.map((r) => r.scanMs)).toFixed(1)} ms, max ${Math.max(...rows.map((r) => r.scanMs)).toFixed(0)} ms`);
if (!values['no-exec']) {
  const ran = rows.filter((r) => r.before && r.after);
  console.log(`run clean (no error cell), original: ${count((r) => r.before?.status === 'ok')} / ${ran.length}`);
  console.log(`run clean (no error cell), after fix --rules-only: ${count((r) => r.after?.status === 'ok')} / ${ran.length}`);
  console.log(`cells executed before the first error: original ${ran.reduce((s, r) => s + r.before!.okCells, 0)}, fixed ${ran.reduce((s, r) => s + r.after!.okCells, 0)}`);
  console.log(`first errors, original: ${tally(ran.filter((r) => r.before!.status !== 'ok').map((r) => r.before!.error))}`);
  console.log(`first errors, fixed: ${tally(ran.filter((r) => r.after!.status !== 'ok').map((r) => r.after!.error))}`);
}
if (values.json) {
  fs.writeFileSync(values.json, JSON.stringify({ rows }, null, 2));
  console.log(`per-notebook results: ${values.json}`);
}
process.exit(0);

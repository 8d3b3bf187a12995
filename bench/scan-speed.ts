/**
 * `npm run bench:rules -- --scan-only [--passes N] [--dump FILE]`: how fast `scan` is. Scans every
 * notebook of both corpora (../shared/corpus and ../shared/corpus-more, read in place) in one
 * process, N passes (default 5); the first pass is warm-up (WASM compile, JIT), the others are
 * measured. CPU time (process.cpuUsage) is the figure that counts: the machine is shared, so wall
 * time depends on what else runs.
 *
 * `--dump FILE` writes every notebook's findings and the cell sources fixNotebook produces, so that
 * a change meant to be a pure speed-up can be checked to change nothing (compare two dumps).
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseNotebook, type Notebook } from '../src/core/notebook.js';
import { fixNotebook, scanNotebook, loadEnvironmentInfo, type RuleOptions } from '../src/fixers/rules/index.js';
import { listDataFiles } from '../src/fixers/rules/data-files.js';
import { scanFiles, type ScanTask } from '../src/fixers/rules/scan-files.js';
import { selectNotebooks } from './corpus.js';

interface Input { name: string; path: string; nb: Notebook; opts: RuleOptions }

async function loadInputs(): Promise<Input[]> {
  const environment = await loadEnvironmentInfo('debian13');
  const dataFiles = new Map<string, string[]>();
  const out: Input[] = [];
  for (const c of selectNotebooks('all')) {
    if (!dataFiles.has(c.dataDir)) dataFiles.set(c.dataDir, listDataFiles(c.dataDir));
    const nb = parseNotebook(fs.readFileSync(c.path, 'utf8'), c.name).notebook;
    out.push({ name: `${c.set}/${c.competition}/${c.name}`, path: c.path, nb, opts: { dataFiles: dataFiles.get(c.dataDir), competition: c.competition, environment } });
  }
  return out;
}

/** One pass over every notebook: CPU and wall milliseconds, and the number of findings. */
async function pass(inputs: Input[]): Promise<{ cpuMs: number; wallMs: number; findings: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let findings = 0;
  for (const { nb, opts } of inputs) findings += (await scanNotebook(nb, opts)).length;
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, findings };
}

async function dump(inputs: Input[], file: string): Promise<void> {
  const rows = [];
  for (const { name, nb, opts } of inputs) {
    const findings = (await scanNotebook(nb, opts)).map((f) => ({ ruleId: f.ruleId, cell: f.cell, line: f.line, column: f.column, message: f.message, autoFixable: f.autoFixable }));
    const fixed = await fixNotebook(nb, opts);
    const cells = fixed.notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source));
    const remaining = fixed.findings.map((f) => `${f.ruleId}@${f.cell}:${f.line}:${f.column} ${f.message}`);
    rows.push({ name, findings, fixedCells: cells, changes: fixed.changes.map((c) => ({ cell: c.cell, rules: c.rules })), remaining });
  }
  fs.writeFileSync(file, JSON.stringify(rows, null, 1));
  console.log(`findings and fixed cells of ${rows.length} notebooks: ${file}`);
}

/**
 * The way `scan DIR` works on many notebooks: files read from disk and scanned across a pool of
 * threads (scan-files.ts), the pool's start included. Each notebook is listed `copies` times, so
 * that the start weighs on a batch of the size a pool is meant for (scan uses one from 200 up).
 */
async function poolPass(inputs: Input[], jobs: number, copies: number): Promise<{ files: number; cpuMs: number; wallMs: number; findings: number }> {
  const tasks: ScanTask[] = [];
  for (let c = 0; c < copies; c++) for (const i of inputs) tasks.push({ file: i.path, options: { dataFiles: i.opts.dataFiles, competition: i.opts.competition } });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let findings = 0;
  for await (const r of scanFiles(tasks, { environment: inputs[0].opts.environment }, { jobs, cwd: process.cwd(), minFilesForPool: 0 })) {
    if (r.error) throw new Error(`${r.file}: ${r.error}`);
    findings += r.findings?.length ?? 0;
  }
  // process.cpuUsage covers every thread of the process.
  const cpu = process.cpuUsage(cpu0);
  return { files: tasks.length, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0, findings };
}

export async function scanSpeed(passes: number, dumpFile?: string): Promise<void> {
  const inputs = await loadInputs();
  if (dumpFile) await dump(inputs, dumpFile);
  const runs = [];
  for (let i = 0; i < Math.max(2, passes); i++) runs.push(await pass(inputs));
  const measured = runs.slice(1);
  const cpuS = measured.reduce((s, r) => s + r.cpuMs, 0) / 1000;
  const wallS = measured.reduce((s, r) => s + r.wallMs, 0) / 1000;
  const n = inputs.length * measured.length;
  console.log(`notebooks: ${inputs.length}, findings: ${runs[0].findings}`);
  for (const [i, r] of runs.entries()) console.log(`pass ${i + 1}${i ? '' : ' (warm-up)'}: ${(r.cpuMs / 1000).toFixed(2)} s CPU, ${(r.wallMs / 1000).toFixed(2)} s wall`);
  console.log(`scan speed over ${measured.length} passes: ${(n / cpuS).toFixed(1)} notebooks per CPU-second, ${(n / wallS).toFixed(1)} per wall-second`);
  // On a shared machine the fastest pass is the least disturbed one.
  const best = Math.min(...measured.map((r) => r.cpuMs)) / 1000;
  console.log(`fastest pass: ${(inputs.length / best).toFixed(1)} notebooks per CPU-second`);
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  for (const jobs of [...new Set([1, cores])]) {
    const p = await poolPass(inputs, jobs, 4);
    if (p.findings !== runs[0].findings * 4) throw new Error(`the pool found ${p.findings} findings, one thread ${runs[0].findings * 4}`);
    console.log(`scan of ${p.files} files from disk, ${jobs} thread(s), start included: ${(p.files / (p.wallMs / 1000)).toFixed(1)} notebooks per wall-second (${(p.cpuMs / 1000).toFixed(2)} s CPU, ${(p.wallMs / 1000).toFixed(2)} s wall, ${cores} cores)`);
  }
}

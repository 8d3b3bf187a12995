/**
 * What `modernize` leaves in --out-dir: the modernized notebook (outputs of the final clean run;
 * changed cells marked with fix type and source; notebook metadata with environment, verdict,
 * oracle and cost), changes.diff (unified diff of every changed cell), report.json.
 * The original notebook is never written.
 */
import path from 'node:path';
import { serializeNotebook, sourceText, writeFileAtomic, type Notebook } from '../core/notebook.js';
import { upgradeToV45 } from '../core/notebook-schema.js';
import { cellDiff } from '../core/cell-diff.js';
import type { FixType } from '../core/patch.js';
import type { ModernizeReport } from '../core/modernize-report.js';

export function writeArtifacts(input: {
  report: ModernizeReport;
  original: Notebook;
  modernized: Notebook;
  executed?: Notebook;
  changedBy: Map<number, { fixType: FixType; sources: string[] }>;
  outDir: string;
  notebookPath: string;
  /** After cells were inserted or deleted: the working (= original for old cells) number of each written cell. */
  origin?: Map<number, number>;
  /** Cells a patch deleted (working numbers): they are in the diff, not in the notebook. */
  removed?: number[];
}): ModernizeReport {
  const { report, outDir } = input;
  const name = path.basename(input.notebookPath).replace(/\.ipynb$/i, '');
  const nb = upgradeToV45(structuredClone(input.executed ?? input.modernized));
  for (const [cell, info] of input.changedBy) {
    const c = nb.cells[cell];
    if (!c) continue;
    c.metadata = { ...c.metadata, nbmodernize: { ...((c.metadata as any).nbmodernize ?? {}), changed: true, fixType: info.fixType, sources: info.sources } };
    // Without a final run, stale outputs of a changed cell would belong to code that no longer exists.
    if (!input.executed && c.cell_type === 'code') {
      c.outputs = [];
      c.execution_count = null;
    }
  }
  nb.metadata.nbmodernize = {
    ...(nb.metadata.nbmodernize ?? {}),
    verdict: report.verdict,
    stopReason: report.stopReason,
    oracle: report.oracle,
    environment: report.environment,
    llm: { calls: report.llm.calls, costUsd: report.llm.costUsd, model: report.llm.model },
    fixes: report.fixes.length,
  };
  const notebookFile = path.join(outDir, `${name}.modernized.ipynb`);
  writeFileAtomic(notebookFile, serializeNotebook(nb));

  const diffs: string[] = [];
  for (const cell of [...input.changedBy.keys()].sort((a, b) => a - b)) {
    const from = input.origin ? input.origin.get(cell) : cell;
    const before = from !== undefined ? sourceText(input.original.cells[from]?.source) : '';
    const after = sourceText(input.modernized.cells[cell]?.source);
    if (before !== after) diffs.push(cellDiff(cell, before, after, from === undefined || from >= input.original.cells.length ? 'new cell' : 'cell'));
  }
  for (const cell of input.removed ?? []) diffs.push(cellDiff(cell, sourceText(input.original.cells[cell]?.source), '', 'deleted cell'));
  const diffFile = path.join(outDir, 'changes.diff');
  writeFileAtomic(diffFile, diffs.join('\n'));

  const final: ModernizeReport = {
    ...report,
    notebook: { path: input.notebookPath, output: notebookFile },
    artifacts: {
      notebook: notebookFile,
      diff: diffFile,
      report: path.join(outDir, 'report.json'),
      trajectory: path.join(outDir, 'trajectory.jsonl'),
      edits: path.join(outDir, 'edits.jsonl'),
    },
  };
  writeFileAtomic(path.join(outDir, 'report.json'), JSON.stringify(final, null, 2) + '\n');
  return final;
}

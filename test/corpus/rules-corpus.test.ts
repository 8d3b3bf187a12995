/**
 * The rule engine over the whole development corpus (../shared/corpus, read in place), statically:
 * every notebook scans and fixes without crashing, every rewritten cell parses at least as well as
 * the original, fixing the fixed notebook changes nothing, and a scan stays fast. Executing the
 * notebooks before/after is `npm run bench:rules` (too slow for CI).
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseNotebook, sourceText, type Notebook } from '../../src/core/notebook.js';
import { fixNotebook, scanNotebook } from '../../src/fixers/rules/index.js';
import { listDataFiles } from '../../src/fixers/rules/data-files.js';
import { parseCell, disposeCells } from '../../src/fixers/rules/engine.js';
import { sharedDir } from '../support/sandbox.js';

const CORPUS = path.join(sharedDir(), 'corpus');

interface Entry { file: string; competition: string; notebook?: Notebook; error?: string }

function corpusNotebooks(): Entry[] {
  const root = path.join(CORPUS, 'notebooks');
  const out: Entry[] = [];
  for (const competition of fs.readdirSync(root).sort()) {
    for (const f of fs.readdirSync(path.join(root, competition)).sort()) {
      if (!f.endsWith('.ipynb')) continue;
      const file = path.join(root, competition, f);
      try {
        out.push({ file, competition, notebook: parseNotebook(fs.readFileSync(file, 'utf8'), f).notebook });
      } catch (e) {
        out.push({ file, competition, error: String(e) });
      }
    }
  }
  return out;
}

async function errorNodes(source: string): Promise<number> {
  const cell = await parseCell(0, source);
  if (!cell) return 0;
  const n = cell.idx.errors.length + (cell.idx.byType.get('MISSING')?.length ?? 0);
  disposeCells([cell]);
  return n;
}

describe('rules over the corpus (static)', { skip: !fs.existsSync(CORPUS) && 'no ../shared/corpus here', timeout: 600_000 }, () => {
  const entries = fs.existsSync(CORPUS) ? corpusNotebooks() : [];
  const dataFiles = new Map<string, string[]>();
  before(() => {
    for (const e of entries) if (!dataFiles.has(e.competition)) dataFiles.set(e.competition, listDataFiles(path.join(CORPUS, 'data', e.competition)));
  });

  it('reads every notebook', () => {
    assert.ok(entries.length >= 40, `found ${entries.length} notebooks`);
    assert.deepEqual(entries.filter((e) => e.error).map((e) => `${e.file}: ${e.error}`), []);
  });

  it('scans every notebook fast and finds the known breakage', async (t) => {
    const times: number[] = [];
    let withFindings = 0;
    let findings = 0;
    for (const e of entries) {
      const t0 = performance.now();
      const fs_ = await scanNotebook(e.notebook!, { dataFiles: dataFiles.get(e.competition), competition: e.competition });
      times.push(performance.now() - t0);
      findings += fs_.length;
      if (fs_.length) withFindings++;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    t.diagnostic(`${entries.length} notebooks, ${withFindings} with findings, ${findings} findings, median scan ${median.toFixed(1)} ms, max ${times.at(-1)!.toFixed(0)} ms`);
    assert.ok(withFindings >= entries.length * 0.8, `only ${withFindings} notebooks with findings`);
    assert.ok(median < 500, `median scan ${median} ms`);
  });

  it('fixes every notebook: rewritten cells parse at least as well, metadata set, and a second fix changes nothing', async () => {
    const problems: string[] = [];
    for (const e of entries) {
      const opts = { dataFiles: dataFiles.get(e.competition), competition: e.competition };
      const name = path.basename(e.file);
      const res = await fixNotebook(e.notebook!, opts);
      for (const ch of res.changes) {
        const [before, after] = [await errorNodes(ch.before), await errorNodes(ch.after)];
        if (after > before) problems.push(`${name} cell ${ch.cell}: ${before} -> ${after} parse errors`);
        const meta = (res.notebook.cells[ch.cell].metadata as any).nbmodernize;
        if (!meta?.changed || !meta.rules.length) problems.push(`${name} cell ${ch.cell}: no nbmodernize metadata`);
        if (sourceText(res.notebook.cells[ch.cell].source) !== ch.after) problems.push(`${name} cell ${ch.cell}: source not written`);
      }
      const again = await fixNotebook(res.notebook, opts);
      for (const ch of again.changes) problems.push(`${name} cell ${ch.cell}: not idempotent (${ch.rules.join(', ')})`);
    }
    assert.deepEqual(problems, []);
  });
});

/** `nbmodernize scan` and `nbmodernize fix --rules-only` end to end on temporary notebooks. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CliContext } from '../../../src/cli/context.js';
import { run as scan } from '../../../src/cli/commands/scan.js';
import { run as fix } from '../../../src/cli/commands/fix.js';
import { readNotebookFile, serializeNotebook, sourceText } from '../../../src/core/notebook.js';
import { UsageError } from '../../../src/core/errors.js';
import { notebookOf } from './support.js';

function ctxIn(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    argv: [], env: { NBMODERNIZE_CACHE_DIR: path.join(cwd, '.cache') }, cwd,
    stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false, signal: new AbortController().signal,
  };
  return { ctx, out: () => out.join(''), err: () => err.join('') };
}

function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-rules-cli-'));
  fs.writeFileSync(path.join(dir, 'old.ipynb'), serializeNotebook(notebookOf(['import pandas as pd\ndf = pd.read_csv("data/train.csv")', 'print df.ix[0]'])));
  fs.writeFileSync(path.join(dir, 'clean.ipynb'), serializeNotebook(notebookOf(['print(1)'])));
  fs.writeFileSync(path.join(dir, 'broken.ipynb'), '{"cells": [');
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'train.csv'), 'a\n1\n');
  return dir;
}

describe('nbmodernize scan', () => {
  it('lists findings with notebook, cell, line, rule and fixability; exit 1; keeps going past a malformed notebook', async () => {
    const dir = workspace();
    const io = ctxIn(dir);
    const code = await scan(['broken.ipynb', 'old.ipynb', 'clean.ipynb', '--data', 'data'], io.ctx);
    assert.equal(code, 1);
    assert.match(io.err(), /^nbmodernize: broken\.ipynb is not valid JSON/m);
    assert.equal(io.err().trim().split('\n').length, 1, 'one line per unreadable notebook');
    assert.match(io.out(), /old\.ipynb: cell 0, line 2:\d+: DATA001 data-path: .*\[auto-fixable\]/);
    assert.match(io.out(), /old\.ipynb: cell 1, line 1:1: PY001 py2-print-statement: /);
    assert.match(io.out(), /old\.ipynb: cell 1, line 1:\d+: PD001 pandas-ix: /);
    assert.match(io.out(), /3 finding\(s\), 3 auto-fixable, in 1 of 3 notebook\(s\); 1 could not be read/);
  });

  it('exits 0 without findings and prints JSON with --json', async () => {
    const dir = workspace();
    const io = ctxIn(dir);
    assert.equal(await scan(['clean.ipynb', '--json'], io.ctx), 0);
    const json = JSON.parse(io.out());
    assert.deepEqual(json.summary, { notebooks: 1, withFindings: 0, findings: 0, autoFixable: 0, suppressed: 0, unreadable: 0 });
  });

  it('scans directories for notebooks', async () => {
    const dir = workspace();
    const io = ctxIn(dir);
    await scan(['.', '--json'], io.ctx);
    const json = JSON.parse(io.out());
    assert.deepEqual(json.notebooks.map((n: any) => n.notebook), ['broken.ipynb', 'clean.ipynb', 'old.ipynb']);
    const f = json.notebooks[2].findings[0];
    assert.deepEqual(Object.keys(f).sort(), ['autoFixable', 'cell', 'code', 'column', 'fixType', 'library', 'line', 'link', 'message', 'ruleId']);
  });

  it('scans a large directory across threads with the output of one thread; rejects --jobs 0', async () => {
    const dir = workspace();
    fs.mkdirSync(path.join(dir, 'many'));
    // 200 notebooks and up are scanned by a pool of threads (scan-files.ts).
    for (let i = 0; i < 205; i++) {
      const cells = i % 3 ? [`x${i} = ${i}`] : [`import pandas as pd\ndf${i} = pd.DataFrame()`, `print df${i}.ix[0]`];
      fs.writeFileSync(path.join(dir, 'many', `nb${String(i).padStart(3, '0')}.ipynb`), serializeNotebook(notebookOf(cells)));
    }
    const one = ctxIn(dir);
    const two = ctxIn(dir);
    assert.equal(await scan(['many', '--json', '-j', '1'], one.ctx), 1);
    assert.equal(await scan(['many', '--json', '--jobs', '2'], two.ctx), 1);
    assert.equal(two.out(), one.out());
    assert.equal(JSON.parse(two.out()).summary.withFindings, 69);
    await assert.rejects(scan(['many', '--jobs', '0'], ctxIn(dir).ctx), /--jobs must be a whole number/);
  });
});

describe('nbmodernize fix --rules-only', () => {
  it('writes <name>.modernized.ipynb beside the input and never touches the input', async () => {
    const dir = workspace();
    const before = fs.readFileSync(path.join(dir, 'old.ipynb'), 'utf8');
    const io = ctxIn(dir);
    assert.equal(await fix(['old.ipynb', '--rules-only', '--data', 'data', '--diff'], io.ctx), 0);
    assert.equal(fs.readFileSync(path.join(dir, 'old.ipynb'), 'utf8'), before);
    const out = readNotebookFile(path.join(dir, 'old.modernized.ipynb')).notebook;
    assert.equal(sourceText(out.cells[0].source), 'import pandas as pd\ndf = pd.read_csv("../input/train.csv")');
    assert.equal(sourceText(out.cells[1].source), 'print(df.loc[0])');
    assert.deepEqual((out.cells[1].metadata as any).nbmodernize, { changed: true, fixType: 'error-repair', rules: ['py2-print-statement', 'pandas-ix'] });
    // Same diff format as the agent's edits.diff (core/cell-diff).
    assert.match(io.out(), /--- a\/cell 1\t?\n\+\+\+ b\/cell 1\t?\n@@ -1,1 \+1,1 @@\n-print df\.ix\[0\]\n\+print\(df\.loc\[0\]\)/);
    assert.match(io.out(), /old\.modernized\.ipynb: 2 cell\(s\) changed by 3 rule\(s\); 0 finding\(s\) left/);
  });

  it('honours -o, and --json reports changes and remaining findings', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'lgb.ipynb'), serializeNotebook(notebookOf(['import lightgbm\nprint "x"'])));
    const io = ctxIn(dir);
    assert.equal(await fix(['lgb.ipynb', '--rules-only', '-o', 'out/new.ipynb', '--json'], io.ctx), 0);
    const json = JSON.parse(io.out());
    assert.equal(json.output, path.join('out', 'new.ipynb'));
    assert.deepEqual(json.changes.map((c: any) => c.rules), [['py2-print-statement']]);
    assert.deepEqual(json.findings.map((f: any) => f.ruleId), ['env-unavailable-library']);
    assert.ok(fs.existsSync(path.join(dir, 'out', 'new.ipynb')));
  });

  it('requires --rules-only and exactly one notebook', async () => {
    const dir = workspace();
    await assert.rejects(fix(['old.ipynb'], ctxIn(dir).ctx), UsageError);
    await assert.rejects(fix(['old.ipynb', 'clean.ipynb', '--rules-only'], ctxIn(dir).ctx), UsageError);
  });
});

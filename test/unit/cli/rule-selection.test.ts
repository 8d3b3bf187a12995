/** `scan` / `fix` with --select, --ignore and `# nbmodernize: ignore[...]` comments (the engine decides; the CLI passes them on). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CliContext } from '../../../src/cli/context.js';
import { run as scan } from '../../../src/cli/commands/scan.js';
import { run as fix } from '../../../src/cli/commands/fix.js';
import { UsageError } from '../../../src/core/errors.js';
import { readNotebookFile, serializeNotebook, sourceText } from '../../../src/core/notebook.js';
import { notebookOf } from '../rules/support.js';

function workspace(): { dir: string; ctx: CliContext; out: () => string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-select-'));
  fs.writeFileSync(path.join(dir, 'old.ipynb'), serializeNotebook(notebookOf([
    'import pandas as pd\nimport numpy as np\ndf = pd.DataFrame({"a": [1]})',
    'print df.ix[0]\nx = np.float(2)',
    '# nbmodernize: ignore[PD001]\ny = df.ix[0]',
  ])));
  const out: string[] = [];
  const ctx: CliContext = {
    argv: [], env: { NBMODERNIZE_CACHE_DIR: path.join(dir, '.cache') }, cwd: dir,
    stdout: (t) => out.push(t), stderr: () => {}, isTTY: false, signal: new AbortController().signal,
  };
  return { dir, ctx, out: () => out.join('') };
}

const rulesOf = (json: any) => json.notebooks[0].findings.map((f: any) => `${f.code} ${f.cell}`);

describe('scan --select / --ignore', () => {
  it('report only the selected rules; prefixes and comma lists as in ruff', async () => {
    const w = workspace();
    await scan(['old.ipynb', '--json', '--select', 'PD'], w.ctx);
    assert.deepEqual(rulesOf(JSON.parse(w.out())), ['PD001 1']);
    const w2 = workspace();
    await scan(['old.ipynb', '--json', '--select', 'PY,NP', '--ignore', 'PY001'], w2.ctx);
    assert.deepEqual(rulesOf(JSON.parse(w2.out())).map((s: string) => s.slice(0, 2)), ['NP']);
  });

  it('a cell\'s ignore comment: the finding is listed as suppressed, not counted', async () => {
    const w = workspace();
    assert.equal(await scan(['old.ipynb', '--json', '--select', 'PD001'], w.ctx), 1);
    const json = JSON.parse(w.out());
    assert.deepEqual(json.notebooks[0].suppressed.map((f: any) => [f.code, f.cell, f.suppressed]), [['PD001', 2, '# nbmodernize: ignore[PD001]']]);
    assert.equal(json.summary.findings, 1);
    assert.equal(json.summary.suppressed, 1);
    const w2 = workspace();
    await scan(['old.ipynb', '--select', 'PD001'], w2.ctx);
    assert.match(w2.out(), /old\.ipynb: cell 1, line 1:\d+: PD001 pandas-ix: /);
    assert.match(w2.out(), /1 finding\(s\), 1 auto-fixable, in 1 of 1 notebook\(s\); 1 suppressed by nbmodernize: ignore comments/);
  });

  it('an unknown selector is a usage error before anything is scanned', async () => {
    const w = workspace();
    await assert.rejects(scan(['old.ipynb', '--select', 'PD,QQ1'], w.ctx), (e: unknown) => e instanceof UsageError && /^--select: unknown rule selector "QQ1"/.test(e.message));
    await assert.rejects(scan(['old.ipynb', '--ignore', 'PD999'], w.ctx), (e: unknown) => e instanceof UsageError && /^--ignore: unknown rule code "PD999"/.test(e.message));
    assert.equal(w.out(), '');
  });
});

describe('fix --select / --ignore', () => {
  it('applies only the selected rules and never a silenced one', async () => {
    const w = workspace();
    assert.equal(await fix(['old.ipynb', '--rules-only', '--ignore', 'NP', '--json'], w.ctx), 0);
    const nb = readNotebookFile(path.join(w.dir, 'old.modernized.ipynb')).notebook;
    assert.equal(sourceText(nb.cells[1].source), 'print(df.loc[0])\nx = np.float(2)');
    assert.equal(sourceText(nb.cells[2].source), '# nbmodernize: ignore[PD001]\ny = df.ix[0]');
    const json = JSON.parse(w.out());
    assert.deepEqual(json.suppressed.map((f: any) => [f.ruleId, f.cell]), [['pandas-ix', 2]]);
  });
});

/**
 * Proof that the rules hold in the fixed environment: every fixture's "before" snippet runs in the
 * real kernel and fails (with the exception its rule's signatures describe), or for default-pinning
 * and behaviour rules prints something other than the expected value; every "after" (or, for
 * report-only findings, the hand-written "manual" fix) runs and prints exactly the expected value.
 * All snippets go into one notebook and one kernel (each cell starts with `%reset -f`) so the suite
 * stays fast.
 *
 * `NBM_FIXTURE_RULES=id,id2` runs only those rules' fixtures: a developer checking a new rule need
 * not wait for all ~1,000 snippets (CI sets nothing, so it runs every one).
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Notebook } from '../../src/core/notebook.js';
import type { RunResult } from '../../src/core/run-result.js';
import { runNotebook } from '../../src/executor/run-notebook.js';
import { testSandboxRequest } from '../support/sandbox.js';
import { ALL_RULES, ruleById, scanNotebook, rulesMatchingError } from '../../src/fixers/rules/index.js';
import type { Fixture, Rule } from '../../src/fixers/rules/types.js';
import { notebookOf } from '../unit/rules/support.js';

/** Content of every data file a fixture names (read by the data-path fixtures). */
export const FIXTURE_DATA = 'a,b\n1,2\n3,4\n';

interface Slot {
  rule: Rule;
  fixture: Fixture;
  n: number;
  kind: 'before' | 'after';
  cell: number;
}

function stdoutOf(nb: Notebook, index: number): string {
  const cell = nb.cells[index];
  if (cell.cell_type !== 'code') return '';
  return cell.outputs
    .map((o: any) => (o.output_type === 'stream' && o.name === 'stdout' ? [].concat(o.text).join('') : o.output_type === 'execute_result' ? [].concat(o.data['text/plain'] ?? '').join('') : ''))
    .join('');
}

/**
 * `%reset -f` clears names, not a library's process-wide settings: a snippet that sets pandas'
 * `display.max_rows` to 10 changed what every later snippet printed for a long frame (the order
 * of rules decides which, so a fixture passed alone and failed in the full run). Every snippet
 * therefore also starts from pandas' default options, when pandas is loaded, binding no name.
 */
const RESET = "%reset -f\nwith __import__('warnings').catch_warnings(): __import__('warnings').simplefilter('ignore'); 'pandas' in __import__('sys').modules and __import__('sys').modules['pandas'].reset_option('all')";

function buildNotebook(): { nb: Notebook; slots: Slot[]; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-rule-data-'));
  const cells: string[] = ["import warnings\nwarnings.filterwarnings('ignore')"];
  const slots: Slot[] = [];
  const only = process.env.NBM_FIXTURE_RULES?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const rule of ALL_RULES) {
    if (only && !only.includes(rule.id)) continue;
    rule.fixtures.forEach((fixture, i) => {
      for (const f of fixture.context?.dataFiles ?? []) {
        fs.mkdirSync(path.dirname(path.join(dataDir, f)), { recursive: true });
        fs.writeFileSync(path.join(dataDir, f), FIXTURE_DATA);
      }
      const push = (kind: 'before' | 'after', code: string) => {
        // A clean namespace for every snippet: the reset runs first in the same cell (a snippet with
        // Python 2 syntax fails to compile as a whole, before anything runs, as it should).
        if (fixture.sandboxSetup) cells.push(`${RESET}\n${fixture.sandboxSetup}`);
        slots.push({ rule, fixture, n: i + 1, kind, cell: cells.length });
        cells.push(`${fixture.sandboxSetup ? '' : `${RESET}\n`}${code}`);
      };
      push('before', fixture.before);
      const good = fixture.after ?? fixture.manual;
      if (good !== undefined && !fixture.noSandbox) push('after', good);
    });
  }
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 4,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: cells.map((source) => ({ cell_type: 'code' as const, source, metadata: {}, outputs: [], execution_count: null })),
  };
  return { nb, slots, dataDir };
}

describe('rule fixtures in the fixed kernel', { timeout: 3_900_000 }, () => {
  const { nb, slots, dataDir } = buildNotebook();
  let result: RunResult;
  let executed: Notebook;

  before(async () => {
    const out = await runNotebook(nb, {
      sandbox: testSandboxRequest({ data: { dir: dataDir, competition: 'rules-fixtures' } }),
      allowErrors: true,
      cellTimeoutS: 120,
      timeoutS: 3600,
      collectState: false,
    });
    result = out.result;
    executed = out.notebook;
  });

  it('ran every snippet', () => {
    const byIndex = new Map(result.cells.map((c) => [c.index, c]));
    const notRun = slots.filter((s) => !byIndex.get(s.cell) || byIndex.get(s.cell)!.status === 'not-run');
    assert.deepEqual(notRun.map((s) => `${s.rule.id}#${s.n}/${s.kind}`), []);
  });

  for (const slot of slots) {
    const { rule, fixture, n, kind } = slot;
    const label = `${rule.id} #${n} ${kind === 'before' ? 'old form' : fixture.after !== undefined ? 'rewrite' : 'manual fix'}`;
    it(label, async () => {
      const rec = result.cells.find((c) => c.index === slot.cell);
      assert.ok(rec, 'cell record');
      const printed = stdoutOf(executed, slot.cell).trim();
      if (kind === 'after') {
        assert.equal(rec.status, 'ok', `failed: ${rec.error?.ename}: ${rec.error?.evalue}`);
        assert.equal(printed, fixture.expect.trim());
        return;
      }
      if ((fixture.beforeOutcome ?? 'error') === 'differs') {
        assert.equal(rec.status, 'ok', `the old form should run (and give another value): ${rec.error?.ename}: ${rec.error?.evalue}`);
        assert.notEqual(printed, fixture.expect.trim(), 'the old form gives the same value');
        return;
      }
      assert.equal(rec.status, 'error', `the old form ran: ${printed}`);
      const e = rec.error!;
      if (fixture.beforeError) assert.equal(e.ename, fixture.beforeError, `${e.ename}: ${e.evalue}`);
      if (e.ename === 'SyntaxError') return;
      // The error must be recognised by this rule or by another rule that finds something in the snippet.
      const findings = await scanNotebook(notebookOf([fixture.before], { pythonMajor: fixture.context?.pythonMajor }), {
        kinds: ['error-repair', 'score-calibration'], includeErrorTriggered: true, era: fixture.context?.era, dataFiles: fixture.context?.dataFiles,
      });
      const candidates = [rule, ...findings.map((f) => ruleById(f.ruleId)!)];
      const matched = rulesMatchingError(e, candidates);
      assert.ok(matched.length > 0, `no error signature recognises ${e.ename}: ${e.evalue}`);
    });
  }
});

/** `nbmodernize rules` and the top-level help (built from every command module's summary). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { CliContext } from '../../../src/cli/context.js';
import { run as rules } from '../../../src/cli/commands/rules.js';
import { COMMANDS, loadCommand, usageText } from '../../../src/cli/usage.js';
import { UsageError } from '../../../src/core/errors.js';
import { packageRoot } from '../../../src/core/paths.js';
import { ALL_RULES, codeOf } from '../../../src/fixers/rules/index.js';

function io() {
  const out: string[] = [];
  const ctx: CliContext = {
    argv: [], env: {}, cwd: process.cwd(), stdout: (t) => out.push(t), stderr: () => {}, isTTY: false, signal: new AbortController().signal,
  };
  return { ctx, out: () => out.join('') };
}

describe('nbmodernize rules', () => {
  it('lists every rule: code, id, library, version, fixability, title', async () => {
    const o = io();
    assert.equal(await rules([], o.ctx), 0);
    const lines = o.out().trim().split('\n');
    assert.match(lines[0], /^CODE\s+ID\s+LIBRARY\s+VERSION\s+FIX\s+TITLE$/);
    assert.equal(lines.length, ALL_RULES.length + 2);
    assert.match(o.out(), /^PD001\s+pandas-ix\s+pandas\s+removed 1\.0\s+fix\s+\.ix indexer$/m);
    assert.match(lines.at(-1)!, new RegExp(`^${ALL_RULES.length} rule\\(s\\)$`));
  });

  it('--json: every rule with its code, versions, fixability, example and link', async () => {
    const o = io();
    await rules(['--json'], o.ctx);
    const json = JSON.parse(o.out());
    assert.equal(json.length, ALL_RULES.length);
    const ix = json.find((r: any) => r.id === 'pandas-ix');
    assert.equal(ix.code, 'PD001');
    assert.equal(ix.library, 'pandas');
    assert.equal(ix.removedIn, '1.0');
    assert.equal(ix.autoFixable, true);
    assert.match(ix.example.before, /df\.ix\[/);
    assert.match(ix.example.after, /df\.loc\[/);
    assert.match(ix.link, /^https:/);
    const pin = json.find((r: any) => r.kind === 'score-calibration');
    assert.ok(pin.changedIn, 'pins say which version changed the default');
  });

  it('a prefix, --select and --ignore narrow the list', async () => {
    const o = io();
    await rules(['PD', '--ignore', 'PD001', '--json'], o.ctx);
    const ids = JSON.parse(o.out()).map((r: any) => r.id);
    assert.deepEqual(ids, ALL_RULES.filter((r) => r.library === 'pandas' && r.id !== 'pandas-ix').map((r) => r.id));
    const o2 = io();
    await rules(['--select', 'XGB,SM', '--json'], o2.ctx);
    assert.deepEqual(new Set(JSON.parse(o2.out()).map((r: any) => r.library)), new Set(['xgboost', 'statsmodels']));
  });

  it('explains one rule by code or id: what, why, version, example, link', async () => {
    for (const arg of ['PD001', 'pd001', 'pandas-ix']) {
      const o = io();
      assert.equal(await rules([arg], o.ctx), 0);
      const t = o.out();
      assert.match(t, /^PD001 pandas-ix: \.ix indexer\n/);
      assert.match(t, /removed in pandas 1\.0/);
      assert.match(t, /old\s+df\.ix\[rows, cols\]/);
      assert.match(t, /Why:\n {2}\.ix was removed/);
      assert.match(t, /Example, before:\n {4}import pandas as pd/);
      assert.match(t, /after \(what the rule writes\):\n(.*\n)* {4}print\(df\.loc\[1, 'b'\]/);
      assert.match(t, /More: https:\/\/pandas\.pydata\.org\//);
    }
    const o = io();
    await rules(['PD001', '--json'], o.ctx);
    assert.equal(JSON.parse(o.out()).id, 'pandas-ix', 'one rule: an object');
  });

  it('a report-only rule shows the hand-written fix', async () => {
    const rule = ALL_RULES.find((r) => !r.autoFixable && r.fixtures[0]?.manual)!;
    const o = io();
    await rules([codeOf(rule)!], o.ctx);
    assert.match(o.out(), /reported only/);
    assert.match(o.out(), /a fix by hand \(the rule only reports\):/);
  });

  it('an unknown code or selector is a usage error', async () => {
    await assert.rejects(rules(['PD999'], io().ctx), UsageError);
    await assert.rejects(rules(['nope'], io().ctx), UsageError);
    await assert.rejects(rules(['--select', 'Q'], io().ctx), UsageError);
  });
});

describe('top-level help', () => {
  it('knows every module in src/cli/commands', () => {
    const dir = path.join(packageRoot(), 'src', 'cli', 'commands');
    const modules = fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
    assert.deepEqual([...COMMANDS].sort(), modules.sort());
  });

  it('lists every command with its module\'s summary', async () => {
    const text = await usageText();
    for (const name of COMMANDS) {
      const { summary } = await loadCommand(name);
      assert.ok(summary && !summary.includes('\n'), `${name}: a one-line summary`);
      assert.match(text, new RegExp(`^ {2}${name} +${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
  });

  it('still lists a command whose module cannot load', async () => {
    const text = await usageText(async (name) => {
      if (name === 'audit') throw new Error('missing');
      return { summary: `about ${name}` };
    });
    assert.match(text, /^ {2}audit +\(not available in this build\)$/m);
    assert.match(text, /^ {2}rules +about rules$/m);
  });
});

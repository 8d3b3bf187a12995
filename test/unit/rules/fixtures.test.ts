/**
 * Generated per rule from its fixtures: the rewrite equals the fixture's `after`, applying it again
 * changes nothing (idempotence), surrounding formatting and comments are kept, and the old form
 * inside a string literal or a comment is left alone. Report-only fixtures must produce a finding
 * and no change.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RULES } from '../../../src/fixers/rules/index.js';
import type { Fixture, Rule } from '../../../src/fixers/rules/types.js';
import { fixSource, fixtureOptions } from './support.js';

const PREFIX = '# leading comment, keep   me\n';
const SUFFIX = '\n\n#  trailing   comment\nunrelated = [1,2 ,3]   # odd spacing\n';

/** Lines the rule inserted at the top of the cell (imports), so decorations can be placed after them. */
function splitInsertedTop(before: string, after: string): [string, string] {
  const b = before.split('\n');
  const a = after.split('\n');
  let k = 0;
  while (k < a.length && a[k] !== b[0] && /^(import|from) /.test(a[k])) k++;
  if (k === 0 || a[k] !== b[0]) return ['', after];
  return [a.slice(0, k).join('\n') + '\n', a.slice(k).join('\n')];
}

function inStringAndComment(before: string): string | undefined {
  const q = before.includes("'''") ? (before.includes('"""') ? undefined : '"""') : "'''";
  if (!q || before.endsWith(q[0]) || before.includes('\\')) return undefined;
  const comments = before.split('\n').map((l) => `# ${l}`).join('\n');
  return `text = ${q}\n${before}\n${q}\n${comments}\n`;
}

function checkFixture(rule: Rule, f: Fixture, i: number) {
  const opts = fixtureOptions(rule, f);
  const major = f.context?.pythonMajor;
  describe(`${rule.id} fixture ${i + 1}`, () => {
    it('is found by the rule', async () => {
      const { findings } = await fixSource(f.before, opts, major);
      const mine = findings.filter((x) => x.ruleId === rule.id);
      assert.ok(mine.length > 0, `no ${rule.id} finding in:\n${f.before}\nfindings: ${JSON.stringify(findings.map((x) => x.ruleId))}`);
      if (f.after === undefined) assert.ok(mine.every((x) => !x.autoFixable), 'a report-only fixture must not be auto-fixable');
      else assert.ok(mine.some((x) => x.autoFixable), 'expected an auto-fixable finding');
    });
    it(f.after === undefined ? 'is reported, not rewritten' : 'rewrites to the expected code', async () => {
      const { out } = await fixSource(f.before, opts, major);
      assert.equal(out, f.after ?? f.before);
    });
    if (f.after !== undefined) {
      const after = f.after;
      it('is idempotent (fixing the result changes nothing)', async () => {
        const { out, remaining } = await fixSource(after, opts, major);
        assert.equal(out, after);
        assert.deepEqual(remaining.filter((x) => x.ruleId === rule.id && x.autoFixable), []);
      });
      it('keeps surrounding formatting and comments', async () => {
        const [top, rest] = splitInsertedTop(f.before, after);
        // The traceback's lines (runtime evidence) move down with the code, by the prefix's lines.
        const shift = PREFIX.split('\n').length - 1;
        const rt = f.context?.runtime;
        const shifted = rt?.lines ? fixtureOptions(rule, { ...f, context: { ...f.context, runtime: { ...rt, lines: rt.lines.map((l) => l + shift) } } }) : opts;
        const { out } = await fixSource(PREFIX + f.before + SUFFIX, shifted, major);
        assert.equal(out, top + PREFIX + rest + SUFFIX);
      });
    }
    const quoted = inStringAndComment(f.before);
    if (quoted) {
      it('does not touch the old form inside strings and comments', async () => {
        const { out, findings } = await fixSource(quoted, opts, major);
        assert.equal(out, quoted);
        assert.deepEqual(findings.filter((x) => x.ruleId === rule.id), []);
      });
    }
  });
}

for (const rule of ALL_RULES) {
  describe(`rule ${rule.id}`, () => {
    it('has complete metadata', () => {
      assert.match(rule.id, /^[a-z0-9]+(-[a-z0-9_]+)+$/);
      assert.ok(rule.fixtures.length > 0, 'needs at least one fixture');
      assert.ok(rule.link.startsWith('https://'), 'needs a changelog link');
      // Environment rules restore the author's setting (a missing package, a shell option), not a library release.
      assert.ok(rule.library === 'environment' || (rule.kind === 'error-repair' ? !!rule.removedIn || rule.library === 'data' : !!(rule.changedIn ?? rule.fixedIn)), 'needs a version');
      const differsOnly = rule.fixtures.every((f) => f.beforeOutcome === 'differs');
      if (rule.kind === 'error-repair' && rule.library !== 'data' && !differsOnly) assert.ok(rule.errors.length > 0, 'needs an error signature');
      for (const f of rule.fixtures) assert.ok(f.after !== undefined || f.manual !== undefined || f.noSandbox, 'report-only fixtures need a manual fix');
    });
    rule.fixtures.forEach((f, i) => checkFixture(rule, f, i));
  });
}

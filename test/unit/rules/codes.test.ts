/**
 * Every rule has exactly one stable code (src/fixers/rules/codes.ts) and no code is ever given twice.
 * When rules are added on another branch, the failures below print the exact lines to add.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RULES } from '../../../src/fixers/rules/index.js';
import { CODE_PREFIX, RETIRED_CODES, RULE_CODES } from '../../../src/fixers/rules/codes.js';

const FORMAT = /^([A-Z]+)(\d{3})$/;

/** The next free number per prefix: above every code in use or retired. */
function nextFree(): Map<string, number> {
  const next = new Map<string, number>();
  for (const code of [...Object.values(RULE_CODES), ...RETIRED_CODES]) {
    const m = FORMAT.exec(code);
    if (m) next.set(m[1], Math.max(next.get(m[1]) ?? 1, Number(m[2]) + 1));
  }
  return next;
}

it('every registered rule has a code', () => {
  const next = nextFree();
  const missing = ALL_RULES.filter((r) => !RULE_CODES[r.id]).map((r) => {
    const prefix = CODE_PREFIX[r.library];
    const n = next.get(prefix) ?? 1;
    next.set(prefix, n + 1);
    return `  '${r.id}': '${prefix}${String(n).padStart(3, '0')}',`;
  });
  assert.deepEqual(missing, [], `rules without a code (${missing.length}); add these lines at the end of their library's block in src/fixers/rules/codes.ts:\n${missing.join('\n')}\n`);
});

it('every code belongs to a registered rule (a removed rule\'s code goes to RETIRED_CODES)', () => {
  const ids = new Set(ALL_RULES.map((r) => r.id));
  const stale = Object.entries(RULE_CODES).filter(([id]) => !ids.has(id)).map(([id, code]) => `${code} (${id})`);
  assert.deepEqual(stale, [], `codes of rules that do not exist: ${stale.join(', ')}: move them to RETIRED_CODES`);
});

it('no code is given twice, nor a retired one again', () => {
  const owners = new Map<string, string[]>();
  for (const [id, code] of Object.entries(RULE_CODES)) owners.set(code, [...(owners.get(code) ?? []), id]);
  const twice = [...owners].filter(([, ids]) => ids.length > 1).map(([code, ids]) => `${code}: ${ids.join(', ')}`);
  const next = nextFree();
  assert.deepEqual(twice, [], `codes given to more than one rule (keep the older, give the others the next free number: ${[...next].map(([p, n]) => `${p}${String(n).padStart(3, '0')}`).join(', ')}):\n${twice.join('\n')}`);
  const reused = Object.entries(RULE_CODES).filter(([, code]) => RETIRED_CODES.includes(code)).map(([id, code]) => `${code} (${id})`);
  assert.deepEqual(reused, [], `retired codes given again: ${reused.join(', ')}`);
  assert.equal(new Set(RETIRED_CODES).size, RETIRED_CODES.length, 'RETIRED_CODES lists a code twice');
});

it('a code is its library\'s prefix and three digits', () => {
  const prefixes = Object.values(CODE_PREFIX);
  assert.equal(new Set(prefixes).size, prefixes.length, 'one prefix per library');
  for (const p of prefixes) for (const q of prefixes) if (p !== q) assert.ok(!q.startsWith(p), `prefix ${p} is a prefix of ${q}: PD-style selectors would be ambiguous`);
  const wrong = ALL_RULES.filter((r) => RULE_CODES[r.id] && !(FORMAT.test(RULE_CODES[r.id]) && RULE_CODES[r.id].startsWith(CODE_PREFIX[r.library])))
    .map((r) => `${r.id} (${r.library}): ${RULE_CODES[r.id]}`);
  assert.deepEqual(wrong, [], `codes that do not match the rule's library (${CODE_PREFIX.pandas}001 for pandas, ...)`);
});

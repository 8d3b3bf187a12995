/**
 * Which rules run, as in ruff: `--select` / `--ignore` take selectors — `ALL`, a library prefix
 * with up to three digits (`PD`, `PD0`, `PD001`) or a rule id (`pandas-ix`) — and the most specific
 * selector that matches a rule decides (at equal specificity, ignore wins). So `--select PD
 * --ignore PD001` runs every pandas rule but one, and `--ignore PD --select PD001` only that one
 * of pandas. The same selectors name rules in `# nbmodernize: ignore[...]` comments.
 */
import { UsageError } from '../../core/errors.js';
import { CODE_PREFIX, RULE_CODES } from './codes.js';
import { ALL_RULES } from './registry.js';
import type { Rule } from './types.js';

export interface Selector {
  text: string;
  /** 0 for ALL, 1 for a bare prefix, one more per digit; a whole code or a rule id is 4. */
  specificity: number;
  matches(rule: Rule): boolean;
}

const PREFIXES = new Set(Object.values(CODE_PREFIX));
const FULL = 4;

let byCode: Map<string, string> | undefined;

/** The rule's stable code (undefined only for a rule not yet given one in codes.ts). */
export function codeOf(rule: Rule | string): string | undefined {
  return RULE_CODES[typeof rule === 'string' ? rule : rule.id];
}

/** A rule by its code (`PD001`, any case) or its id. */
export function findRule(codeOrId: string, rules: readonly Rule[] = ALL_RULES): Rule | undefined {
  const byId = rules.find((r) => r.id === codeOrId);
  if (byId) return byId;
  byCode ??= new Map(Object.entries(RULE_CODES).map(([id, code]) => [code, id]));
  const id = byCode.get(codeOrId.toUpperCase());
  return id ? rules.find((r) => r.id === id) : undefined;
}

/** Parse one selector; throws UsageError naming what is wrong with it. */
export function parseSelector(raw: string, rules: readonly Rule[] = ALL_RULES): Selector {
  const text = raw.trim();
  if (text.toUpperCase() === 'ALL') return { text: 'ALL', specificity: 0, matches: () => true };
  if (rules.some((r) => r.id === text)) return { text, specificity: FULL, matches: (r) => r.id === text };
  const m = /^([A-Za-z]+)(\d{0,3})$/.exec(text);
  const prefix = m?.[1].toUpperCase();
  if (!m || !prefix || !PREFIXES.has(prefix)) {
    throw new UsageError(`unknown rule selector "${raw}"`, `a selector is ALL, a rule id, or a code prefix: ${[...PREFIXES].join(', ')} with up to 3 digits (PD, PD0, PD001); see: nbmodernize rules`);
  }
  const code = prefix + m[2];
  if (m[2].length === 3 && !findRule(code, rules)) throw new UsageError(`unknown rule code "${raw}"`, 'see: nbmodernize rules');
  return { text: code, specificity: 1 + m[2].length, matches: (r) => codeOf(r)?.startsWith(code) ?? false };
}

/** Split comma-separated lists (`PD,SK001`) and parse each selector; throws UsageError on a bad one. */
export function parseSelectors(lists: readonly string[] | undefined, rules: readonly Rule[] = ALL_RULES): Selector[] {
  return (lists ?? []).flatMap((l) => l.split(',')).filter((s) => s.trim()).map((s) => parseSelector(s, rules));
}

export interface RuleSelection {
  /** Selectors whose rules run; absent: every rule. */
  select?: readonly string[];
  /** Selectors whose rules do not run. */
  ignore?: readonly string[];
}

/** A predicate over rules for --select / --ignore (throws UsageError on an unknown selector). */
export function ruleFilter(sel: RuleSelection, rules: readonly Rule[] = ALL_RULES): (rule: Rule) => boolean {
  const select = parseSelectors(sel.select, rules);
  const ignore = parseSelectors(sel.ignore, rules);
  if (!select.length && !ignore.length) return () => true;
  const everything = !sel.select?.length;
  return (rule) => {
    let best = -1;
    let on = everything;
    for (const s of select) if (s.specificity > best && s.matches(rule)) { best = s.specificity; on = true; }
    for (const s of ignore) if (s.specificity >= best && s.matches(rule)) { best = s.specificity; on = false; }
    return on;
  };
}

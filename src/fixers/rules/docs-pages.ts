/**
 * docs/rules/<library>.md: a section per rule with what `nbmodernize rules CODE` prints (what it
 * changes, why the old form broke and since which version, an example, the changelog), generated
 * from the rule definitions like docs/rules.md (test/unit/rules/docs.test.ts keeps them current).
 */
import { kindNote, ruleInfo, versionNote, type RuleInfo } from './catalog.js';
import { LIBRARY_TITLES, ruleAnchor } from './docs.js';
import type { Library, Rule } from './types.js';
import { LIBRARIES } from './types.js';

/** A fence longer than any backtick run in the code, so fixtures can hold anything. */
function fenced(code: string, lang = 'python'): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${code.replace(/\n+$/, '')}\n${fence}`;
}

function inline(s: string): string {
  const t = s.replace(/\n/g, ' ');
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

function section(r: RuleInfo): string[] {
  const out: string[] = [];
  const title = `${r.code ?? '(no code)'} \`${r.id}\`: ${r.title.replace(/\n/g, ' ')}`;
  if (r.code) out.push(`<a id="${ruleAnchor(r.code)}"></a>`);
  out.push(`### ${title}`, '');
  const facts = [versionNote(r), kindNote(r), r.errors.length ? `the old form raises ${r.errors.join(', ')}` : ''].filter(Boolean);
  out.push(`${facts.map((f) => f[0].toUpperCase() + f.slice(1)).join('. ')}.`, '');
  out.push(`Old: ${inline(r.old)} → new: ${inline(r.new)}`, '');
  out.push(`Why: ${r.message}`, '');
  if (r.example) {
    out.push('Before:', '', fenced(r.example.before), '');
    if (r.example.after !== undefined) out.push('After (what the rule writes):', '', fenced(r.example.after), '');
    else if (r.example.manual !== undefined) out.push('A fix by hand (the rule only reports this one):', '', fenced(r.example.manual), '');
  }
  out.push(`Changelog: <${r.link}>`, '');
  return out;
}

export function renderLibraryRulesMarkdown(library: Library, rules: readonly Rule[]): string {
  const mine = rules.filter((r) => r.library === library);
  const lines: string[] = [];
  lines.push(`# ${LIBRARY_TITLES[library] ?? library}: ${mine.length} rules`, '');
  lines.push('<!-- Generated from src/fixers/rules/*.ts by test/unit/rules/docs.test.ts (NBM_UPDATE_DOCS=1 to rewrite). Do not edit by hand. -->', '');
  lines.push('The table of every rule, and how to select, ignore and silence them: [../rules.md](../rules.md). The same text in a terminal: `nbmodernize rules CODE`.', '');
  for (const r of mine) lines.push(...section(ruleInfo(r)));
  return lines.join('\n');
}

/** Every page: file name under docs/rules/ -> content (libraries without rules get none). */
export function renderRulePages(rules: readonly Rule[]): Map<string, string> {
  const pages = new Map<string, string>();
  for (const lib of LIBRARIES) if (rules.some((r) => r.library === lib)) pages.set(`${lib}.md`, renderLibraryRulesMarkdown(lib, rules));
  return pages;
}

/** `nbmodernize rules [CODE|ID|SELECTOR...]`: browse the deterministic rules, like `ruff rule`. */
import { ExitCode } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';
import { RULE_FLAGS } from '../rule-flags.js';
import { ALL_RULES, findRule, kindNote, ruleFilter, ruleInfo, versionNote, type RuleInfo } from '../../fixers/rules/index.js';

export const summary = 'list the rules (code, id, library, version) or explain one: nbmodernize rules PD001';

const HELP = `Usage: nbmodernize rules [CODE|ID...] [options]

Without arguments: every rule, one a line (code, id, library, the version that removed the old
form or changed the default, whether it is auto-fixable, title). With a code (PD001) or a rule id:
what it changes, why the old form broke and since which version, an example before and after,
and the changelog. With a selector (PD, PD0, ALL): the rules it selects.

Options:
  --select CODES   list only these (codes, prefixes or ids, comma-separated)
  --ignore CODES   leave these out
  --json           machine-readable: an array of rules (an object for one code or id)

Codes are stable (src/fixers/rules/codes.ts); use them in --select/--ignore of scan and fix and in
"# nbmodernize: ignore[PD001,SK012]" comments. All rules explained: docs/rules.md, docs/rules/.`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    json: { type: 'boolean', default: false },
    ...RULE_FLAGS,
  }, 'rules', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  const named = positionals.map((p) => findRule(p));
  if (positionals.length && named.every(Boolean)) {
    const infos = named.map((r) => ruleInfo(r!));
    if (values.json) printJson(ctx, infos.length === 1 ? infos[0] : infos);
    else ctx.stdout(infos.map(explain).join('\n'));
    return ExitCode.ok;
  }
  // Not all exact rules: positionals select like --select (an unknown one is a usage error).
  const select = [...positionals, ...(values.select ?? [])];
  const keep = ruleFilter({ ...(select.length ? { select } : {}), ...(values.ignore ? { ignore: values.ignore } : {}) });
  const infos = ALL_RULES.filter(keep).map(ruleInfo);
  if (values.json) printJson(ctx, infos);
  else ctx.stdout(table(infos));
  return ExitCode.ok;
}

function table(infos: RuleInfo[]): string {
  const rows = infos.map((r) => [
    r.code ?? '-',
    r.id,
    r.library,
    r.kind === 'score-calibration' ? (r.fixedIn ? `fixed ${r.fixedIn}` : `default ${r.changedIn ?? '?'}`) : r.removedIn ? `removed ${r.removedIn}` : '',
    r.autoFixable ? 'fix' : 'report',
    r.title,
  ]);
  const head = ['CODE', 'ID', 'LIBRARY', 'VERSION', 'FIX', 'TITLE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd() + '\n';
  return line(head) + rows.map(line).join('') + `${infos.length} rule(s)\n`;
}

function indent(text: string, by = '    '): string {
  return text.split('\n').map((l) => (l ? by + l : l)).join('\n');
}

/** One rule, for a terminal: what it does, why it broke and when, an example, the link. */
export function explain(r: RuleInfo): string {
  const out: string[] = [];
  out.push(`${r.code ?? '(no code)'} ${r.id}: ${r.title}`);
  out.push('');
  out.push(`  library   ${r.library}${versionNote(r) ? ` (${versionNote(r)})` : ''}`);
  out.push(`  does      ${kindNote(r)}`);
  out.push(`  old       ${r.old}`);
  out.push(`  new       ${r.new}`);
  if (r.errors.length) out.push(`  raises    ${r.errors.join(', ')} (the old form, in the fixed environment)`);
  out.push('');
  out.push('Why:');
  out.push(indent(r.message, '  '));
  if (r.example) {
    out.push('');
    out.push('Example, before:');
    out.push(indent(r.example.before));
    const after = r.example.after ?? r.example.manual;
    if (after !== undefined) {
      out.push(r.example.after !== undefined ? 'after (what the rule writes):' : 'a fix by hand (the rule only reports):');
      out.push(indent(after));
    }
  }
  out.push('');
  out.push(`More: ${r.link}`);
  return out.join('\n') + '\n';
}
